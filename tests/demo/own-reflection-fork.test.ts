import { describe, expect, it } from "vitest";
import type { RunEvent } from "@/lib/domain/events";
import { foldRun } from "@/lib/domain/fold-run";
import type { EnvironmentId } from "@/lib/domain/config";
import { MemoryRunStore } from "@/lib/db/memory-store";
import { codeDemoScriptBook } from "@/lib/environments/code";
import { builtinHouseholdTasks } from "@/lib/environments/household/builtin-tasks";
import { householdDemoScriptBook } from "@/lib/environments/household";
import { builtinQaTasks } from "@/lib/environments/qa/builtin-tasks";
import { qaDemoScriptBook } from "@/lib/environments/qa";
import { createModelPort } from "@/lib/llm/model-port";
import { createServerContext } from "@/lib/server/app-context";
import { demoMockModel } from "../helpers/mock-model";
import { CORRECT_PARAPHRASES, UNHELPFUL_REFLECTIONS } from "./paraphrases";

/**
 * "Write your own reflection" end to end through the engine:
 * a demo run fails trial 1 and reflects; a fork at the checkpoint after the
 * reflection replaces it with a learner's text — exactly what the UI's "Run
 * trial 2 with mine" sends — and trial 2 of the fork succeeds with a correct
 * paraphrase and fails with an unhelpful one.
 */
function setup() {
  const mock = demoMockModel([codeDemoScriptBook, qaDemoScriptBook, householdDemoScriptBook]);
  return createServerContext({ store: new MemoryRunStore(), model: createModelPort({ resolveModel: () => mock, maxRetries: 0 }) });
}

type Context = ReturnType<typeof setup>;

async function trial2With(context: Context, environment: EnvironmentId, taskId: string, text: string) {
  const run = await context.service.createRun({ environment, taskSet: "builtin", taskId, strategy: "reflexion", modelId: "demo", maxTrials: 3 });
  await context.workers.untilSettled(run.rootBranchId);
  const events: RunEvent[] = (await context.service.events(run.id)).events;
  const reflection = events.find((event) => event.type === "reflection-end" && event.data.trial === 1);
  const checkpoint = events.find((event) => event.type === "checkpoint" && reflection !== undefined && event.seq > reflection.seq);
  if (!reflection || !checkpoint) throw new Error(`${taskId}: the demo run has no trial-1 reflection checkpoint`);
  const { branchId } = await context.service.fork(run.id, {
    atSeq: checkpoint.seq,
    replay: "recorded",
    edits: [{ kind: "reflection", reflectionEventId: reflection.id, text }],
  });
  await context.workers.untilSettled(branchId);
  const state = foldRun((await context.service.events(run.id, 0, branchId)).events);
  return { first: state.trials[0]?.outcome, second: state.trials[1]?.outcome };
}

const qa = builtinQaTasks.map((task) => ["qa", task.id] as const);
const household = builtinHouseholdTasks.map((task) => ["household", task.id] as const);
// Code trials run in the sandbox (about a second each): one Python, one JavaScript, one TypeScript problem.
const code = (["code-py-02", "code-js-02", "code-ts-05"] as const).map((id) => ["code", id] as const);

describe("a learner's reflection, forked into trial 2 through the engine with the demo model", () => {
  it.each([...qa, ...household, ...code])("%s %s: a correct paraphrase makes trial 2 succeed, an unhelpful one does not", async (environment, taskId) => {
    const context = setup();
    const helped = await trial2With(context, environment, taskId, CORRECT_PARAPHRASES[taskId]!);
    expect(helped.first).toMatch(/^(failure|halted)$/);
    expect(helped.second).toBe("success");
    const unhelped = await trial2With(context, environment, taskId, UNHELPFUL_REFLECTIONS[0]!);
    expect(unhelped.first).toMatch(/^(failure|halted)$/);
    expect(unhelped.second).not.toBe("success");
  }, 60_000);
});
