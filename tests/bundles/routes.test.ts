import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";
import { bundleImportResponseSchema, bundleListResponseSchema, sharedBundleResponseSchema } from "@/lib/bundles/api";
import { apiErrorSchema } from "@/lib/domain/api";
import { otlpSettingsViewSchema } from "@/lib/otel/settings";
import { finishedRun, sqliteContext } from "./helpers";

// The routes share one process-wide context; point it at a private database (and OTLP settings with a secret header) before importing them.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rp-bundles-api-"));
process.env.REFLEXION_DB_PATH = path.join(dir, "api.sqlite");
process.env.REFLEXION_OTLP_ENDPOINT = "https://collector-user:collector-pass@otel.example.test/v1/traces";
process.env.REFLEXION_OTLP_HEADERS = "Authorization=Basic%20c2VjcmV0LWhlYWRlci12YWx1ZQ==";

let bytes: Buffer;
let runId: string;
let routes: {
  bundles: typeof import("@/app/api/bundles/route");
  shared: typeof import("@/app/api/bundles/[hash]/route");
  runBundle: typeof import("@/app/api/runs/[runId]/bundle/route");
  jsonl: typeof import("@/app/api/runs/[runId]/otlp.jsonl/route");
  otlpSettings: typeof import("@/app/api/otlp/settings/route");
};

beforeAll(async () => {
  // "Another machine": a separate database records the run and exports it.
  const { context } = sqliteContext();
  const run = await finishedRun(context, "qa");
  runId = run.id;
  bytes = (await context.bundles.exportRun(run.id)).bytes;
  await context.workers.stop();
  await context.store.close();
  routes = {
    bundles: await import("@/app/api/bundles/route"),
    shared: await import("@/app/api/bundles/[hash]/route"),
    runBundle: await import("@/app/api/runs/[runId]/bundle/route"),
    jsonl: await import("@/app/api/runs/[runId]/otlp.jsonl/route"),
    otlpSettings: await import("@/app/api/otlp/settings/route"),
  };
});

function upload(file: Uint8Array, name: string): Request {
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(file)], { type: "application/gzip" }), name);
  return new Request("http://test/api/bundles", { method: "POST", body: form });
}

describe("bundle routes", () => {
  it("POST /api/bundles imports (201, then 200 the second time); GET /api/bundles/:hash lists its runs; the run's bundle downloads", async () => {
    const first = await routes.bundles.POST(upload(bytes, "lecture.reflexion.json.gz"));
    expect(first.status).toBe(201);
    const imported = bundleImportResponseSchema.parse(await first.json());
    expect(imported.runIds).toEqual([runId]);
    const again = await routes.bundles.POST(upload(bytes, "lecture.reflexion.json.gz"));
    expect(again.status).toBe(200);

    const shared = await routes.shared.GET(new Request("http://test"), { params: Promise.resolve({ hash: imported.contentSha256 }) });
    const view = sharedBundleResponseSchema.parse(await shared.json());
    expect(view.runs.map((run) => [run.id, run.outcome])).toEqual([[runId, "success"]]);
    expect(bundleListResponseSchema.parse(await (await routes.bundles.GET()).json()).bundles).toHaveLength(1);

    const download = await routes.runBundle.GET(new Request("http://test"), { params: Promise.resolve({ runId }) });
    expect(download.headers.get("content-type")).toBe("application/gzip");
    expect(download.headers.get("content-disposition")).toMatch(/attachment; filename="run-.*\.reflexion\.json\.gz"/);
    const file = Buffer.from(await download.arrayBuffer());
    // Format 2: gzip'd JSON Lines, the manifest first, the trailer (with the hash in the header) last.
    const bundleLines = gunzipSync(file).toString("utf8").trim().split("\n").map((line) => JSON.parse(line) as { type: string; subject?: { id: string }; contentSha256?: string });
    expect(bundleLines[0]).toMatchObject({ type: "manifest", formatVersion: 2, subject: { id: runId } });
    expect(bundleLines.at(-1)?.contentSha256).toBe(download.headers.get("x-bundle-sha256"));
    expect(Number(download.headers.get("content-length"))).toBe(file.length);

    // The raw file as the body (what the app's Import button sends) streams in; this database has the run already.
    const raw = await routes.bundles.POST(new Request("http://test/api/bundles", { method: "POST", body: new Uint8Array(file), headers: { "content-type": "application/gzip", "x-file-name": encodeURIComponent("réunion.reflexion.json.gz") } }));
    const rawResult = bundleImportResponseSchema.parse(await raw.json());
    expect(rawResult.manifest.formatVersion).toBe(2);
    expect(rawResult.alreadyHere).toBe(true);
    expect(rawResult.skippedRunIds).toEqual([runId]);

    const lines = await routes.jsonl.GET(new Request("http://test"), { params: Promise.resolve({ runId }) });
    expect((await lines.text()).split("\n").filter(Boolean)).toHaveLength(1);
  });

  it("a truncated upload answers 422 with the reason; an unknown hash 404 with what to do", async () => {
    const bad = await routes.bundles.POST(upload(bytes.subarray(0, 100), "cut.reflexion.json.gz"));
    expect(bad.status).toBe(422);
    expect(apiErrorSchema.parse(await bad.json()).error.message).toMatch(/cut short.*Nothing was imported/);
    const missing = await routes.shared.GET(new Request("http://test"), { params: Promise.resolve({ hash: "a".repeat(64) }) });
    expect(missing.status).toBe(404);
    expect(apiErrorSchema.parse(await missing.json()).error.message).toMatch(/Import the bundle file once/);
  });

  it("GET /api/otlp/settings shows the endpoint without credentials and header names without values", async () => {
    const response = await routes.otlpSettings.GET();
    const text = await response.text();
    expect(otlpSettingsViewSchema.parse(JSON.parse(text))).toEqual({ endpoint: "https://otel.example.test/v1/traces", headerNames: ["Authorization"], live: false, problem: null });
    for (const secret of ["collector-pass", "collector-user", "c2VjcmV0", "Basic"]) expect(text).not.toContain(secret);
  });
});
