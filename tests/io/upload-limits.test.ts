import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiErrorSchema } from "@/lib/domain/api";
import { importResponseSchema } from "@/lib/domain/paper-import";

// The routes share one process-wide context: a private database, the shared data for the authors' logs.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rp-upload-limits-"));
process.env.REFLEXION_DB_PATH = path.join(dir, "api.sqlite");
process.env.REFLEXION_DATA_ROOT = path.resolve(__dirname, "../../../shared/data");
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const MIB = 1024 * 1024;
const COT_BASE = "reflexion/noahshinn-reflexion/hotpotqa_runs/root/CoT/no_context/base/100_questions_5_trials.txt";

let routes: { imports: typeof import("@/app/api/imports/route"); templates: typeof import("@/app/api/templates/import/route"); taskSets: typeof import("@/app/api/task-sets/route") };

beforeAll(async () => {
  routes = {
    imports: await import("@/app/api/imports/route"),
    templates: await import("@/app/api/templates/import/route"),
    taskSets: await import("@/app/api/task-sets/route"),
  };
});

/** A body that counts how many 1 MiB chunks were pulled from it, and claims `declared` bytes when given. */
function endless(url: string, declared?: number): { request: Request; pulled: () => number } {
  let pulled = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      pulled += 1;
      controller.enqueue(new Uint8Array(MIB).fill(0x20));
    },
  });
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (declared !== undefined) headers["content-length"] = String(declared);
  return { request: new Request(url, { method: "POST", body, headers, duplex: "half" } as RequestInit), pulled: () => pulled };
}

describe("upload routes read their bodies with a ceiling", () => {
  it("POST /api/templates/import, /api/task-sets and /api/imports answer 413 naming the limit, without reading an oversized body whole", async () => {
    const template = endless("http://test/api/templates/import", 200 * MIB);
    const refused = await routes.templates.POST(template.request);
    expect(refused.status).toBe(413);
    expect(apiErrorSchema.parse(await refused.json()).error.message).toMatch(/template import is larger than 16 MB/);
    expect(template.pulled()).toBeLessThanOrEqual(1);

    const dataset = endless("http://test/api/task-sets");
    const tooBig = await routes.taskSets.POST(dataset.request);
    expect(tooBig.status).toBe(413);
    expect(apiErrorSchema.parse(await tooBig.json()).error.message).toMatch(/task set upload is larger than 19.1 MB/);
    expect(dataset.pulled()).toBeLessThan(25);

    const logs = endless("http://test/api/imports");
    const logsRefused = await routes.imports.POST(logs.request);
    expect(logsRefused.status).toBe(413);
    expect(logs.pulled()).toBeLessThan(70);
  });

  it("an author's log uploaded gzip'd imports as the same log (the same import as the plain file)", async () => {
    const content = fs.readFileSync(path.join(process.env.REFLEXION_DATA_ROOT!, COT_BASE));
    const upload = (bytes: Buffer, name: string) => {
      const form = new FormData();
      form.append("file", new File([new Uint8Array(bytes)], name));
      return routes.imports.POST(new Request("http://test/api/imports", { method: "POST", body: form }));
    };
    const [plain] = importResponseSchema.parse(await (await upload(content, "100_questions_5_trials.txt")).json()).imports;
    const response = await upload(gzipSync(content), "100_questions_5_trials.txt.gz");
    expect(response.status).toBe(200);
    const [zipped] = importResponseSchema.parse(await response.json()).imports;
    expect(zipped).toMatchObject({ experimentId: plain!.experimentId, alreadyImported: true, runs: 100 });
  });
});
