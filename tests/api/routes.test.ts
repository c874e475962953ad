import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { NextRequest } from "next/server";
import { beforeAll, describe, expect, it } from "vitest";
import { familyIds, runnableFamilyIds } from "@/lib/environments/descriptors";
import { environmentsResponseSchema } from "@/lib/domain/api";

// The routes share one process-wide context; point it at a private database before importing them.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rp-api-"));
process.env.REFLEXION_DB_PATH = path.join(dir, "api.sqlite");
process.env.OPENAI_API_KEY = "sk-test-SECRET-never-shown";

type Params = { params: Promise<{ runId: string }> };
let routes: {
  runs: typeof import("@/app/api/runs/route");
  run: typeof import("@/app/api/runs/[runId]/route");
  events: typeof import("@/app/api/runs/[runId]/events/route");
  edits: typeof import("@/app/api/runs/[runId]/edits/route");
  breakpoints: typeof import("@/app/api/runs/[runId]/breakpoints/route");
  resume: typeof import("@/app/api/runs/[runId]/resume/route");
  taskSets: typeof import("@/app/api/task-sets/route");
  fork: typeof import("@/app/api/runs/[runId]/fork/route");
  branches: typeof import("@/app/api/runs/[runId]/branches/route");
  models: typeof import("@/app/api/models/route");
  environments: typeof import("@/app/api/environments/route");
};

beforeAll(async () => {
  routes = {
    runs: await import("@/app/api/runs/route"),
    run: await import("@/app/api/runs/[runId]/route"),
    events: await import("@/app/api/runs/[runId]/events/route"),
    edits: await import("@/app/api/runs/[runId]/edits/route"),
    breakpoints: await import("@/app/api/runs/[runId]/breakpoints/route"),
    resume: await import("@/app/api/runs/[runId]/resume/route"),
    taskSets: await import("@/app/api/task-sets/route"),
    fork: await import("@/app/api/runs/[runId]/fork/route"),
    branches: await import("@/app/api/runs/[runId]/branches/route"),
    models: await import("@/app/api/models/route"),
    environments: await import("@/app/api/environments/route"),
  };
});

const post = (url: string, body: unknown) =>
  new NextRequest(`http://127.0.0.1${url}`, { method: "POST", body: typeof body === "string" ? body : JSON.stringify(body), headers: { "content-type": "application/json" } });
const params = (runId: string): Params => ({ params: Promise.resolve({ runId }) });

async function finishedRun(): Promise<string> {
  const response = await routes.runs.POST(post("/api/runs", { environment: "qa", taskSet: "builtin", taskId: "qa-builtin-01", strategy: "reflexion", modelId: "demo" }));
  expect(response.status).toBe(201);
  const { runId } = (await response.json()) as { runId: string };
  const { getServerContext } = await import("@/lib/server/app-context");
  const server = getServerContext();
  const run = await server.service.getRun(runId);
  await server.workers.untilSettled(run.rootBranchId);
  return runId;
}

describe("HTTP routes", () => {
  it("creates a run, serves its events and reports the real last seq", async () => {
    const runId = await finishedRun();
    const page = await routes.events.GET(new NextRequest(`http://127.0.0.1/api/runs/${runId}/events?after=0`), params(runId));
    const body = (await page.json()) as { events: Array<{ type: string; seq: number }>; status: string; lastSeq: number };
    expect(body.status).toBe("ended");
    expect(body.events.at(-1)?.type).toBe("run-end");
    const beyond = await routes.events.GET(new NextRequest(`http://127.0.0.1/api/runs/${runId}/events?after=999`), params(runId));
    expect(await beyond.json()).toMatchObject({ events: [], lastSeq: body.lastSeq });
  });

  it("serves events in bounded pages with nextAfter and more, and refuses a page too large", async () => {
    const runId = await finishedRun();
    const whole = (await (await routes.events.GET(new NextRequest(`http://127.0.0.1/api/runs/${runId}/events?after=0`), params(runId))).json()) as { events: Array<{ seq: number }>; more: boolean };
    expect(whole.more).toBe(false);
    const seqs: number[] = [];
    let after = 0;
    for (let guard = 0; guard < 1000; guard += 1) {
      const page = (await (await routes.events.GET(new NextRequest(`http://127.0.0.1/api/runs/${runId}/events?after=${after}&limit=7`), params(runId))).json()) as { events: Array<{ seq: number }>; nextAfter: number; more: boolean };
      expect(page.events.length).toBeLessThanOrEqual(7);
      seqs.push(...page.events.map((event) => event.seq));
      if (!page.more) break;
      after = page.nextAfter;
    }
    expect(seqs).toEqual(whole.events.map((event) => event.seq));
    const tooLarge = await routes.events.GET(new NextRequest(`http://127.0.0.1/api/runs/${runId}/events?after=0&limit=50000`), params(runId));
    expect(tooLarge.status).toBe(400);
    expect(JSON.stringify(await tooLarge.json())).toMatch(/nextAfter/);
    // Only decimal digits are numbers here: hex, blanks and exponents are refused, not guessed.
    for (const query of ["after=0x10", "after=%20", "after=1e3", "after=&limit=", "limit=7.5"]) {
      const refused = await routes.events.GET(new NextRequest(`http://127.0.0.1/api/runs/${runId}/events?${query}`), params(runId));
      expect(refused.status, query).toBe(400);
    }
  });

  it("answers bad input with 4xx and a message that says what to fix", async () => {
    const notJson = await routes.runs.POST(post("/api/runs", "{oops"));
    expect(notJson.status).toBe(400);
    const badStrategy = await routes.runs.POST(post("/api/runs", { environment: "qa", taskSet: "builtin", taskId: "qa-builtin-01", strategy: "magic", modelId: "demo" }));
    expect(badStrategy.status).toBe(400);
    expect(JSON.stringify(await badStrategy.json())).toMatch(/strategy/);
    const unknownTask = await routes.runs.POST(post("/api/runs", { environment: "qa", taskSet: "builtin", taskId: "nope", strategy: "none", modelId: "demo" }));
    expect(unknownTask.status).toBe(404);
    const unconfigured = await routes.runs.POST(post("/api/runs", { environment: "qa", taskSet: "builtin", taskId: "qa-builtin-01", strategy: "none", modelId: "anthropic:claude-x" }));
    expect(unconfigured.status).toBe(400);
    expect(JSON.stringify(await unconfigured.json())).toMatch(/ANTHROPIC_API_KEY/);
    const missing = await routes.run.GET(new NextRequest("http://127.0.0.1/api/runs/nope"), params("nope"));
    expect(missing.status).toBe(404);
  });

  it("refuses edits unless paused, breakpoint changes after the end, and resuming a finished run", async () => {
    const runId = await finishedRun();
    const edit = await routes.edits.POST(post(`/api/runs/${runId}/edits`, { kind: "memory", memory: [] }), params(runId));
    expect(edit.status).toBe(409);
    expect(JSON.stringify(await edit.json())).toMatch(/only while the run is paused/);
    const breakpoints = await routes.breakpoints.POST(post(`/api/runs/${runId}/breakpoints`, { afterReflection: true }), params(runId));
    expect(breakpoints.status).toBe(409);
    const bogus = await routes.breakpoints.POST(post(`/api/runs/${runId}/breakpoints`, { bogus: 1 }), params(runId));
    expect(bogus.status).toBe(400);
    const resume = await routes.resume.POST(post(`/api/runs/${runId}/resume`, {}), params(runId));
    expect(resume.status).toBe(409);
  });

  it("imports the same dataset once, however often it is uploaded", async () => {
    const content = fs.readFileSync(path.resolve(__dirname, "../../../shared/data/hotpotqa/hotpotqa-distractor-reflexion-sample100.json"), "utf8");
    const first = await routes.taskSets.POST(post("/api/task-sets", { environment: "qa", name: "sample.json", content }));
    const second = await routes.taskSets.POST(post("/api/task-sets", { environment: "qa", name: "sample again.json", content }));
    const a = (await first.json()) as { taskSet: { id: string }; tasks: unknown[] };
    const b = (await second.json()) as { taskSet: { id: string } };
    expect(a.tasks).toHaveLength(100);
    expect(b.taskSet.id).toBe(a.taskSet.id);
    const list = (await (await routes.taskSets.GET()).json()) as { taskSets: Array<{ id: string }> };
    expect(list.taskSets.filter((set) => set.id === a.taskSet.id)).toHaveLength(1);
    const broken = await routes.taskSets.POST(post("/api/task-sets", { environment: "qa", name: "broken.json", content: "{not json" }));
    expect(broken.status).toBe(422);
  });

  it("forks a finished run at its start, replays it from the cache, and lists both branches", async () => {
    const runId = await finishedRun();
    const bad = await routes.fork.POST(post(`/api/runs/${runId}/fork`, { atSeq: 2, replay: "recorded" }), params(runId));
    expect(bad.status).toBe(400);
    expect(JSON.stringify(await bad.json())).toMatch(/Forks start at a checkpoint/);
    const forked = await routes.fork.POST(post(`/api/runs/${runId}/fork`, { atSeq: 1, replay: "recorded" }), params(runId));
    expect(forked.status).toBe(201);
    const { branchId } = (await forked.json()) as { branchId: string };
    const { getServerContext } = await import("@/lib/server/app-context");
    const { asBranchId } = await import("@/lib/domain/ids");
    await getServerContext().workers.untilSettled(asBranchId(branchId));
    const list = (await (await routes.branches.GET(new NextRequest(`http://127.0.0.1/api/runs/${runId}/branches`), params(runId))).json()) as {
      branches: Array<{ id: string; reason: string; status: string; liveCalls: number; cachedCalls: number; forkSeq: number | null }>;
    };
    expect(list.branches).toHaveLength(2);
    expect(list.branches[0]).toMatchObject({ reason: "root", forkSeq: null, status: "ended", liveCalls: 6, cachedCalls: 0 });
    expect(list.branches[1]).toMatchObject({ id: branchId, reason: "replay", forkSeq: 1, status: "ended", liveCalls: 0, cachedCalls: 6 });
    const page = await routes.events.GET(new NextRequest(`http://127.0.0.1/api/runs/${runId}/events?after=0&branch=${branchId}`), params(runId));
    const body = (await page.json()) as { events: Array<{ type: string; branchId: string }>; status: string };
    expect(body.events[1]).toMatchObject({ type: "branch-start", branchId });
    expect(body.status).toBe("ended");
    const foreign = await routes.events.GET(new NextRequest(`http://127.0.0.1/api/runs/${runId}/events?branch=nope`), params(runId));
    expect(foreign.status).toBe(404);
  });

  it("lists models and task families without leaking a key", async () => {
    const models = await (await routes.models.GET()).text();
    expect(models).toContain('"demo"');
    expect(models).toContain("openai:");
    expect(models).not.toContain("SECRET");
    // The response parses with the schema the client uses.
    const environments = environmentsResponseSchema.parse(await (await routes.environments.GET()).json());
    // In family order (the descriptors' order), the same order as every other list of families.
    expect(environments.environments.map((e) => e.id)).toEqual(runnableFamilyIds());
    // The imported-traces family is not offered for new runs: its runs are only imported.
    expect(familyIds()).toContain("external");
    expect(environments.environments.map((e) => e.id)).not.toContain("external");
    expect(familyIds()).toEqual(expect.arrayContaining(["qa", "household", "code", "open"]));
    // Only the open family's Evaluator is a model (the forms show its model picker).
    expect(environments.environments.filter((e) => e.evaluatorUsesModel).map((e) => e.id)).toEqual(["open"]);
    const code = environments.environments.find((e) => e.id === "code");
    expect(code).toMatchObject({ fixedStepsPerTrial: 4, defaultMemoryWindow: 1 });
    // Code renders no last attempt and lists no CoT Actor: ReAct only and Reflexion, never those.
    expect(code?.supportedStrategies).toEqual(expect.arrayContaining(["none", "reflexion"]));
    expect(code?.supportedStrategies).not.toEqual(expect.arrayContaining(["last-attempt"]));
    expect(code?.supportedStrategies).not.toEqual(expect.arrayContaining(["cot"]));
    // The placeholders the engine fills, for the Steer tab's unknown-placeholder warning.
    expect(code?.templateVariables.actor).toEqual(expect.arrayContaining(["signature", "previous_attempt", "memory", "scratchpad"]));
    expect(code?.templateVariables.reflector).toEqual(expect.arrayContaining(["signature", "scratchpad", "feedback"]));
    expect(JSON.stringify(code?.templateVariables)).not.toMatch(/hidden/i);
    const qa = environments.environments.find((e) => e.id === "qa");
    expect(qa?.templateVariables.actor).toEqual(expect.arrayContaining(["question", "examples", "memory", "scratchpad"]));
  });
});
