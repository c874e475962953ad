import { MockLanguageModelV3 } from "ai/test";
import { describe, expect, it } from "vitest";
import { foldRun } from "@/lib/domain/fold-run";
import { stripUrlCredentials } from "@/lib/domain/url-credentials";
import { MemoryRunStore } from "@/lib/db/memory-store";
import { materializeEvent } from "@/lib/db/validate-event";
import { createModelPort } from "@/lib/llm/model-port";
import { resolveModel } from "@/lib/llm/provider-registry";
import { baseUrlCredentialsProblem } from "@/lib/llm/provider-settings-check";
import { createServerContext } from "@/lib/server/app-context";

/** A provider base URL with `user:password@` is refused at start-up, and no password reaches a run's log. */

const PASSWORD = "hunter2-not-a-real-one";
const envelope = { id: "e1", runId: "r1", branchId: "b1", seq: 1, occurredAt: "2026-01-01T00:00:00.000Z" };

describe("credentials in a provider base URL", () => {
  it("are refused at start-up with a message naming the variable (and not repeating the password)", () => {
    const env = { OPENAI_COMPATIBLE_BASE_URL: `http://me:${PASSWORD}@127.0.0.1:1234/v1` };
    expect(() => createServerContext({ store: new MemoryRunStore(), env, workers: { pollMs: 10 } })).toThrow(/OPENAI_COMPATIBLE_BASE_URL must not contain a user name or password/);
    const problem = baseUrlCredentialsProblem(env) ?? "";
    expect(problem).toContain("OPENAI_COMPATIBLE_API_KEY");
    expect(problem).toContain("http://127.0.0.1:1234/v1");
    expect(problem).not.toContain(PASSWORD);
    expect(() => resolveModel("compatible:m", { env })).toThrow(/must not contain a user name or password/);
    expect(baseUrlCredentialsProblem({ OPENAI_BASE_URL: `https://user@api.example.com/v1` })).toMatch(/^OPENAI_BASE_URL/);
    expect(baseUrlCredentialsProblem({ OPENAI_COMPATIBLE_BASE_URL: "http://127.0.0.1:1234/v1" })).toBeNull();
  });

  it("a provider error quoting such a URL pauses the run without the password anywhere in its log", async () => {
    // The provider's own refusal quotes the URL it was given (undici: "Request cannot be constructed from a URL that includes credentials: …").
    const model = new MockLanguageModelV3({
      doStream: async () => {
        throw new TypeError(`Request cannot be constructed from a URL that includes credentials: http://me:${PASSWORD}@127.0.0.1:1234/v1/chat/completions`);
      },
    });
    const env = { OPENAI_COMPATIBLE_BASE_URL: "http://127.0.0.1:1234/v1" };
    const context = createServerContext({ store: new MemoryRunStore(), env, model: createModelPort({ env, resolveModel: () => model, maxRetries: 0 }), workers: { pollMs: 10 } });
    try {
      const run = await context.service.createRun({ environment: "qa", taskSet: "builtin", taskId: "qa-builtin-01", strategy: "reflexion", modelId: "compatible:fake-model", maxTrials: 1 });
      await context.workers.untilSettled(run.rootBranchId);
      const events = (await context.service.events(run.id)).events;
      expect(foldRun(events).status).toBe("paused");
      const log = JSON.stringify(events);
      expect(log).toContain("http://127.0.0.1:1234/v1/chat/completions");
      expect(log).not.toContain(PASSWORD);
    } finally {
      await context.workers.stop();
    }
  });

  it("the event log strips URL credentials from every stored error text, whatever produced it", () => {
    const runError = materializeEvent({ type: "run-error", data: { code: "internal", message: `fetch https://a:${PASSWORD}@host/x failed` } }, envelope);
    expect(runError.data).toEqual({ code: "internal", message: "fetch https://host/x failed" });
    const pause = materializeEvent({ type: "run-pause", data: { reason: "model-error", detail: `see http://u:${PASSWORD}@h:1/v1`, at: null } }, envelope);
    expect(JSON.stringify(pause)).not.toContain(PASSWORD);
    expect(stripUrlCredentials("no url here; mailto:x@y stays")).toBe("no url here; mailto:x@y stays");
  });
});
