import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunEvent, RunEventOf } from "@/lib/domain/events";
import { foldRun } from "@/lib/domain/fold-run";
import { MemoryRunStore } from "@/lib/db/memory-store";
import { builtinOpenTasks, openDemoScriptBook } from "@/lib/environments/open";
import { createModelPort } from "@/lib/llm/model-port";
import { createServerContext } from "@/lib/server/app-context";
import { flattenMessages, startFakeOpenAIServer, type FakeChatMessage, type FakeOpenAIServer } from "../../helpers/fake-openai-server";

/**
 * The open family on the real path of a user's run — RunService → worker pool → engine → the AI
 * SDK's OpenAI-compatible provider → HTTP + SSE — against the scriptable fake server, with a
 * separate Evaluator model: the fake server answers the Actor and the Self-Reflection from the
 * demo book's scripts and the judge (model "judge-mini") with scripted JSON. Then a recorded
 * replay of the same run makes no live call.
 */

const task = builtinOpenTasks.find((t) => t.id === "open-polite-refusal")!;
let server: FakeOpenAIServer;
let judgeAnswers: string[] = [];

const judgeJson = (scores: Record<string, number>) =>
  "```json\n" + JSON.stringify({ scores: Object.entries(scores).map(([criterion, score]) => ({ criterion, score, justification: `scripted ${criterion}=${score}` })) }) + "\n```";

beforeAll(async () => {
  server = await startFakeOpenAIServer({
    listedModels: ["writer-large", "judge-mini"],
    respond: (messages, body) => {
      if (body.model === "judge-mini") return judgeAnswers.shift() ?? "out of scripted judge answers";
      return openDemoScriptBook.respond(flattenMessages(messages)) ?? "no script";
    },
  });
});
afterAll(() => server.close());

const ofType = <T extends RunEvent["type"]>(events: readonly RunEvent[], type: T) => events.filter((e): e is RunEventOf<T> => e.type === type);

describe("open tasks judged by a model on the fake OpenAI-compatible server", () => {
  it("the judge's requests go to the Evaluator model and carry the rubric; the Actor's never do; a recorded replay makes 0 live calls", async () => {
    judgeAnswers = [judgeJson({ polite: 5, "clear-no": 5, reason: 4, alternative: 0 }), judgeJson({ polite: 5, "clear-no": 5, reason: 5, alternative: 4 })];
    const env = { OPENAI_COMPATIBLE_BASE_URL: server.baseUrl };
    const store = new MemoryRunStore();
    const context = createServerContext({ store, env, model: createModelPort({ env, maxRetries: 0 }), workers: { pollMs: 10 } });
    const request = {
      environment: "open" as const,
      taskSet: "builtin",
      taskId: task.id,
      strategy: "reflexion" as const,
      modelId: "compatible:writer-large",
      models: { evaluator: { modelId: "compatible:judge-mini" } },
      maxTrials: 3,
    };
    const run = await context.service.createRun(request);
    await context.workers.untilSettled(run.rootBranchId);
    const events = (await context.service.events(run.id)).events;
    const state = foldRun(events);
    expect(state.trials.map((t) => t.outcome)).toEqual(["failure", "success"]);

    const chats = server.chatRequests();
    const byModel = (model: string) => chats.filter((r) => r.body?.model === model);
    expect(byModel("judge-mini")).toHaveLength(2);
    expect(byModel("writer-large")).toHaveLength(3); // Actor, Self-Reflection, Actor
    for (const judgeRequest of byModel("judge-mini")) {
      const prompt = flattenMessages((judgeRequest.body?.messages ?? []) as FakeChatMessage[]);
      for (const criterion of task.rubric.criteria) expect(prompt).toContain(`- ${criterion.id} (weight ${criterion.weight}): ${criterion.description}`);
      expect(prompt).toContain(task.referenceNotes!);
    }
    for (const actorRequest of byModel("writer-large")) {
      const prompt = flattenMessages((actorRequest.body?.messages ?? []) as FakeChatMessage[]);
      expect(prompt).not.toContain(task.rubric.criteria[3]!.description);
      expect(prompt).not.toContain(task.referenceNotes!);
    }
    const [first, second] = ofType(events, "evaluation-end").map((e) => e.data);
    expect(first!.judge).toMatchObject({ modelId: "compatible:judge-mini", attempts: 1 });
    // (2·5 + 2·5 + 1·4 + 2·0) / 7 / 5 = 24/35
    expect(first!.judge!.weightedScore).toBeCloseTo(24 / 35, 4);
    expect(first!.verdict).toBe("fail");
    expect(second!.verdict).toBe("pass");
    const judgeCalls = ofType(events, "model-call-end").filter((e) => e.data.role === "evaluator");
    expect(judgeCalls.map((e) => e.data.settings.modelId)).toEqual(["compatible:judge-mini", "compatible:judge-mini"]);
    // The reflection answered the judge's feedback on "alternative".
    expect(state.trials[0]!.reflection!.text).toContain("alternative at 0/5");

    // Recorded replay of the same run: every call is served from the response cache.
    const before = server.chatRequests().length;
    const replay = await context.service.createRun({ ...request, replayMode: "recorded" });
    await context.workers.untilSettled(replay.rootBranchId);
    const replayed = foldRun((await context.service.events(replay.id)).events);
    await context.workers.stop();
    expect(server.chatRequests().length - before).toBe(0);
    expect(replayed.totals.liveCalls).toBe(0);
    expect(replayed.totals.cachedCalls).toBe(5);
    expect(replayed.trials.map((t) => t.outcome)).toEqual(["failure", "success"]);
  });
});
