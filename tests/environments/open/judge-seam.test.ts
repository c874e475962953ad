import { describe, expect, it } from "vitest";
import { runConfigSchema } from "@/lib/domain/config";
import type { RunEvent, RunEventOf } from "@/lib/domain/events";
import { foldRun } from "@/lib/domain/fold-run";
import { MemoryRunStore } from "@/lib/db/memory-store";
import { driveRun } from "@/lib/engine/run-engine";
import type { ModelPort, ModelRequest } from "@/lib/engine/ports";
import { builtinOpenTasks, openDemoScriptBook, openEnvironment } from "@/lib/environments/open";

/**
 * The engine's judge seam with a scripted model port: the Actor and the Self-Reflection answer
 * from the demo book, the judge answers from a queue. An unreadable judge answer is asked again
 * once (the second prompt carries the first exchange and the problem); two unreadable answers
 * pause the run with both calls recorded; a resume asks the judge again.
 */

const task = builtinOpenTasks.find((t) => t.id === "open-bug-report")!;
const goodJudge = (score: number) => JSON.stringify({ scores: task.rubric.criteria.map((c) => ({ criterion: c.id, score, justification: `${c.id} is ${score}` })) });

function scriptedPort(judgeAnswers: string[]): ModelPort & { requests: ModelRequest[] } {
  const requests: ModelRequest[] = [];
  return {
    requests,
    async generate(request) {
      requests.push(request);
      const prompt = request.messages.map((m) => m.content).join("\n\n");
      const text = request.role === "evaluator" ? (judgeAnswers.shift() ?? "no more scripted judge answers") : (openDemoScriptBook.respond(prompt) ?? "");
      return { text, usage: { inputTokens: 10, outputTokens: 5 }, finishReason: "stop", latencyMs: 1, costUsd: 0, requestHash: `h-${requests.length}`, source: "live" };
    },
  };
}

async function start(model: ModelPort, evaluatorModel?: string) {
  const store = new MemoryRunStore();
  const config = runConfigSchema.parse({
    environment: "open",
    taskSetName: "builtin",
    taskId: task.id,
    task,
    strategy: "reflexion",
    maxTrials: 2,
    maxStepsPerTrial: 2,
    models: { actor: { modelId: "demo" }, reflector: { modelId: "demo" }, ...(evaluatorModel ? { evaluator: { modelId: evaluatorModel, maxOutputTokens: 300 } } : {}) },
    templates: openEnvironment.defaultTemplates,
  });
  const run = await store.createRun({ config, title: task.id });
  const deps = { log: store, model, environmentFor: () => openEnvironment };
  const drive = () => driveRun(deps, { runId: run.id, branchId: run.rootBranchId });
  const events = () => store.list(run.id, run.rootBranchId);
  return { store, run, drive, events };
}

const ofType = <T extends RunEvent["type"]>(events: RunEvent[], type: T) => events.filter((e): e is RunEventOf<T> => e.type === type);

describe("the judge seam", () => {
  it("asks an unreadable judge again once, with the first answer and the problem, then uses the second answer", async () => {
    const model = scriptedPort(["Looks fine to me: 5/5 overall.", "```json\n" + goodJudge(5) + "\n```"]);
    const { drive, events } = await start(model);
    await drive();
    const log = await events();
    const evaluation = ofType(log, "evaluation-end")[0]!.data;
    expect(evaluation.verdict).toBe("pass");
    expect(evaluation.judge).toMatchObject({ attempts: 2, firstProblem: "no JSON object in the answer", weightedScore: 1 });
    const judgeCalls = ofType(log, "model-call-end").filter((e) => e.data.role === "evaluator");
    expect(judgeCalls.map((e) => e.data.callId)).toEqual(evaluation.judge!.callIds);
    const second = judgeCalls[1]!.data.messages;
    expect(second.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
    expect(second[1]!.content).toBe("Looks fine to me: 5/5 overall.");
    expect(second[2]!.content).toContain("could not be read: no JSON object");
    // The judge's calls come before the verdict in the log.
    const seq = (e: RunEvent) => e.seq;
    expect(Math.max(...judgeCalls.map(seq))).toBeLessThan(ofType(log, "evaluation-end")[0]!.seq);
  });

  it("two unreadable answers: both calls recorded, model-call-error judge-unreadable, the run pauses (no failed trial); resume asks again", async () => {
    const answers = ["not json", '{"scores":[{"criterion":"steps","score":4}]}'];
    const model = scriptedPort(answers);
    const { drive, events, store, run } = await start(model);
    await drive();
    let log = await events();
    let state = foldRun(log);
    expect(state.status).toBe("paused");
    expect(state.pause).toMatchObject({ reason: "model-error" });
    expect(ofType(log, "evaluation-end")).toHaveLength(0);
    expect(state.trials[0]!.outcome).toBeNull();
    expect(ofType(log, "model-call-end").filter((e) => e.data.role === "evaluator")).toHaveLength(2);
    const error = ofType(log, "model-call-error")[0]!.data;
    expect(error).toMatchObject({ role: "evaluator", code: "judge-unreadable", attempts: 2, modelId: "demo" });
    expect(error.message).toMatch(/Judge answer unreadable \(asked twice\): no score for "expected-actual"/);
    // Resume: the judge is asked again and its readable answer judges the trial.
    answers.push(goodJudge(1), goodJudge(5));
    await store.append(run.id, run.rootBranchId, [{ type: "run-resume", data: { reason: "user", step: false } }]);
    await drive();
    log = await events();
    state = foldRun(log);
    expect(state.trials.map((t) => t.outcome)).toEqual(["failure", "success"]);
    expect(ofType(log, "model-call-end").filter((e) => e.data.role === "evaluator")).toHaveLength(4);
  });

  it("the judge uses models.evaluator when set, the Actor keeps its own model; without it the Actor's model at temperature 0", async () => {
    const model = scriptedPort([goodJudge(5)]);
    const { drive } = await start(model, "openai:gpt-4o-mini");
    await drive();
    expect(model.requests.map((r) => [r.role, r.settings.modelId])).toEqual([
      ["actor", "demo"],
      ["evaluator", "openai:gpt-4o-mini"],
    ]);
    const fallback = scriptedPort([goodJudge(5)]);
    await (await start(fallback)).drive();
    const judge = fallback.requests.find((r) => r.role === "evaluator")!;
    expect(judge.settings).toMatchObject({ modelId: "demo", temperature: 0, maxOutputTokens: 768 });
  });

  it("a halted trial without an answer fails without a judge call", async () => {
    const model: ModelPort = {
      async generate(request) {
        return { text: request.role === "actor" ? " I will answer.\nAction 1: Answer the question" : "Write Finish[...] next time.", usage: { inputTokens: 1, outputTokens: 1 }, finishReason: "stop", latencyMs: 1, costUsd: 0, requestHash: `x-${Math.random()}`, source: "live" };
      },
    };
    const { drive, events } = await start(model);
    await drive();
    const log = await events();
    const evaluation = ofType(log, "evaluation-end")[0]!.data;
    expect(evaluation).toMatchObject({ verdict: "fail", judge: null, evaluatorKind: "llm-judge" });
    expect(ofType(log, "model-call-end").some((e) => e.data.role === "evaluator")).toBe(false);
    expect(ofType(log, "step-observation")[0]!.data.text).toMatch(/Invalid Action. Valid action: Finish\[<your whole answer>\]/);
  });
});
