import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { OMITTED_OBSERVATION, shortenedMarker } from "@/lib/domain/context-budget";
import { draft, type RunEvent, type RunEventOf } from "@/lib/domain/events";
import { foldRun } from "@/lib/domain/fold-run";
import { budgetTokens } from "@/lib/domain/tokenizer";
import { MemoryRunStore } from "@/lib/db/memory-store";
import { driveRun } from "@/lib/engine/run-engine";
import { builtinQaTasks, qaDemoScriptBook, qaEnvironment } from "@/lib/environments/qa";
import type { QaTask } from "@/lib/environments/qa/task";
import { environmentEntry } from "@/lib/environments/registry";
import { createCachingModelPort } from "@/lib/llm/caching-model-port";
import { demoReply } from "@/lib/llm/demo-model";
import { createModelPort } from "@/lib/llm/model-port";
import { buildRunConfig } from "@/lib/server/run-config-factory";
import { contextLengthFailure, flattenMessages, startFakeOpenAIServer, type FakeChatMessage, type FakeOpenAIServer } from "../helpers/fake-openai-server";

/**
 * Context budgets on the real engine path (docs/decisions/0016): the QA family,
 * the OpenAI-compatible provider through the AI SDK, and the fake server
 * answering like the demo model. The task is built-in task 1 whose first page
 * (the one the Actor searches at step 1) is a whole article: 22,000+ characters.
 */

const TAIL = "The last sentence of this very long page names the Tallow Lantern.";
const filler = Array.from({ length: 380 }, (_, i) => `In its season ${i + 1} the opera toured the valley towns and the chorus sang of frost on the kilns.`);
const base = builtinQaTasks[0]!;
const hugeTask: QaTask = {
  ...base,
  paragraphs: base.paragraphs.map((p) => (p.title === "The Glass Orchard" ? { ...p, sentences: [...p.sentences, ...filler, TAIL] } : p)),
};

let server: FakeOpenAIServer;
/** Called from the responder before it answers: lets a test script a fault for the next request. */
let onRequest: (prompt: string) => void = () => {};
beforeAll(async () => {
  server = await startFakeOpenAIServer({
    respond: (messages: FakeChatMessage[]) => {
      const prompt = flattenMessages(messages);
      onRequest(prompt);
      return demoReply([qaDemoScriptBook], prompt);
    },
  });
});
afterEach(() => {
  server.reset();
  server.setContextWindow(null);
  onRequest = () => {};
});
afterAll(() => server.close());

async function setup(maxTrials = 2) {
  const store = new MemoryRunStore();
  const config = buildRunConfig(
    { environment: "qa", taskSet: "builtin", taskId: hugeTask.id, strategy: "reflexion", modelId: "compatible:fake-model", maxTrials },
    environmentEntry("qa"),
    hugeTask,
    "Built-in",
  );
  const run = await store.createRun({ config, title: hugeTask.question });
  const port = createCachingModelPort(createModelPort({ env: { OPENAI_COMPATIBLE_BASE_URL: server.baseUrl }, maxRetries: 0 }), store);
  const deps = { log: store, model: port, environmentFor: () => qaEnvironment };
  const drive = () => driveRun(deps, { runId: run.id, branchId: run.rootBranchId });
  const events = () => store.list(run.id, run.rootBranchId);
  return { store, run, drive, events };
}

/** The Actor's max output tokens in these runs (the request's `max_tokens`). */
const ACTOR_MAX_TOKENS = buildRunConfig(
  { environment: "qa", taskSet: "builtin", taskId: hugeTask.id, strategy: "reflexion", modelId: "compatible:fake-model", maxTrials: 1 },
  environmentEntry("qa"),
  hugeTask,
  "Built-in",
).models.actor.maxOutputTokens;

const calls = (log: RunEvent[]) => log.filter((event): event is RunEventOf<"model-call-end"> => event.type === "model-call-end");
const actorCall = (log: RunEvent[], trial: number, step: number) => calls(log).find((event) => event.data.role === "actor" && event.data.trial === trial && event.data.step === step);
const promptOf = (event: RunEventOf<"model-call-end"> | undefined) => event?.data.messages.map((m) => m.content).join("\n") ?? "";
const sentPrompts = () => server.chatRequests().map((request) => flattenMessages((request.body?.messages ?? []) as FakeChatMessage[]));
const isStep = (n: number) => (prompt: string) => new RegExp(`Thought ${n}:\\s*$`).test(prompt) && !/Observation 2:/.test(prompt.split("(END OF EXAMPLES)").at(-1) ?? "");

describe("a long observation in later prompts", () => {
  it("is shortened with a visible marker in every later prompt (the next one included); the log keeps the full text", async () => {
    const { drive, events } = await setup();
    await drive();
    const log = await events();
    const state = foldRun(log);
    // The demo's course is unchanged: trial 1 fails, the reflection teaches, trial 2 succeeds.
    expect(state.status).toBe("ended");
    expect(state.trials.map((trial) => trial.outcome)).toEqual(["failure", "success"]);

    const observation = log.find((event): event is RunEventOf<"step-observation"> => event.type === "step-observation" && event.data.trial === 1 && event.data.step === 1)!;
    expect(observation.data.text.length).toBeGreaterThan(20_000);
    expect(observation.data.text).toContain(TAIL);

    const marker = shortenedMarker(observation.data.text.length, budgetTokens(observation.data.text));
    const next = promptOf(actorCall(log, 1, 2));
    expect(next).toContain(`Observation 1: The Glass Orchard is a chamber opera in three acts`);
    expect(next).toContain(marker);
    expect(next).not.toContain(TAIL);
    // What reached the provider is what was recorded, and no later prompt (Actor or Self-Reflection) carries the whole page.
    expect(sentPrompts().some((prompt) => prompt.includes(marker))).toBe(true);
    for (const prompt of [...calls(log).map(promptOf), ...sentPrompts()]) expect(prompt).not.toContain(TAIL);
    const reflection = calls(log).find((event) => event.data.role === "reflector");
    expect(promptOf(reflection).length).toBeLessThan(observation.data.text.length);

    // Every call carries its size against the model's window (compatible default: 8,192; fallback tokenizer).
    for (const call of calls(log)) {
      expect(call.data.contextUse).toMatchObject({ window: 8_192, tokenizer: "o200k_base+25%", exact: false });
      expect(call.data.contextUse!.promptTokens).toBeGreaterThan(1_000);
      expect(call.data.contextUse!.promptTokens).toBeLessThan(8_192);
    }
  });
});

describe("a provider's context-length error", () => {
  it("once: the prompt is shrunk and the call retried once, the change recorded on the call; the trial goes on", async () => {
    const { drive, events } = await setup();
    // While step 1 is answered, the server's window is set just above its prompt and completion (the fake
    // counts ceil(chars / 4) + max_tokens): step 2's prompt, with the page's 500-token head, gets OpenAI's 400 with the real
    // numbers. The window is lifted when the (shrunk) retry of step 2 arrives.
    let window = 0;
    onRequest = (prompt) => {
      if (window === 0 && isStep(1)(prompt)) {
        window = Math.ceil(prompt.length / 4) + ACTOR_MAX_TOKENS + 300;
        server.setContextWindow(window);
      } else if (isStep(2)(prompt)) server.setContextWindow(null);
    };
    await drive();
    const log = await events();
    const state = foldRun(log);
    expect(state.status).toBe("ended");
    expect(state.callErrors).toEqual([]);
    expect(state.trials.map((trial) => trial.outcome)).toEqual(["failure", "success"]);

    const [first, rejected, retried] = sentPrompts();
    expect(first).toMatch(/Thought 1:\s*$/);
    expect(rejected).toMatch(/Thought 2:\s*$/);
    expect(retried).toMatch(/Thought 2:\s*$/);
    expect(retried!.length).toBeLessThan(rejected!.length);
    expect(rejected).toContain("[… observation shortened:");
    expect(retried).toContain(`Observation 1: ${OMITTED_OBSERVATION}`);
    // The question and the examples are never cut.
    expect(retried).toContain(`Question: ${hugeTask.question}`);
    expect(retried!.split("(END OF EXAMPLES)")[0]).toBe(rejected!.split("(END OF EXAMPLES)")[0]);

    const step2 = actorCall(log, 1, 2)!;
    expect(step2.data.messages[0]?.content).toContain(OMITTED_OBSERVATION);
    expect(step2.data.adjustments).toEqual([
      expect.stringMatching(new RegExp(`^prompt shrunk from ~[\\d,]+ to ~[\\d,]+ tokens after a context-length error \\(window ${window.toLocaleString("en-US")} tokens by the provider; 1 observation omitted\\)$`)),
    ]);
    // The shrink was for that call only: the next prompt (trial 1's Self-Reflection) has the usual shortened page again.
    const reflection = calls(log).find((event) => event.data.role === "reflector" && event.data.trial === 1)!;
    expect(promptOf(reflection)).toContain("Observation 1: The Glass Orchard is a chamber opera in three acts");
    expect(promptOf(reflection)).toContain("[… observation shortened:");
    expect(promptOf(reflection)).not.toContain(OMITTED_OBSERVATION);
    expect(reflection.data.adjustments).toEqual([]);
  });

  it("twice: the run pauses with a message that says what to do — no failed trial, nothing reflected on; Resume goes on", async () => {
    const { drive, events, store, run } = await setup();
    let scripted = false;
    onRequest = (prompt) => {
      if (!scripted && isStep(1)(prompt)) {
        scripted = true;
        server.failNext(2, contextLengthFailure(4_097, 9_812));
      }
    };
    await drive();
    let log = await events();
    expect(log.slice(-2).map((event) => event.type)).toEqual(["model-call-error", "run-pause"]);
    const state = foldRun(log);
    expect(state.callErrors[0]).toMatchObject({ code: "context-length", role: "actor", trial: 1, step: 2, retryable: false, attempts: 2 });
    expect(state.pause).toMatchObject({ reason: "model-error" });
    expect(state.pause?.detail).toMatch(/^The prompt is still too long after one shrink-and-retry \(shrunk from ~[\d,]+ to ~[\d,]+ tokens; 1 observation omitted[,;]/);
    expect(state.pause?.detail).toMatch(/Lower the memory window \(Ω\) or the max steps per trial, or pick a model with a larger context window/);
    expect(log.some((event) => event.type === "trial-end" || event.type === "reflection-end")).toBe(false);
    // One call, one retry: three requests in all (step 1, step 2, step 2 shrunk).
    expect(server.chatRequests()).toHaveLength(3);

    await store.append(run.id, run.rootBranchId, [draft("run-resume", { reason: "user" })]);
    await drive();
    log = await events();
    expect(foldRun(log).status).toBe("ended");
  });

  it("with nothing to shrink (step 1 has no trajectory yet): no retry, the run pauses at once", async () => {
    const { drive, events } = await setup();
    server.failNext(1, contextLengthFailure(2_048, 3_000, "llamacpp"));
    await drive();
    const log = await events();
    const state = foldRun(log);
    expect(state.callErrors[0]).toMatchObject({ code: "context-length", step: 1 });
    expect(state.pause?.detail).toMatch(/^Nothing in the prompt could be shrunk \(~[\d,]+ tokens, window 2,048 tokens by the provider;/);
    expect(server.chatRequests()).toHaveLength(1);
  });

  it("a server whose window is smaller than the prompt: each too-long prompt is shrunk to the stated limit, the run ends", async () => {
    const { drive, events } = await setup(1);
    // The fake counts ceil(chars / 4) + max_tokens. Once step 1's prompt is in, the window is set just above it:
    // every later prompt, with the page's 500-token head, is over it.
    let window = 0;
    onRequest = (prompt) => {
      if (window === 0 && isStep(1)(prompt)) {
        window = Math.ceil(prompt.length / 4) + ACTOR_MAX_TOKENS + 300;
        server.setContextWindow(window);
      }
    };
    await drive();
    const log = await events();
    const state = foldRun(log);
    expect(state.callErrors).toEqual([]);
    expect(state.status).toBe("ended");
    const actorCalls = calls(log).filter((event) => event.data.role === "actor");
    expect(actorCalls.length).toBeGreaterThanOrEqual(2);
    for (const call of actorCalls.slice(1)) {
      expect(call.data.adjustments).toEqual([expect.stringContaining(`window ${window.toLocaleString("en-US")} tokens by the provider`)]);
      // Recorded as sent, and within the server's window by its own count.
      expect(Math.ceil(promptOf(call).length / 4) + ACTOR_MAX_TOKENS).toBeLessThanOrEqual(window);
    }
  });
});
