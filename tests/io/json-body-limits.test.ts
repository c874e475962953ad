import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { apiErrorSchema } from "@/lib/domain/api";
import { MAX_JSON_BODY_BYTES, MAX_RICH_JSON_BODY_BYTES } from "@/lib/io/bounded-body";

// The routes share one process-wide context: a private database.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rp-json-limits-"));
process.env.REFLEXION_DB_PATH = path.join(dir, "api.sqlite");
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const MIB = 1024 * 1024;

/** A chunked body of spaces (no content-length) that counts the 1 MiB chunks pulled from it. */
function endless(url: string): { request: Request; pulled: () => number } {
  let pulled = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      pulled += 1;
      controller.enqueue(new Uint8Array(MIB).fill(0x20));
    },
  });
  return { request: new Request(url, { method: "POST", body, headers: { "content-type": "application/json" }, duplex: "half" } as RequestInit), pulled: () => pulled };
}

const params = <T extends Record<string, string>>(value: T) => ({ params: Promise.resolve(value) });

describe("JSON routes read their bodies with a ceiling", () => {
  it("a run request, a template, an edit and a breakpoints request that never end answer 413 with the limit, after reading at most the limit", async () => {
    const cases: { name: string; call: (request: Request) => Promise<Response>; limit: number }[] = [
      { name: "runs", call: async (request) => (await import("@/app/api/runs/route")).POST(request), limit: MAX_RICH_JSON_BODY_BYTES },
      { name: "templates", call: async (request) => (await import("@/app/api/templates/route")).POST(request), limit: MAX_RICH_JSON_BODY_BYTES },
      { name: "edits", call: async (request) => (await import("@/app/api/runs/[runId]/edits/route")).POST(request, params({ runId: "r-1" })), limit: MAX_RICH_JSON_BODY_BYTES },
      { name: "breakpoints", call: async (request) => (await import("@/app/api/runs/[runId]/breakpoints/route")).POST(request, params({ runId: "r-1" })), limit: MAX_JSON_BODY_BYTES },
      { name: "resume", call: async (request) => (await import("@/app/api/runs/[runId]/resume/route")).POST(request, params({ runId: "r-1" })), limit: MAX_JSON_BODY_BYTES },
    ];
    for (const { name, call, limit } of cases) {
      const body = endless(`http://test/api/${name}`);
      const response = await call(body.request);
      expect(response.status, name).toBe(413);
      expect(apiErrorSchema.parse(await response.json()).error.message, name).toMatch(new RegExp(`larger than ${limit / MIB} MB, the most this server accepts; nothing was stored\\. Send a smaller request`));
      expect(body.pulled(), name).toBeLessThanOrEqual(limit / MIB + 2);
    }
  });
});
