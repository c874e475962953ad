import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { optimisationRecordSchema, type OptimisationRecord } from "@/lib/domain/optimiser/types";
import { lineageResponseSchema } from "@/lib/domain/template-lineage";

// The routes share one process-wide context; point it at a private database before importing them.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rp-optimisations-api-"));
process.env.REFLEXION_DB_PATH = path.join(dir, "api.sqlite");
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

let r: {
  start: typeof import("@/app/api/optimisations/route");
  one: typeof import("@/app/api/optimisations/[optimisationId]/route");
  resume: typeof import("@/app/api/optimisations/[optimisationId]/resume/route");
  lineage: typeof import("@/app/api/templates/[templateId]/lineage/route");
  context: typeof import("@/lib/server/app-context");
};

beforeAll(async () => {
  r = {
    start: await import("@/app/api/optimisations/route"),
    one: await import("@/app/api/optimisations/[optimisationId]/route"),
    resume: await import("@/app/api/optimisations/[optimisationId]/resume/route"),
    lineage: await import("@/app/api/templates/[templateId]/lineage/route"),
    context: await import("@/lib/server/app-context"),
  };
});

const post = (url: string, body: unknown) => new NextRequest(`http://localhost${url}`, { method: "POST", body: typeof body === "string" ? body : JSON.stringify(body), headers: { "content-type": "application/json" } });
const params = <T>(value: T) => ({ params: Promise.resolve(value) });

async function settledOptimisation(id: string): Promise<OptimisationRecord> {
  for (;;) {
    const response = await r.one.GET(new NextRequest(`http://localhost/api/optimisations/${id}`), params({ optimisationId: id }));
    const { optimisation } = (await response.json()) as { optimisation: unknown };
    const record = optimisationRecordSchema.parse(optimisation);
    if (record.status !== "running") return record;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe("/api/optimisations", () => {
  it("refuses a malformed budget with 400 naming the field, never reading it as no limit (start and resume)", async () => {
    for (const budget of ["abc", { tokens: "abc" }, { tokens: 12.5 }, { tokens: 0 }, { tokens: 1e12 }, {}]) {
      const response = await r.start.POST(post("/api/optimisations", { experimentId: "exp-any", role: "actor", budget }));
      expect(response.status, JSON.stringify(budget)).toBe(400);
      expect(JSON.stringify(await response.json())).toContain("budget");
    }
    const resumed = await r.resume.POST(post("/api/optimisations/opt-any/resume", { budget: { tokens: "abc" } }), params({ optimisationId: "opt-any" }));
    expect(resumed.status).toBe(400);
  });

  it("starts one in the background (202), reads it, resumes it; the lineage carries its scores; a bad body is 400", async () => {
    const server = r.context.getServerContext();
    const source = await server.experiments.start({ name: "source", environment: "qa", taskSet: "builtin", taskIds: ["qa-builtin-01", "qa-builtin-02", "qa-builtin-03", "qa-builtin-04"], maxTrials: 1, arms: [{ label: "reflexion", strategy: "reflexion", modelId: "demo" }] });
    for (;;) {
      if ((await server.experiments.summary(source.id)).status !== "running") break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }

    const refused = await r.start.POST(post("/api/optimisations", { experimentId: source.id, role: "critic" }));
    expect(refused.status).toBe(400);

    const started = await r.start.POST(post("/api/optimisations", { experimentId: source.id, role: "actor", rounds: 1, candidatesPerRound: 1, trainFraction: 0.5, budget: { tokens: 1 } }));
    expect(started.status).toBe(202);
    const { optimisation } = (await started.json()) as { optimisation: OptimisationRecord };
    expect(optimisation.id).toMatch(/^opt-[0-9a-f]{12}$/);
    const stopped = await settledOptimisation(optimisation.id);
    expect(stopped.status).toBe("budget-spent");

    const resumed = await r.resume.POST(post(`/api/optimisations/${optimisation.id}/resume`, { budget: null }), params({ optimisationId: optimisation.id }));
    expect(resumed.status).toBe(202);
    const done = await settledOptimisation(optimisation.id);
    expect(done.status, done.detail ?? "").toBe("done");
    const candidate = done.candidates.find((c) => c.round === 1)!;
    expect(candidate).toMatchObject({ status: "evaluated", train: { n: 2 } });
    expect(candidate.pVsParent).not.toBeNull();

    const lineage = lineageResponseSchema.parse(await (await r.lineage.GET(new NextRequest("http://localhost/"), params({ templateId: encodeURIComponent(done.request.targetTemplateId) }))).json());
    expect(lineage.nodes.find((node) => node.versionId === candidate.versionId)?.score).toMatchObject({ optimisationId: done.id, round: 1, pVsParent: candidate.pVsParent });

    const missing = await r.one.GET(new NextRequest("http://localhost/api/optimisations/opt-none"), params({ optimisationId: "opt-none" }));
    expect(missing.status).toBe(404);
  }, 120_000);
});
