import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { RunEvent, RunEventOf } from "@/lib/domain/events";
import { MemoryRunStore } from "@/lib/db/memory-store";
import { environmentEntry } from "@/lib/environments/registry";
import { openDemoScriptBook } from "@/lib/environments/open/demo-script";
import { qaDemoScriptBook } from "@/lib/environments/qa";
import { demoReply } from "@/lib/llm/demo-model";
import { createModelPort } from "@/lib/llm/model-port";
import { createServerContext, type ServerContext } from "@/lib/server/app-context";
import { roleModelsOf } from "@/lib/server/run-config-factory";
import { roleModelsFromDrafts } from "@/lib/query/role-models";
import { flattenMessages, startFakeOpenAIServer, type FakeChatMessage, type FakeOpenAIServer } from "../helpers/fake-openai-server";

/**
 * A model per role reaches the right calls. The fake OpenAI-compatible
 * server plays the demo model's scripts (QA and the judged `open` family) whatever model
 * is named, and records the model name of every request, so the test can tell which
 * role's call went to which model.
 */

let fake: FakeOpenAIServer;
let context: ServerContext;
beforeAll(async () => {
  fake = await startFakeOpenAIServer({ respond: (messages) => demoReply([qaDemoScriptBook, openDemoScriptBook], flattenMessages(messages)) });
});
beforeEach(() => {
  fake.reset();
  const env = { OPENAI_COMPATIBLE_BASE_URL: fake.baseUrl };
  context = createServerContext({ store: new MemoryRunStore(), env, model: createModelPort({ env, maxRetries: 0 }), workers: { pollMs: 10 } });
});
afterAll(async () => {
  await context.workers.stop();
  await fake.close();
});

const calls = (events: readonly RunEvent[]) => events.filter((e): e is RunEventOf<"model-call-end"> => e.type === "model-call-end");
/** The model names the fake server was asked for, by what the prompt was for. */
const sentModels = () =>
  fake.chatRequests().map((r) => ({ model: r.body?.model, temperature: r.body?.temperature, maxTokens: r.body?.max_tokens, prompt: flattenMessages((r.body?.messages ?? []) as FakeChatMessage[]) }));

describe("a model per role", () => {
  it("QA run: the Actor's calls go to the Actor's model with its settings, the Self-Reflection's to its own", async () => {
    const run = await context.service.createRun({
      environment: "qa",
      taskSet: "builtin",
      taskId: "qa-builtin-01",
      strategy: "reflexion",
      modelId: "compatible:strong-model",
      maxTrials: 3,
      models: { actor: { temperature: 0.5, maxOutputTokens: 300 }, reflector: { modelId: "compatible:cheap-model" } },
    });
    await context.workers.untilSettled(run.rootBranchId);
    const events = (await context.service.events(run.id)).events;
    const recorded = calls(events);
    expect(recorded.some((c) => c.data.role === "reflector")).toBe(true);
    for (const call of recorded) {
      expect(call.data.settings).toEqual(
        call.data.role === "actor"
          ? { modelId: "compatible:strong-model", temperature: 0.5, maxOutputTokens: 300 }
          : { modelId: "compatible:cheap-model", temperature: 0, maxOutputTokens: 250 },
      );
    }
    const sent = sentModels();
    expect(sent.length).toBe(recorded.length);
    for (const request of sent) {
      const reflection = /Reflection:\s*$/.test(request.prompt);
      expect(request).toMatchObject(reflection ? { model: "cheap-model", temperature: 0, maxTokens: 250 } : { model: "strong-model", temperature: 0.5, maxTokens: 300 });
    }
  });

  it("experiment arm on the judged family: a cheap Evaluator and a strong Actor and Self-Reflection", async () => {
    const record = await context.experiments.start({
      name: "cheap judge",
      environment: "open",
      taskSet: "builtin",
      taskIds: [],
      arms: [{ label: "split", strategy: "reflexion", modelId: "compatible:strong-model", models: { evaluator: { modelId: "compatible:cheap-judge" } } }],
      maxTrials: 3,
    });
    const runIds = await context.experiments.runIds(record.id);
    expect(runIds.length).toBeGreaterThan(0);
    const first = await context.service.getRun(runIds[0]!);
    await context.workers.untilSettled(first.rootBranchId);
    const recorded = calls((await context.service.events(first.id)).events);
    const byRole = (role: string) => [...new Set(recorded.filter((c) => c.data.role === role).map((c) => c.data.settings.modelId))];
    expect(byRole("evaluator")).toEqual(["compatible:cheap-judge"]);
    expect(byRole("actor")).toEqual(["compatible:strong-model"]);
    expect(recorded.filter((c) => c.data.role === "evaluator").length).toBeGreaterThan(0);
    // What the server saw: every request to the cheap model was a judge prompt, and no judge prompt went elsewhere.
    const judgePrompt = (prompt: string) => recorded.some((c) => c.data.role === "evaluator" && flattenMessages(c.data.messages) === prompt);
    for (const request of sentModels().filter((r) => judgePrompt(r.prompt))) expect(request.model).toBe("cheap-judge");
    await context.experiments.cancel(record.id);
  });

  it("the factory gives the Evaluator settings only where it is a model; the form's drafts become the request", () => {
    const request = { environment: "qa" as const, taskSet: "builtin", taskId: "t", strategy: "reflexion" as const, modelId: "demo", models: { evaluator: { modelId: "compatible:x" } } };
    expect(roleModelsOf(request, environmentEntry("qa").family)).not.toHaveProperty("evaluator");
    expect(roleModelsOf({ ...request, environment: "open" }, environmentEntry("open").family).evaluator).toMatchObject({ modelId: "compatible:x", temperature: 0 });
    expect(roleModelsFromDrafts({ actor: { modelId: "", temperature: "", maxOutputTokens: "" } }, ["actor", "reflector"]).models).toBeUndefined();
    expect(roleModelsFromDrafts({ reflector: { modelId: "openai:gpt-4o", temperature: "0.7", maxOutputTokens: "" } }, ["actor", "reflector"])).toEqual({
      models: { reflector: { modelId: "openai:gpt-4o", temperature: 0.7 } },
      problem: null,
    });
    expect(roleModelsFromDrafts({ actor: { modelId: "", temperature: "3", maxOutputTokens: "" } }, ["actor"]).problem).toMatch(/Actor: the temperature is a number from 0 to 2/);
  });
});
