import { APICallError } from "ai";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { ModelRequest, RetryNotice } from "@/lib/engine/ports";
import { MemoryRunStore } from "@/lib/db/memory-store";
import { foldRun } from "@/lib/domain/fold-run";
import { qaDemoScriptBook } from "@/lib/environments/qa";
import { demoReply } from "@/lib/llm/demo-model";
import { createModelPort, sdkRetryDelayMs } from "@/lib/llm/model-port";
import { createServerContext } from "@/lib/server/app-context";
import { retryLabel } from "@/components/run/run-messages";
import { flattenMessages, startFakeOpenAIServer, type FakeOpenAIServer } from "../helpers/fake-openai-server";

let server: FakeOpenAIServer;
beforeAll(async () => {
  server = await startFakeOpenAIServer({ respond: (messages) => demoReply([qaDemoScriptBook], flattenMessages(messages)) });
});
afterEach(() => server.reset());
afterAll(() => server.close());

const env = () => ({ OPENAI_COMPATIBLE_BASE_URL: server.baseUrl });
const request: ModelRequest = {
  role: "actor",
  settings: { modelId: "compatible:fake-model", temperature: 0, maxOutputTokens: 100 },
  messages: [{ role: "user", content: "Question: where?\nThought 1:" }],
  stopSequences: ["\nObservation"],
};

describe("provider capabilities and faults", () => {
  it("a parameter the provider rejects (stop) is dropped and the call retried once; the change is recorded and kept for that model", async () => {
    server.failNext(1, { status: 400, message: "Unsupported parameter: 'stop' is not supported with this model.", param: "stop" });
    const port = createModelPort({ env: env(), maxRetries: 0 });
    const first = await port.generate(request);
    expect(first.adjustments).toEqual([expect.stringMatching(/^stop sequences dropped/)]);
    const [rejected, retried] = server.chatRequests();
    expect(rejected?.body?.stop).toEqual(["\nObservation"]);
    expect(retried?.body).not.toHaveProperty("stop");
    // The next call to that model leaves it out from the start: no second 400.
    const second = await port.generate(request);
    expect(server.chatRequests()).toHaveLength(3);
    expect(server.chatRequests()[2]?.body).not.toHaveProperty("stop");
    expect(second.adjustments).toHaveLength(1);
  });

  it("recognises a rejected temperature from the message alone, and leaves other 400s alone", async () => {
    server.failNext(1, { status: 400, message: "temperature is not supported by this model; only the default (1) is allowed" });
    const port = createModelPort({ env: env(), maxRetries: 0 });
    const response = await port.generate(request);
    expect(response.adjustments?.[0]).toMatch(/^temperature dropped/);
    expect(server.chatRequests()[1]?.body).not.toHaveProperty("temperature");
    server.failNext(1, { status: 400, message: "model 'nope' does not exist" });
    await expect(createModelPort({ env: env(), maxRetries: 0 }).generate(request)).rejects.toMatchObject({ code: "bad-request" });
  });

  it.each([
    ["seconds", () => "1", 1_000],
    // An HTTP date has whole seconds: 3 s from now is 2–3 s away.
    ["an HTTP date", () => new Date(Date.now() + 3_000).toUTCString(), 2_500],
  ])("429 with Retry-After as %s: the SDK waits that long and the caller is told first", async (_form, header, expectedMs) => {
    server.failNext(1, { status: 429, message: "slow down", retryAfter: header() });
    const notices: RetryNotice[] = [];
    const port = createModelPort({ env: env(), maxRetries: 2 });
    const started = Date.now();
    await port.generate(request, { onRetry: (notice) => notices.push(notice) });
    const waited = Date.now() - started;
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({ attempt: 1, message: expect.stringContaining("429") });
    expect(Math.abs(notices[0]!.delayMs - expectedMs)).toBeLessThan(600);
    expect(waited).toBeGreaterThanOrEqual(notices[0]!.delayMs - 50);
  }, 15_000);

  it("the wait before the SDK's retry follows its rule: retry-after-ms, retry-after, else 2 s × 2^(n−1)", () => {
    const apiError = (headers: Record<string, string>) => new APICallError({ message: "HTTP 429", url: "http://127.0.0.1/v1", requestBodyValues: {}, statusCode: 429, responseHeaders: headers, isRetryable: true });
    expect(sdkRetryDelayMs(new Error("no headers"), 1)).toBe(2_000);
    expect(sdkRetryDelayMs(new Error("no headers"), 3)).toBe(8_000);
    expect(sdkRetryDelayMs(apiError({ "retry-after-ms": "250" }), 1)).toBe(250);
    expect(sdkRetryDelayMs(apiError({ "retry-after": "3" }), 1)).toBe(3_000);
    expect(sdkRetryDelayMs(apiError({ "retry-after": "600" }), 1)).toBe(2_000); // over a minute: the backoff instead
  });

  it("the run header counts down to the retry", () => {
    const now = Date.parse("2026-12-01T10:00:00.000Z");
    expect(retryLabel({ at: "2026-12-01T10:00:07.000Z", attempt: 1, message: "HTTP 429" }, now)).toBe("attempt 1 failed · retrying in 7 s");
    expect(retryLabel({ at: "2026-12-01T09:59:59.000Z", attempt: 2, message: "HTTP 503" }, now)).toBe("attempt 2 failed · retrying now…");
  });

  it("while a run's call waits to retry, its status says so; a provider that keeps failing pauses the run, never a failed trial", async () => {
    server.failNext(3, { status: 503, message: "overloaded", retryAfter: "1" });
    const context = createServerContext({
      store: new MemoryRunStore(),
      env: env(),
      model: createModelPort({ env: env(), maxRetries: 2 }),
      workers: { pollMs: 20 },
    });
    const run = await context.service.createRun({ environment: "qa", taskSet: "builtin", taskId: "qa-builtin-01", strategy: "reflexion", modelId: "compatible:fake-model", maxTrials: 1 });
    let seenRetry = null;
    for (let i = 0; i < 100 && !seenRetry; i += 1) {
      seenRetry = (await context.service.liveness(run, run.rootBranchId)).activeCall?.retry ?? null;
      await new Promise((resolve) => setTimeout(resolve, 30));
    }
    expect(seenRetry).toMatchObject({ attempt: expect.any(Number), message: expect.stringContaining("503") });
    await context.workers.untilSettled(run.rootBranchId);
    const state = foldRun((await context.service.events(run.id)).events);
    expect(state.status).toBe("paused");
    expect(state.pause?.reason).toBe("model-error");
    expect(state.callErrors[0]).toMatchObject({ code: "server-error", attempts: 3 });
    expect(state.trials[0]?.outcome).toBeNull();
  }, 20_000);
});
