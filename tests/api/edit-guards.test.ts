import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { foldRun } from "@/lib/domain/fold-run";
import { MAX_TEMPLATE_BYTES } from "@/lib/domain/template-check";
import { qaActorTemplate } from "@/lib/environments/qa/prompts";

// The routes share one process-wide context; point it at a private database before importing them.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rp-edit-guards-"));
process.env.REFLEXION_DB_PATH = path.join(dir, "api.sqlite");
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

let r: {
  runs: typeof import("@/app/api/runs/route");
  edits: typeof import("@/app/api/runs/[runId]/edits/route");
  templates: typeof import("@/app/api/templates/route");
  versions: typeof import("@/app/api/templates/[templateId]/versions/route");
  experiments: typeof import("@/app/api/experiments/route");
};

beforeAll(async () => {
  r = {
    runs: await import("@/app/api/runs/route"),
    edits: await import("@/app/api/runs/[runId]/edits/route"),
    templates: await import("@/app/api/templates/route"),
    versions: await import("@/app/api/templates/[templateId]/versions/route"),
    experiments: await import("@/app/api/experiments/route"),
  };
});

const post = (url: string, body: unknown) =>
  new NextRequest(`http://127.0.0.1${url}`, { method: "POST", body: JSON.stringify(body), headers: { "content-type": "application/json" } });
const params = <T extends Record<string, string>>(value: T) => ({ params: Promise.resolve(value) });

/** A QA run paused before its first Actor call, and the seq it is at. */
async function pausedRun(): Promise<{ runId: string; seq: number }> {
  const response = await r.runs.POST(
    post("/api/runs", { environment: "qa", taskSet: "builtin", taskId: "qa-builtin-01", strategy: "reflexion", modelId: "demo", breakpoints: { beforeModelCall: { actor: true } } }),
  );
  expect(response.status).toBe(201);
  const { runId } = (await response.json()) as { runId: string };
  const { getServerContext } = await import("@/lib/server/app-context");
  const server = getServerContext();
  const run = await server.service.getRun(runId);
  await server.workers.untilSettled(run.rootBranchId);
  const state = foldRun((await server.service.events(runId)).events);
  expect(state.status).toBe("paused");
  return { runId, seq: state.lastSeq };
}

const errorOf = async (response: Response) => ((await response.json()) as { error: { code: string; message: string } }).error;

describe("edits of a paused run carry the seq they were made against", () => {
  it("two clients edit from the same seq: the first lands, the second gets 409 naming the first's change", async () => {
    const { runId, seq } = await pausedRun();
    const first = await r.edits.POST(post(`/api/runs/${runId}/edits`, { kind: "model", role: "actor", temperature: 0.7, baseSeq: seq }), params({ runId }));
    expect(first.status).toBe(200);
    const second = await r.edits.POST(post(`/api/runs/${runId}/edits`, { kind: "action", text: "Search[Dunmere]", baseSeq: seq }), params({ runId }));
    expect(second.status).toBe(409);
    const error = await errorOf(second);
    expect(error.code).toBe("stale-edit");
    expect(error.message).toContain(`made against seq ${seq}`);
    expect(error.message).toMatch(/seq \d+: the Actor model settings were edited \(.*temperature 0\.7\)/);
    expect(error.message).toMatch(/Reload .* re-apply/);

    // Nothing of the stale edit was recorded; re-applied against the current seq it lands.
    const { getServerContext } = await import("@/lib/server/app-context");
    const state = foldRun((await getServerContext().service.events(runId)).events);
    expect(state.pendingAction).toBeNull();
    const again = await r.edits.POST(post(`/api/runs/${runId}/edits`, { kind: "action", text: "Search[Dunmere]", baseSeq: state.lastSeq }), params({ runId }));
    expect(again.status).toBe(200);
  });

  it("two concurrent edits from the same seq: exactly one lands", async () => {
    const { runId, seq } = await pausedRun();
    const [a, b] = await Promise.all([
      r.edits.POST(post(`/api/runs/${runId}/edits`, { kind: "model", role: "actor", temperature: 0.3, baseSeq: seq }), params({ runId })),
      r.edits.POST(post(`/api/runs/${runId}/edits`, { kind: "model", role: "actor", temperature: 0.9, baseSeq: seq }), params({ runId })),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
  });

  it("a baseSeq ahead of the log is refused (it would pass every staleness check), saying the newest seq", async () => {
    const { runId, seq } = await pausedRun();
    const ahead = await r.edits.POST(post(`/api/runs/${runId}/edits`, { kind: "action", text: "Search[Dunmere]", baseSeq: 99_999 }), params({ runId }));
    expect(ahead.status).toBe(400);
    expect((await errorOf(ahead)).message).toContain(`its newest event is seq ${seq}`);
  });

  it("a 1 MB action, memory item or reflection is refused with the limit before anything is recorded", async () => {
    const { runId, seq } = await pausedRun();
    const huge = "lesson ".repeat(150_000);
    for (const body of [
      { kind: "action", text: huge, baseSeq: seq },
      { kind: "memory", memory: [{ id: "m1", text: huge, trial: null }], baseSeq: seq },
      { kind: "reflection", reflectionEventId: "e1", text: huge, baseSeq: seq },
    ]) {
      const refused = await r.edits.POST(post(`/api/runs/${runId}/edits`, body), params({ runId }));
      expect(refused.status, body.kind).toBe(400);
      expect((await errorOf(refused)).message).toMatch(/at most 16384 characters \(this one is 1049999\)/);
    }
    const { getServerContext } = await import("@/lib/server/app-context");
    expect(foldRun((await getServerContext().service.events(runId)).events).lastSeq).toBe(seq);
  });
});

describe("template edits through the API go through one check", () => {
  it("a run's prompt edit: unknown and missing placeholders refused with the list, accepted with allowUnknown; a huge text refused with the limit", async () => {
    const { runId, seq } = await pausedRun();
    const typo = qaActorTemplate.text.replace("{memory}", "{memroy}");
    const refused = await r.edits.POST(post(`/api/runs/${runId}/edits`, { kind: "prompt", role: "actor", text: typo, baseSeq: seq }), params({ runId }));
    expect(refused.status).toBe(400);
    const message = (await errorOf(refused)).message;
    expect(message).toContain("{memroy}");
    expect(message).toContain("did you mean {memory}");
    expect(message).toContain("allowUnknown: true");

    const noQuestion = qaActorTemplate.text.replaceAll("{question}", "the question");
    const missing = await r.edits.POST(post(`/api/runs/${runId}/edits`, { kind: "prompt", role: "actor", text: noQuestion, baseSeq: seq }), params({ runId }));
    expect(missing.status).toBe(400);
    expect((await errorOf(missing)).message).toMatch(/leaves out \{question\}/);

    const huge = `${qaActorTemplate.text}${"x".repeat(3 * 1024 * 1024)}`;
    const tooLarge = await r.edits.POST(post(`/api/runs/${runId}/edits`, { kind: "prompt", role: "actor", text: huge, baseSeq: seq }), params({ runId }));
    expect(tooLarge.status).toBe(400);
    expect((await errorOf(tooLarge)).message).toContain(`${MAX_TEMPLATE_BYTES} bytes`);
    // Past the body ceiling (8 MiB) the request is refused before it is read whole.
    const hugeBody = await r.edits.POST(post(`/api/runs/${runId}/edits`, { kind: "prompt", role: "actor", text: "x".repeat(30 * 1024 * 1024), baseSeq: seq }), params({ runId }));
    expect(hugeBody.status).toBe(413);
    expect((await errorOf(hugeBody)).message).toMatch(/edit is larger than 8 MB/);

    const accepted = await r.edits.POST(post(`/api/runs/${runId}/edits`, { kind: "prompt", role: "actor", text: typo, allowUnknown: true, baseSeq: seq }), params({ runId }));
    expect(accepted.status).toBe(200);
  });

  it("the template library: create and save refuse the same way", async () => {
    const created = await r.templates.POST(post("/api/templates", { name: "typo", family: "qa", role: "actor", strategy: "reflexion", text: qaActorTemplate.text.replace("{memory}", "{memroy}") }));
    expect(created.status).toBe(400);
    expect((await errorOf(created)).message).toContain("{memroy}");
    const ok = await r.templates.POST(post("/api/templates", { name: "typo", family: "qa", role: "actor", strategy: "reflexion", text: qaActorTemplate.text.replace("{memory}", "{memroy}"), allowUnknown: true }));
    expect(ok.status).toBe(201);
    const { template } = (await ok.json()) as { template: { id: string } };
    const huge = await r.versions.POST(post(`/api/templates/${template.id}/versions`, { text: "y".repeat(3 * 1024 * 1024), message: "big" }), params({ templateId: template.id }));
    expect(huge.status).toBe(400);
    expect((await errorOf(huge)).message).toMatch(/3\.0 MB; the limit is 64\.0 KB/);
  });

  it("a new run's and an experiment arm's template texts: refused the same way, before anything is recorded", async () => {
    const typo = qaActorTemplate.text.replace("{memory}", "{memroy}");
    const base = { environment: "qa", taskSet: "builtin", taskId: "qa-builtin-01", strategy: "reflexion", modelId: "demo", breakpoints: { beforeModelCall: { actor: true } } };
    const refused = await r.runs.POST(post("/api/runs", { ...base, templates: { actor: typo } }));
    expect(refused.status).toBe(400);
    expect((await errorOf(refused)).message).toMatch(/templates\.actor uses \{memroy\}/);
    const accepted = await r.runs.POST(post("/api/runs", { ...base, templates: { actor: typo }, allowUnknown: true }));
    expect(accepted.status).toBe(201);

    const { getServerContext } = await import("@/lib/server/app-context");
    const before = (await getServerContext().store.listRuns(1_000)).length;
    const arm = { label: "typo", strategy: "reflexion", modelId: "demo", templates: { actor: typo } };
    const experiment = await r.experiments.POST(post("/api/experiments", { name: "typo", environment: "qa", taskSet: "builtin", taskIds: ["qa-builtin-01"], arms: [arm] }));
    expect(experiment.status).toBe(400);
    expect((await errorOf(experiment)).message).toMatch(/Arm "typo": the Actor template in templates\.actor uses \{memroy\}/);
    expect((await getServerContext().store.listRuns(1_000)).length).toBe(before);
  });
});
