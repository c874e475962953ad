import type { LanguageModelV3StreamPart } from "@ai-sdk/provider";
import { simulateReadableStream } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunEventOf } from "@/lib/domain/events";
import { MemoryRunStore } from "@/lib/db/memory-store";
import type { ModelRequest } from "@/lib/engine/ports";
import { actorCachePrefixChars } from "@/lib/engine/prompts";
import { driveRun } from "@/lib/engine/run-engine";
import { builtinQaTasks, qaEnvironment } from "@/lib/environments/qa";
import { environmentEntry } from "@/lib/environments/registry";
import { createModelPort } from "@/lib/llm/model-port";
import { requestHashOf } from "@/lib/llm/request-hash";
import { buildRunConfig } from "@/lib/server/run-config-factory";
import { startFakeOpenAIServer, type FakeOpenAIServer } from "../helpers/fake-openai-server";

/**
 * Prompt caching: the Actor prompt's stable prefix, Anthropic cache
 * control on it, and cached input tokens recorded per call from the provider's usage.
 */

let fake: FakeOpenAIServer;
beforeAll(async () => {
  // Reports three quarters of every prompt as served from the prompt cache (OpenAI's prompt_tokens_details.cached_tokens).
  fake = await startFakeOpenAIServer({
    respond: () => " I will guess.\nAction 1: Finish[Paris]",
    cachedTokens: (promptTokens) => Math.floor(promptTokens * 0.75),
  });
});
afterAll(() => fake.close());

function mockWithUsage(cacheRead: number | undefined, cacheWrite: number | undefined) {
  const chunks: LanguageModelV3StreamPart[] = [
    { type: "text-start", id: "t" },
    { type: "text-delta", id: "t", delta: "OK" },
    { type: "text-end", id: "t" },
    {
      type: "finish",
      finishReason: { unified: "stop", raw: "end_turn" },
      usage: { inputTokens: { total: 2000, noCache: 100, cacheRead, cacheWrite }, outputTokens: { total: 1, text: 1, reasoning: undefined } },
    },
  ];
  return new MockLanguageModelV3({ doStream: async () => ({ stream: simulateReadableStream({ chunks, initialDelayInMs: null, chunkDelayInMs: null }) }) });
}

const PREFIX = "Solve a question answering task.\nHere are some examples:\n(END OF EXAMPLES)\n";
const request = (modelId: string, cachePrefixChars?: number): ModelRequest => ({
  role: "actor",
  settings: { modelId, temperature: 0, maxOutputTokens: 50 },
  messages: [{ role: "user", content: `${PREFIX}Question: capital of France?\nThought 1:` }],
  stopSequences: [],
  cachePrefixChars,
});

describe("Anthropic cache control on the stable prefix", () => {
  it("splits the first user message into the cached prefix and the rest; the text sent is unchanged", async () => {
    const mock = mockWithUsage(1800, 100);
    const port = createModelPort({ env: { ANTHROPIC_API_KEY: "sk-ant-test-x" }, resolveModel: () => mock, maxRetries: 0 });
    const response = await port.generate(request("anthropic:claude-3-5-haiku-latest", PREFIX.length));
    const sent = mock.doStreamCalls[0]?.prompt[0];
    expect(sent?.role).toBe("user");
    const parts = sent?.role === "user" ? sent.content : [];
    expect(parts).toHaveLength(2);
    expect(parts[0]).toMatchObject({ type: "text", text: PREFIX, providerOptions: { anthropic: { cacheControl: { type: "ephemeral" } } } });
    expect(parts[1]).toMatchObject({ type: "text", text: "Question: capital of France?\nThought 1:" });
    expect(parts[1]?.providerOptions).toBeUndefined();
    // Cache reads and writes are recorded as reported.
    expect(response.usage).toEqual({ inputTokens: 2000, outputTokens: 1, cachedInputTokens: 1800, cacheWriteInputTokens: 100 });
  });

  it("other providers get the message as it is, and the request hash ignores the prefix mark", async () => {
    const mock = mockWithUsage(undefined, undefined);
    const port = createModelPort({ env: { OPENAI_API_KEY: "sk-test-x" }, resolveModel: () => mock, maxRetries: 0 });
    const response = await port.generate(request("openai:gpt-4o-mini", PREFIX.length));
    const sent = mock.doStreamCalls[0]?.prompt[0];
    const parts = sent?.role === "user" ? sent.content : [];
    expect(parts).toHaveLength(1);
    expect(parts[0]?.providerOptions).toBeUndefined();
    expect(response.usage).toEqual({ inputTokens: 2000, outputTokens: 1 });
    expect(requestHashOf(request("openai:gpt-4o-mini", PREFIX.length))).toBe(requestHashOf(request("openai:gpt-4o-mini")));
  });
});

describe("a run's calls record cached tokens and share one stable prefix", () => {
  it("QA run on the fake server: every model-call-end has cachedInputTokens; the Actor prompts share the prefix", async () => {
    const store = new MemoryRunStore();
    const task = builtinQaTasks[0]!;
    const config = buildRunConfig(
      { environment: "qa", taskSet: "builtin", taskId: task.id, strategy: "reflexion", modelId: "compatible:fake-model", maxTrials: 2 },
      environmentEntry("qa"),
      task,
      "Built-in",
    );
    const run = await store.createRun({ config, title: task.question });
    const port = createModelPort({ env: { OPENAI_COMPATIBLE_BASE_URL: fake.baseUrl }, maxRetries: 0 });
    await driveRun({ log: store, model: port, environmentFor: () => qaEnvironment }, { runId: run.id, branchId: run.rootBranchId });
    const calls = (await store.list(run.id, run.rootBranchId)).filter((e): e is RunEventOf<"model-call-end"> => e.type === "model-call-end");
    expect(calls.length).toBeGreaterThanOrEqual(3); // actor, reflector, actor
    for (const call of calls) {
      expect(call.data.usage.cachedInputTokens).toBe(Math.floor(call.data.usage.inputTokens * 0.75));
    }
    const prefix = actorCachePrefixChars(config, qaEnvironment, qaEnvironment.parseTask(task));
    const actorPrompts = calls.filter((c) => c.data.role === "actor").map((c) => c.data.messages[0]?.content ?? "");
    expect(prefix).toBeGreaterThan(500); // instructions + the six few-shot examples
    const first = actorPrompts[0]!.slice(0, prefix);
    expect(first).toContain("(END OF EXAMPLES)");
    expect(first).not.toContain(task.question);
    for (const prompt of actorPrompts) expect(prompt.slice(0, prefix)).toBe(first);
    // Trial 2 carries the reflection after the prefix, so the prompts differ only past it.
    expect(actorPrompts.at(-1)).not.toBe(actorPrompts[0]);
  });
});
