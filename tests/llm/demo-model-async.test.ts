import type { LanguageModelV3, LanguageModelV3CallOptions, LanguageModelV3StreamPart } from "@ai-sdk/provider";
import { afterEach, describe, expect, it, vi } from "vitest";
import { isAppError } from "@/lib/domain/errors";
import { ModelCallError, type ModelRequest } from "@/lib/engine/ports";
import { createDemoModel, waitMacrotask, type DemoScriptBook } from "@/lib/llm/demo-model";
import { createModelPort } from "@/lib/llm/model-port";
import { DEMO_DELAY_ENV_VAR, demoCallDelayFromEnv, resolveModel, resolveModelId } from "@/lib/llm/provider-registry";

/**
 * The demo model is asynchronous like a hosted one: every stream part arrives in
 * its own turn of the event loop, and an optional per-call delay (default 0)
 * holds the answer back until it has passed or the call is aborted.
 * No test here measures wall time: delays are checked with fake timers, and
 * "yields to the event loop" by counting turns of a setImmediate ticker.
 */

const ANSWER = " I know this one.\nAction 1: Finish[Paris]\nObservation 1: Episode finished.";
const book: DemoScriptBook = { respond: (prompt) => (prompt.trimEnd().endsWith("Thought 1:") ? ANSWER : null) };

function callOptions(abortSignal?: AbortSignal): LanguageModelV3CallOptions {
  return { prompt: [{ role: "user", content: [{ type: "text", text: "Question: capital of France?\nThought 1:" }] }], abortSignal };
}

function demoRequest(): ModelRequest {
  return {
    role: "actor",
    settings: { modelId: "demo", temperature: 0, maxOutputTokens: 200 },
    messages: [{ role: "user", content: "Question: capital of France?\nThought 1:" }],
    stopSequences: ["\nObservation"],
  };
}

/** Counts turns of the event loop (one increment per check phase) until stopped. */
function startTicker(): { turns: () => number; stop: () => void } {
  let turns = 0;
  let running = true;
  const tick = (): void => {
    turns += 1;
    if (running) setImmediate(tick);
  };
  setImmediate(tick);
  return { turns: () => turns, stop: () => (running = false) };
}

async function readAll(stream: ReadableStream<LanguageModelV3StreamPart>, onPart: (part: LanguageModelV3StreamPart) => void = () => {}) {
  const parts: LanguageModelV3StreamPart[] = [];
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return parts;
    parts.push(value);
    onPart(value);
  }
}

/** Whether `promise` has settled after the given fake time has been advanced (timers and immediates run). */
async function settledAfter(promise: PromiseLike<unknown>, advanceMs: number): Promise<boolean> {
  let settled = false;
  void promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  await vi.advanceTimersByTimeAsync(advanceMs);
  return settled;
}

function useFakeTimers(): void {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setImmediate", "clearImmediate"] });
}

afterEach(() => {
  vi.useRealTimers();
});

describe("demo model: asynchronous like a real provider", () => {
  it("delivers every stream part in its own turn of the event loop", async () => {
    const { stream } = await createDemoModel({ books: [book] }).doStream(callOptions());
    const ticker = startTicker();
    const turnsAtPart: number[] = [];
    const parts = await readAll(stream, () => turnsAtPart.push(ticker.turns()));
    ticker.stop();

    expect(parts.filter((part) => part.type === "text-delta").length).toBeGreaterThan(3);
    // Between any two parts the ticker ran: other callbacks (timers, I/O) get their turn.
    for (let i = 1; i < turnsAtPart.length; i++) expect(turnsAtPart[i]).toBeGreaterThan(turnsAtPart[i - 1]!);
  });

  it("lets a timer fire between two text deltas of one call through the model port", async () => {
    const port = createModelPort({ env: {}, demoScriptBooks: [book], maxRetries: 0 });
    const ticker = startTicker();
    const turnsAtDelta: number[] = [];
    const response = await port.generate(demoRequest(), { onDelta: () => turnsAtDelta.push(ticker.turns()) });
    ticker.stop();

    expect(response.text).toBe(" I know this one.\nAction 1: Finish[Paris]");
    expect(turnsAtDelta.length).toBeGreaterThan(3);
    for (let i = 1; i < turnsAtDelta.length; i++) expect(turnsAtDelta[i]).toBeGreaterThan(turnsAtDelta[i - 1]!);
  });

  it("answers a stream call only after callDelayMs, with the same text as without a delay", async () => {
    const plain = await readAll((await createDemoModel({ books: [book] }).doStream(callOptions())).stream);
    useFakeTimers();
    const model = createDemoModel({ books: [book], callDelayMs: 500 });
    const call = model.doStream(callOptions());
    expect(await settledAfter(call, 499)).toBe(false);
    expect(await settledAfter(call, 1)).toBe(true);
    const delayedParts = readAll((await call).stream);
    await vi.runAllTimersAsync();
    expect(await delayedParts).toEqual(plain);
  });

  it("answers a generate call only after callDelayMs", async () => {
    useFakeTimers();
    const call = createDemoModel({ books: [book], callDelayMs: 250 }).doGenerate(callOptions());
    expect(await settledAfter(call, 249)).toBe(false);
    expect(await settledAfter(call, 1)).toBe(true);
    expect((await call).content).toEqual([{ type: "text", text: ANSWER }]);
  });

  it("rejects at once when the call is aborted during the delay, and leaves no timer behind", async () => {
    useFakeTimers();
    const controller = new AbortController();
    const call = createDemoModel({ books: [book], callDelayMs: 60_000 }).doStream(callOptions(controller.signal));
    await vi.advanceTimersByTimeAsync(10);
    controller.abort();
    // No fake time passes: the rejection cannot come from the 60 s timer.
    await expect(call).rejects.toMatchObject({ name: "AbortError" });
    expect(vi.getTimerCount()).toBe(0);
  });

  it("errors the stream when the call is aborted between two parts", async () => {
    const controller = new AbortController();
    const { stream } = await createDemoModel({ books: [book] }).doStream(callOptions(controller.signal));
    const reader = stream.getReader();
    expect((await reader.read()).value?.type).toBe("stream-start");
    controller.abort();
    await expect(reader.read()).rejects.toMatchObject({ name: "AbortError" });
  });

  it("turns an abort during the delay into a prompt `aborted` ModelCallError through the model port", async () => {
    const port = createModelPort({ env: {}, demoScriptBooks: [book], demoCallDelayMs: 60_000 });
    const controller = new AbortController();
    const pending = port.generate(demoRequest(), { signal: controller.signal });
    await waitMacrotask(0);
    controller.abort();
    // With a 60 s delay and 2 SDK retries, anything but a prompt rejection exceeds the test timeout.
    const error = await pending.then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ModelCallError);
    expect((error as ModelCallError).code).toBe("aborted");
  });
});

describe("waitMacrotask", () => {
  it("resolves after the event loop has turned, not in a microtask", async () => {
    let immediateRan = false;
    setImmediate(() => (immediateRan = true));
    await waitMacrotask(0);
    expect(immediateRan).toBe(true);
  });

  it("rejects with the signal's reason when already aborted", async () => {
    const controller = new AbortController();
    const reason = new Error("stop now");
    controller.abort(reason);
    await expect(waitMacrotask(10_000, controller.signal)).rejects.toBe(reason);
  });
});

describe(`${DEMO_DELAY_ENV_VAR}`, () => {
  async function delayOf(model: LanguageModelV3): Promise<{ at249: boolean; at250: boolean }> {
    const call = model.doGenerate(callOptions());
    const at249 = await settledAfter(call, 249);
    const at250 = await settledAfter(call, 1);
    return { at249, at250 };
  }

  it("parses whole milliseconds; unset or blank is 0", () => {
    expect(demoCallDelayFromEnv({})).toBe(0);
    expect(demoCallDelayFromEnv({ [DEMO_DELAY_ENV_VAR]: "  " })).toBe(0);
    expect(demoCallDelayFromEnv({ [DEMO_DELAY_ENV_VAR]: "250" })).toBe(250);
    expect(demoCallDelayFromEnv({ [DEMO_DELAY_ENV_VAR]: " 0 " })).toBe(0);
  });

  it.each(["-5", "1.5", "fast", "600001", "1e3"])("rejects %j with a message naming the variable", (value) => {
    let error: unknown = null;
    try {
      demoCallDelayFromEnv({ [DEMO_DELAY_ENV_VAR]: value });
    } catch (e) {
      error = e;
    }
    expect(isAppError(error, "provider-not-configured")).toBe(true);
    expect((error as Error).message).toContain(DEMO_DELAY_ENV_VAR);
    // Fail fast before a run is recorded, like a missing provider key.
    expect(() => resolveModelId("demo", { [DEMO_DELAY_ENV_VAR]: value })).toThrow(DEMO_DELAY_ENV_VAR);
  });

  it("sets the demo model's per-call delay through the registry", async () => {
    useFakeTimers();
    expect(await delayOf(resolveModel("demo", { env: { [DEMO_DELAY_ENV_VAR]: "250" }, demoScriptBooks: [book] }))).toEqual({ at249: false, at250: true });
  });

  it("is overridden by the demoCallDelayMs option", async () => {
    useFakeTimers();
    const model = resolveModel("demo", { env: { [DEMO_DELAY_ENV_VAR]: "60000" }, demoCallDelayMs: 0, demoScriptBooks: [book] });
    expect(await delayOf(model)).toEqual({ at249: true, at250: true });
  });

  it("reaches the demo model through createModelPort's env", async () => {
    useFakeTimers();
    const port = createModelPort({ env: { [DEMO_DELAY_ENV_VAR]: "250" }, demoScriptBooks: [book], maxRetries: 0 });
    const call = port.generate(demoRequest());
    expect(await settledAfter(call, 249)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await vi.runAllTimersAsync();
    expect((await call).text).toBe(" I know this one.\nAction 1: Finish[Paris]");
  });
});
