import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { RunEvent, RunEventOf } from "@/lib/domain/events";
import { foldRun } from "@/lib/domain/fold-run";
import { MemoryRunStore } from "@/lib/db/memory-store";
import { createModelPort } from "@/lib/llm/model-port";
import { createServerContext } from "@/lib/server/app-context";
import { flattenMessages, startFakeOpenAIServer, type FakeChatMessage, type FakeOpenAIServer } from "../helpers/fake-openai-server";

/**
 * One test per class of real-model trouble, each on the real path a
 * user's run takes: RunService → worker pool → engine → the AI SDK's
 * OpenAI-compatible provider → HTTP + SSE from the scriptable fake server. Each
 * asserts the trial outcome, the recorded events and what reached the next
 * prompt. (Context budgets: tests/engine/context-budgets.test.ts; the code loop:
 * tests/environments/code/untested-code.test.ts; large text in the UI:
 * tests/graph/large-text-render.test.ts.)
 *
 * The task is qa-builtin-01: "Which river runs through the town where the
 * opera The Glass Orchard was first staged?" — gold "River Sallow".
 */

let server: FakeOpenAIServer;
/** The Actor's completions in order (the n-th Actor call gets `actor[n]`, the last one repeats); reflections likewise. */
let script: { actor: string[]; reflector: string[] };
const calls = { actor: 0, reflector: 0 };

const isReflection = (messages: readonly FakeChatMessage[]) => /Reflection:\s*$/.test(flattenMessages(messages));

beforeAll(async () => {
  server = await startFakeOpenAIServer({
    respond: (messages) => {
      const role = isReflection(messages) ? "reflector" : "actor";
      const texts = script[role];
      const text = texts[Math.min(calls[role], texts.length - 1)] ?? "";
      calls[role] += 1;
      return text;
    },
  });
});
afterEach(() => {
  server.reset();
  calls.actor = 0;
  calls.reflector = 0;
});
afterAll(() => server.close());

const SEARCH_OPERA = "Thought 1: I need the town where The Glass Orchard was first staged.\nAction 1: Search[The Glass Orchard]";
const SEARCH_TOWN = "Thought 2: It was staged in Dunmere.\nAction 2: Search[Dunmere]";
const FINISH = "Thought 3: The River Sallow runs through Dunmere.\nAction 3: Finish[River Sallow]";
const LESSON = "I answered without checking the town's own page. Search the town named in the opera's page, then Finish with its river.";

async function runOnFakeServer(maxTrials = 2) {
  const env = { OPENAI_COMPATIBLE_BASE_URL: server.baseUrl };
  const context = createServerContext({ store: new MemoryRunStore(), env, model: createModelPort({ env, maxRetries: 1 }), workers: { pollMs: 10 } });
  const run = await context.service.createRun({ environment: "qa", taskSet: "builtin", taskId: "qa-builtin-01", strategy: "reflexion", modelId: "compatible:fake-model", maxTrials });
  await context.workers.untilSettled(run.rootBranchId);
  const events = (await context.service.events(run.id)).events;
  await context.workers.stop();
  return { events, state: foldRun(events) };
}

const ofType = <T extends RunEvent["type"]>(events: readonly RunEvent[], type: T) => events.filter((e): e is RunEventOf<T> => e.type === type);
/** The text of every chat request the fake server got, in order, with the role it played. */
const sentPrompts = () => server.chatRequests().map((request) => flattenMessages((request.body?.messages ?? []) as FakeChatMessage[]));

describe("real model output on the service path (fake OpenAI-compatible server)", () => {
  it("reader: a lower-case verb with a trailing period and sentence is read as the action; the extra is recorded as ignored and never reaches the next prompt", async () => {
    script = {
      actor: [
        "Thought 1: I need the town where The Glass Orchard was first staged.\nAction 1: search[The Glass Orchard]. It was staged in Paris, I think.",
        SEARCH_TOWN,
        "<think>Maybe Finish[River Tey]?</think>\nThought 3: The River Sallow runs through Dunmere.\nAction 3: Finish[River Sallow]",
      ],
      reflector: [LESSON],
    };
    const { events, state } = await runOnFakeServer();
    expect(state.outcome).toBe("success");
    const [first, , third] = ofType(events, "step-action").map((e) => e.data);
    expect(first).toMatchObject({ action: { type: "Search", argument: "The Glass Orchard" }, parseError: null });
    expect(first!.ignored).toContain("It was staged in Paris, I think.");
    // The Finish inside <think> never ran: the answer is the one after it, and the reasoning is kept apart.
    expect(third).toMatchObject({ action: { type: "Finish", argument: "River Sallow" } });
    expect(ofType(events, "step-thought")[2]!.data.reasoning).toContain("Maybe Finish[River Tey]?");
    const second = sentPrompts()[1]!;
    expect(second).toContain("Observation 1: The Glass Orchard is a chamber opera");
    expect(second).not.toContain("staged in Paris");
  });

  it("completions that are not the agent's fault: empty and content-filtered are asked again and the step uses the good one; nothing counts against the agent", async () => {
    script = { actor: [SEARCH_OPERA, SEARCH_TOWN, FINISH], reflector: [LESSON] };
    server.replyNext(1, { text: "" });
    server.replyNext(1, { text: "I can't help with that.", finishReason: "content_filter" });
    const { events, state } = await runOnFakeServer();
    expect(state.outcome).toBe("success");
    expect(state.trials).toHaveLength(1);
    expect(ofType(events, "step-action")[0]!.data.action).toEqual({ type: "Search", argument: "The Glass Orchard" });
    expect(ofType(events, "model-call-error")).toHaveLength(0);
    expect(server.chatRequests().length).toBe(5);
    // The retries sent the same prompt; the refusal never reached a later prompt.
    expect(sentPrompts()[0]).toBe(sentPrompts()[2]);
    expect(sentPrompts().some((prompt) => prompt.includes("I can't help with that."))).toBe(false);
  });

  it("a stream that broke off mid-answer is asked again; the half answer is never used", async () => {
    script = { actor: [SEARCH_OPERA, SEARCH_OPERA, SEARCH_TOWN, FINISH], reflector: [LESSON] };
    server.cutNextStream({ afterChunks: 3 });
    const { events, state } = await runOnFakeServer();
    expect(state.outcome).toBe("success");
    expect(state.trials).toHaveLength(1);
    expect(ofType(events, "step-action")[0]!.data).toMatchObject({ action: { type: "Search", argument: "The Glass Orchard" }, parseError: null });
    expect(server.chatRequests().length).toBe(4);
    expect(ofType(events, "model-call-end")).toHaveLength(3);
  });

  it("a stream that ends cleanly without its finish chunk is asked again like a broken-off one; the run goes on", async () => {
    script = { actor: [SEARCH_OPERA, SEARCH_TOWN, FINISH], reflector: [LESSON] };
    server.replyNext(1, { text: SEARCH_OPERA, omitFinish: true });
    const { events, state } = await runOnFakeServer();
    expect(state.status).toBe("ended");
    expect(state.outcome).toBe("success");
    expect(ofType(events, "model-call-error")).toHaveLength(0);
    expect(ofType(events, "step-action")[0]!.data).toMatchObject({ action: { type: "Search", argument: "The Glass Orchard" } });
    // The first Actor call was made twice (the unfinished answer was not used), then steps 2 and 3.
    expect(server.chatRequests().length).toBe(4);
    expect(ofType(events, "model-call-end")).toHaveLength(3);
  });

  it("a completion that stays content-filtered pauses the run with a message: no failed trial, no reflection", async () => {
    script = { actor: [SEARCH_OPERA], reflector: [LESSON] };
    server.replyNext(3, { text: "", finishReason: "content_filter" });
    const { events, state } = await runOnFakeServer();
    expect(state.status).toBe("paused");
    expect(state.pause?.reason).toBe("model-error");
    expect(ofType(events, "model-call-error")[0]!.data).toMatchObject({ code: "content-filtered", retryable: true });
    expect(ofType(events, "model-call-error")[0]!.data.message).toMatch(/not counted as a failed trial/);
    expect(state.trials[0]!.outcome).toBeNull();
    expect(ofType(events, "reflection-end")).toHaveLength(0);
  });

  it("a completion cut off by the token limit before any action is asked again; the step is not an 'invalid action'", async () => {
    script = { actor: [SEARCH_OPERA, SEARCH_TOWN, FINISH], reflector: [LESSON] };
    server.replyNext(1, { text: "Thought 1: I need to find out where The Glass Orchard was first staged, so I will", finishReason: "length" });
    const { events, state } = await runOnFakeServer();
    expect(state.outcome).toBe("success");
    expect(ofType(events, "step-action").every((e) => e.data.parseError === null)).toBe(true);
  });

  it("reflections are checked: markup only is asked again, and the lesson — not the backticks — reaches trial 2's prompt", async () => {
    script = { actor: ["Thought 1: Probably the Tey.\nAction 1: Finish[River Tey]", SEARCH_OPERA, SEARCH_TOWN, FINISH], reflector: ["```", LESSON] };
    const { events, state } = await runOnFakeServer();
    expect(state.trials.map((t) => t.outcome)).toEqual(["failure", "success"]);
    const reflection = ofType(events, "reflection-end")[0]!.data;
    expect(reflection).toMatchObject({ text: LESSON, warning: null });
    const trial2Prompt = sentPrompts().find((prompt, index) => index > 2 && !prompt.trimEnd().endsWith("Reflection:"))!;
    expect(trial2Prompt).toContain(LESSON);
    expect(trial2Prompt).not.toMatch(/^- ```$/m);
  });

  it("loops: the same search four times (case and a trailing period aside) halts the trial with the reason, and the reflection reaches trial 2", async () => {
    script = {
      actor: [
        "Thought 1: Search the opera.\nAction 1: Search[The Glass Orchard]",
        "Thought 2: Again.\nAction 2: search[the glass orchard].",
        "Thought 3: Again.\nAction 3: Search[The Glass Orchard]",
        SEARCH_OPERA,
        SEARCH_TOWN,
        FINISH,
      ],
      reflector: [LESSON],
    };
    const { events, state } = await runOnFakeServer();
    const trial1End = ofType(events, "trial-end")[0]!.data;
    expect(trial1End.outcome).toBe("halted");
    expect(trial1End.reason).toMatch(/same action/i);
    expect(ofType(events, "evaluation-end")[0]!.data.feedback).toContain(trial1End.reason);
    expect(state.trials[1]?.memory.map((item) => item.text)).toEqual([LESSON]);
    expect(state.outcome).toBe("success");
  });

  it("provider faults: a rejected stop parameter is dropped and recorded; a 429 with an HTTP-date Retry-After is waited out; the trial goes on", async () => {
    script = { actor: [SEARCH_OPERA, SEARCH_TOWN, FINISH], reflector: [LESSON] };
    server.failNext(1, { status: 400, message: "Unsupported parameter: 'stop' is not supported with this model.", param: "stop" });
    server.failNext(1, { status: 429, message: "rate limited", retryAfter: new Date(Date.now() + 1_000).toUTCString() });
    const { events, state } = await runOnFakeServer();
    expect(state.outcome).toBe("success");
    const callEnds = ofType(events, "model-call-end").map((e) => e.data);
    expect(callEnds[0]!.adjustments).toEqual([expect.stringMatching(/^stop sequences dropped/)]);
    expect(ofType(events, "model-call-error")).toHaveLength(0);
    expect(state.trials.map((t) => t.outcome)).toEqual(["success"]);
  }, 20_000);

  it("UTF-8 split across network writes inside characters arrives whole: the answer and the prompt keep Zürich, 東京 and 🎉", async () => {
    const answer = "Zürich 東京 🎉";
    script = { actor: [`Thought 1: Ich weiß es: ${answer}.\nAction 1: Finish[${answer}]`], reflector: [LESSON] };
    server.replyNext(1, { splitUtf8: true });
    const { events } = await runOnFakeServer(1);
    expect(ofType(events, "model-call-end")[0]!.data.outputText).toContain(`Ich weiß es: ${answer}.`);
    expect(ofType(events, "step-action")[0]!.data.action).toEqual({ type: "Finish", argument: answer });
    expect(ofType(events, "step-observation")[0]!.data.answer).toBe(answer);
    expect(ofType(events, "evaluation-end")[0]!.data.verdict).toBe("fail");
  });
});
