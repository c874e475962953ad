import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ModelCallError, type ModelRequest } from "@/lib/engine/ports";
import { MemoryRunStore } from "@/lib/db/memory-store";
import { foldRun } from "@/lib/domain/fold-run";
import { qaDemoScriptBook } from "@/lib/environments/qa";
import { demoReply } from "@/lib/llm/demo-model";
import { createModelPort } from "@/lib/llm/model-port";
import { DEFAULT_MODEL_TIMEOUT_S, modelTimeoutFor } from "@/lib/llm/model-timeouts";
import { createServerContext } from "@/lib/server/app-context";
import { flattenMessages, startFakeOpenAIServer, type FakeOpenAIServer } from "../helpers/fake-openai-server";

let server: FakeOpenAIServer;
beforeAll(async () => {
  server = await startFakeOpenAIServer({ respond: (messages) => demoReply([qaDemoScriptBook], flattenMessages(messages)), chunkDelayMs: 0 });
});
afterEach(() => server.reset());
afterAll(() => server.close());

const env = (extra: Record<string, string> = {}) => ({ OPENAI_COMPATIBLE_BASE_URL: server.baseUrl, ...extra });

const request: ModelRequest = {
  role: "actor",
  settings: { modelId: "compatible:fake-model", temperature: 0, maxOutputTokens: 200 },
  messages: [{ role: "user", content: "Question: where?\nThought 1:" }],
  stopSequences: [],
};

async function failure(promise: Promise<unknown>): Promise<ModelCallError> {
  const error = await promise.then(
    () => new Error("expected the call to fail"),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ModelCallError);
  return error as ModelCallError;
}

describe("model call time limits (REFLEXION_MODEL_TIMEOUT_S)", () => {
  it("reads the per-provider setting before the global one, and names a bad value", () => {
    expect(modelTimeoutFor("compatible", {})).toEqual({ seconds: DEFAULT_MODEL_TIMEOUT_S, setting: null });
    expect(modelTimeoutFor("compatible", { REFLEXION_MODEL_TIMEOUT_S: "30" })).toEqual({ seconds: 30, setting: "REFLEXION_MODEL_TIMEOUT_S" });
    expect(modelTimeoutFor("compatible", { REFLEXION_MODEL_TIMEOUT_S: "30", REFLEXION_MODEL_TIMEOUT_S_COMPATIBLE: "600" })).toEqual({
      seconds: 600,
      setting: "REFLEXION_MODEL_TIMEOUT_S_COMPATIBLE",
    });
    expect(() => modelTimeoutFor("openai", { REFLEXION_MODEL_TIMEOUT_S: "soon" })).toThrow(/REFLEXION_MODEL_TIMEOUT_S must be a positive number of seconds/);
  });

  it("a server that accepts and never answers: timeout after the SDK's retries, with a message naming the setting", async () => {
    server.hangNext(2);
    const port = createModelPort({ env: env({ REFLEXION_MODEL_TIMEOUT_S: "0.4" }), maxRetries: 1 });
    const error = await failure(port.generate(request));
    expect(error.code).toBe("timeout");
    expect(error.retryable).toBe(true);
    expect(error.attempts).toBe(2); // the first try and the SDK's one retry both ran into the limit
    expect(server.chatRequests()).toHaveLength(2);
    expect(error.message).toMatch(/sent no response within 0\.4 s/);
    expect(error.message).toContain("REFLEXION_MODEL_TIMEOUT_S");
    expect(error.message).toContain("REFLEXION_MODEL_TIMEOUT_S_COMPATIBLE");
  });

  it("a stream that stops in the middle: an idle timeout, not retried (the response had started)", async () => {
    server.hangNext(1, { afterChunks: 2 });
    const deltas: string[] = [];
    const port = createModelPort({ env: env({ REFLEXION_MODEL_TIMEOUT_S_COMPATIBLE: "0.4" }), maxRetries: 2 });
    const error = await failure(port.generate(request, { onDelta: (text) => deltas.push(text) }));
    expect(error.code).toBe("timeout");
    expect(error.message).toMatch(/stopped sending output for 0\.4 s/);
    expect(error.message).toContain("REFLEXION_MODEL_TIMEOUT_S_COMPATIBLE=0.4");
    expect(deltas.length).toBe(2);
    expect(server.chatRequests()).toHaveLength(1);
  });

  it("a call that answers within the limit is untouched", async () => {
    const port = createModelPort({ env: env({ REFLEXION_MODEL_TIMEOUT_S: "5" }), maxRetries: 0 });
    const response = await port.generate(request);
    expect(response.text.length).toBeGreaterThan(0);
  });

  it("a run whose model server stopped answering pauses with a timeout error; resumed once it answers, it goes on", async () => {
    server.hangNext(1);
    const context = createServerContext({
      store: new MemoryRunStore(),
      env: env({ REFLEXION_MODEL_TIMEOUT_S: "0.4" }),
      model: createModelPort({ env: env({ REFLEXION_MODEL_TIMEOUT_S: "0.4" }), maxRetries: 0 }),
      workers: { pollMs: 20 },
    });
    const run = await context.service.createRun({ environment: "qa", taskSet: "builtin", taskId: "qa-builtin-01", strategy: "reflexion", modelId: "compatible:fake-model", maxTrials: 2 });
    await context.workers.untilSettled(run.rootBranchId);
    let state = foldRun((await context.service.events(run.id)).events);
    expect(state.status).toBe("paused");
    expect(state.pause).toMatchObject({ reason: "model-error" });
    expect(state.callErrors).toHaveLength(1);
    expect(state.callErrors[0]).toMatchObject({ code: "timeout", modelId: "compatible:fake-model", role: "actor", trial: 1, step: 1 });
    // The pause says what happened and which setting to change — once.
    expect(state.pause?.detail).toContain("REFLEXION_MODEL_TIMEOUT_S");
    expect(state.pause?.detail.match(/resume the run/gi)).toHaveLength(1);
    await context.service.resume(run.id);
    await context.workers.untilSettled(run.rootBranchId);
    state = foldRun((await context.service.events(run.id)).events);
    expect(state.status).toBe("ended");
    expect(state.trials[0]?.steps[0]?.action).not.toBeNull();
  });
});
