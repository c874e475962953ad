import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  abResultSchema,
  importResponseSchema,
  previewResponseSchema,
  saveVersionResponseSchema,
  templateBundleSchema,
  templateDetailResponseSchema,
  templateListResponseSchema,
  versionDetailResponseSchema,
} from "@/lib/domain/template-library";

// The routes share one process-wide context; point it at a private database before importing them.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rp-templates-api-"));
process.env.REFLEXION_DB_PATH = path.join(dir, "api.sqlite");
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

let r: {
  list: typeof import("@/app/api/templates/route");
  detail: typeof import("@/app/api/templates/[templateId]/route");
  versions: typeof import("@/app/api/templates/[templateId]/versions/route");
  label: typeof import("@/app/api/templates/[templateId]/labels/[label]/route");
  version: typeof import("@/app/api/templates/versions/[versionId]/route");
  preview: typeof import("@/app/api/templates/preview/route");
  exporting: typeof import("@/app/api/templates/export/route");
  importing: typeof import("@/app/api/templates/import/route");
  ab: typeof import("@/app/api/templates/ab/route");
  abResult: typeof import("@/app/api/experiments/[experimentId]/ab/route");
  runs: typeof import("@/app/api/runs/route");
};

beforeAll(async () => {
  r = {
    list: await import("@/app/api/templates/route"),
    detail: await import("@/app/api/templates/[templateId]/route"),
    versions: await import("@/app/api/templates/[templateId]/versions/route"),
    label: await import("@/app/api/templates/[templateId]/labels/[label]/route"),
    version: await import("@/app/api/templates/versions/[versionId]/route"),
    preview: await import("@/app/api/templates/preview/route"),
    exporting: await import("@/app/api/templates/export/route"),
    importing: await import("@/app/api/templates/import/route"),
    ab: await import("@/app/api/templates/ab/route"),
    abResult: await import("@/app/api/experiments/[experimentId]/ab/route"),
    runs: await import("@/app/api/runs/route"),
  };
});

const url = (p: string) => `http://127.0.0.1${p}`;
const json = (method: string, p: string, body: unknown) => new NextRequest(url(p), { method, body: JSON.stringify(body), headers: { "content-type": "application/json" } });
const get = (p: string) => new NextRequest(url(p));
const params = <T extends Record<string, string>>(value: T) => ({ params: Promise.resolve(value) });

describe("template routes", () => {
  it("list, detail (URL-encoded id), save, label, version by reference, preview, export/import, A/B", async () => {
    const listed = templateListResponseSchema.parse(await (await r.list.GET(get("/api/templates?family=qa&role=reflector"))).json());
    expect(listed.templates.map((t) => t.id).sort()).toEqual(["qa/cot-context-reflect", "qa/cot-reflect", "qa/reflect"]);
    expect(listed.templates.every((t) => t.builtIn && t.versionCount === 1 && t.latestVersion.builtIn)).toBe(true);
    expect((await r.list.GET(get("/api/templates?family=nope"))).status).toBe(400);

    const id = encodeURIComponent("qa/reflect");
    const detail = templateDetailResponseSchema.parse(await (await r.detail.GET(get(`/api/templates/${id}`), params({ templateId: id }))).json());
    expect(detail.versions).toHaveLength(1);
    expect((await r.detail.GET(get("/api/templates/nope"), params({ templateId: "nope" }))).status).toBe(404);

    const text = `${detail.versions[0]!.text.replace("Reflection:", "MARKER-ROUTE\nReflection:")}`;
    const created = await r.versions.POST(json("POST", `/api/templates/${id}/versions`, { text, message: "route" }), params({ templateId: id }));
    expect(created.status).toBe(201);
    const saved = saveVersionResponseSchema.parse(await created.json());
    // qa/reflect is built-in (read-only): the text became a new template whose first version's parent is the built-in version.
    expect(saved).toMatchObject({ created: true, newTemplate: true, template: { builtIn: false, family: "qa", role: "reflector" }, version: { number: 1, parentId: detail.versions[0]!.id } });
    const ownId = saved.template!.id;
    const again = await r.versions.POST(json("POST", `/api/templates/${ownId}/versions`, { text, message: "again" }), params({ templateId: ownId }));
    expect(again.status).toBe(200);
    expect(saveVersionResponseSchema.parse(await again.json())).toMatchObject({ version: saved.version, created: false, newTemplate: false });

    const labelled = await r.label.PUT(json("PUT", `/api/templates/${ownId}/labels/candidate`, { versionId: saved.version.id }), params({ templateId: ownId, label: "candidate" }));
    expect(((await labelled.json()) as { template: { labels: Record<string, string> } }).template.labels).toEqual({ candidate: saved.version.id });
    expect((await r.label.PUT(json("PUT", `/api/templates/${ownId}/labels/Bad Label`, { versionId: saved.version.id }), params({ templateId: ownId, label: "Bad Label" }))).status).toBe(400);
    const ref = encodeURIComponent(`${ownId}@candidate`);
    const byRef = versionDetailResponseSchema.parse(await (await r.version.GET(get(`/api/templates/versions/${ref}`), params({ versionId: ref }))).json());
    expect(byRef.version.id).toBe(saved.version.id);

    const run = await r.runs.POST(json("POST", "/api/runs", { environment: "qa", taskSet: "builtin", taskId: "qa-builtin-01", strategy: "reflexion", modelId: "demo", maxTrials: 2, templateVersions: { reflector: `${ownId}@candidate` } }));
    expect(run.status).toBe(201);
    const { runId } = (await run.json()) as { runId: string };
    const { getServerContext } = await import("@/lib/server/app-context");
    const server = getServerContext();
    await server.workers.untilSettled((await server.service.getRun(runId)).rootBranchId);
    const events = (await server.service.events(runId)).events;
    const call = events.find((event) => event.type === "model-call-end" && event.data.role === "reflector");
    const preview = previewResponseSchema.parse(await (await r.preview.POST(json("POST", "/api/templates/preview", { versionId: `${ownId}@candidate`, role: "reflector", runId, trial: 1 }))).json());
    expect(call?.type === "model-call-end" && call.data.messages).toEqual(preview.messages);
    expect(preview.messages[0]!.content).toContain("MARKER-ROUTE");
    expect((await r.preview.POST(json("POST", "/api/templates/preview", { role: "reflector", runId, trial: 1 }))).status).toBe(400);

    const bundle = templateBundleSchema.parse(await (await r.exporting.GET(get(`/api/templates/export?ids=${id},${ownId}`))).json());
    expect(bundle.files.map((f) => f.path).sort()).toEqual(["qa/qa__reflect/v001.md", `qa/${ownId}/v001.md`].sort());
    const imported = importResponseSchema.parse(await (await r.importing.POST(json("POST", "/api/templates/import", bundle))).json());
    expect(imported.imported).toEqual([]);
    expect(imported.skipped).toHaveLength(2);

    const ab = await r.ab.POST(json("POST", "/api/templates/ab", { family: "qa", role: "reflector", versionA: "qa/reflect@v1", versionB: `${ownId}@candidate`, taskSet: "builtin", taskIds: ["qa-builtin-01"], modelId: "demo", maxTrials: 2 }));
    expect(ab.status).toBe(201);
    const { experimentId } = (await ab.json()) as { experimentId: string };
    for (const id of await server.experiments.runIds(experimentId)) await server.workers.untilSettled((await server.service.getRun(id)).rootBranchId);
    const result = abResultSchema.parse(await (await r.abResult.GET(get(`/api/experiments/${experimentId}/ab`), params({ experimentId }))).json());
    expect(result).toMatchObject({ role: "reflector", armA: { label: "A" }, armB: { label: "B", versionId: saved.version.id }, pairedTest: { n: 1 } });
    await server.workers.stop();
  }, 30_000);
});
