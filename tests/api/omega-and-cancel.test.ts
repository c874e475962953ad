import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { foldRun } from "@/lib/domain/fold-run";
import { deriveRunGraph } from "@/lib/graph/derive-run-graph";

// The routes share one process-wide context; point it at a private database before importing them.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rp-omega-cancel-"));
process.env.REFLEXION_DB_PATH = path.join(dir, "api.sqlite");
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

let r: { runs: typeof import("@/app/api/runs/route"); cancel: typeof import("@/app/api/runs/[runId]/cancel/route") };
beforeAll(async () => {
  r = { runs: await import("@/app/api/runs/route"), cancel: await import("@/app/api/runs/[runId]/cancel/route") };
});

const post = (url: string, body: unknown) =>
  new NextRequest(`http://127.0.0.1${url}`, { method: "POST", body: JSON.stringify(body), headers: { "content-type": "application/json" } });
const base = { environment: "qa", taskSet: "builtin", taskId: "qa-builtin-01", strategy: "reflexion", modelId: "demo" };

describe("memory window Ω in a new run", () => {
  it("10^12 is refused with the range; 100 is accepted", async () => {
    const refused = await r.runs.POST(post("/api/runs", { ...base, memoryWindow: 1e12 }));
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(/memoryWindow: memory window Ω must be at most 100/);
    const zero = await r.runs.POST(post("/api/runs", { ...base, memoryWindow: 0 }));
    expect(zero.status).toBe(400);
    const ok = await r.runs.POST(post("/api/runs", { ...base, memoryWindow: 100, breakpoints: { beforeModelCall: { actor: true } } }));
    expect(ok.status).toBe(201);
  });
});

describe("a run cancelled during trial 1", () => {
  it("reads trial 1 cancelled in the fold and the graph, not in progress", async () => {
    const created = await r.runs.POST(post("/api/runs", { ...base, breakpoints: { beforeModelCall: { actor: true } } }));
    const { runId } = (await created.json()) as { runId: string };
    const { getServerContext } = await import("@/lib/server/app-context");
    const server = getServerContext();
    const run = await server.service.getRun(runId);
    await server.workers.untilSettled(run.rootBranchId);
    const cancelled = await r.cancel.POST(post(`/api/runs/${runId}/cancel`, {}), { params: Promise.resolve({ runId }) });
    expect(cancelled.status).toBe(200);
    const state = foldRun((await server.service.events(runId)).events);
    expect(state.outcome).toBe("cancelled");
    expect(state.trials).toHaveLength(1);
    expect(state.trials[0]).toMatchObject({ trial: 1, outcome: null, cancelled: true });
    const header = deriveRunGraph(state).nodes.find((node) => node.type === "trial");
    expect(header?.data).toMatchObject({ trial: 1, outcome: null, cancelled: true });
  });
});
