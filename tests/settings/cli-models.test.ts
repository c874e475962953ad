import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunEvent } from "@/lib/domain/events";
import { providersResponseSchema } from "@/lib/domain/providers";
import { qaDemoScriptBook } from "@/lib/environments/qa";
import { roleModelsFromFlags, withRoleFlags } from "@/lib/cli/model-flags";
import { demoReply } from "@/lib/llm/demo-model";
import { flattenMessages, startFakeOpenAIServer, type FakeChatMessage, type FakeOpenAIServer } from "../helpers/fake-openai-server";
import { parseJsonLines, runCli } from "../cli/run-cli";

/** `cli run --actor-model/--reflector-model/--model`, arms' role flags, and `cli providers [--json]` (never a key). */

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "rp-cli-models-"));
const KEY = "sk-test-XYZ-cli-0cc175b9c0f1b6a8";
let fake: FakeOpenAIServer;
beforeAll(async () => {
  fake = await startFakeOpenAIServer({ respond: (messages) => demoReply([qaDemoScriptBook], flattenMessages(messages)) });
});
afterAll(() => fake.close());
const env = (name: string) => ({
  REFLEXION_DB_PATH: path.join(tmp, `${name}.sqlite`),
  OPENAI_COMPATIBLE_BASE_URL: fake.baseUrl,
  OPENAI_COMPATIBLE_API_KEY: KEY,
  OPENAI_API_KEY: "",
  ANTHROPIC_API_KEY: "",
  GOOGLE_GENERATIVE_AI_API_KEY: "",
  OLLAMA_BASE_URL: "",
});

describe("CLI model flags", () => {
  it("run: --model sets every role, --reflector-model replaces the Self-Reflection's; the server sees each role's model", async () => {
    const result = await runCli(
      ["run", "--env", "qa", "--tasks", "builtin", "--task-id", "qa-builtin-01", "--model", "compatible:strong", "--reflector-model", "compatible:cheap", "--trials", "2", "--json"],
      env("run"),
    );
    expect(result.code, result.stderr).toBe(0);
    const events = parseJsonLines(result.stdout) as RunEvent[];
    const calls = events.flatMap((e) => (e.type === "model-call-end" ? [[e.data.role, e.data.settings.modelId]] : []));
    expect(new Set(calls.map(([role, id]) => `${role} ${id}`))).toEqual(new Set(["actor compatible:strong", "reflector compatible:cheap"]));
    const sent = fake.chatRequests().map((r) => [/Reflection:\s*$/.test(flattenMessages((r.body?.messages ?? []) as FakeChatMessage[])), r.body?.model]);
    expect(sent.length).toBe(calls.length);
    for (const [reflection, model] of sent) expect(model).toBe(reflection ? "cheap" : "strong");
  }, 90_000);

  it("a malformed model id names its flag", async () => {
    const result = await runCli(["run", "--env", "qa", "--tasks", "builtin", "--task-id", "qa-builtin-01", "--actor-model", "gpt4"], env("bad"));
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--actor-model.*"gpt4" is not a model id/s);
  }, 60_000);

  it("providers --json prints the settings page's data, never the key", async () => {
    const result = await runCli(["providers", "--json"], env("providers"));
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).not.toContain(KEY);
    const response = providersResponseSchema.parse(JSON.parse(result.stdout));
    expect(response.providers.filter((p) => p.configured).map((p) => p.id)).toEqual(["compatible"]);
    expect(response.providers.find((p) => p.id === "compatible")?.models.map((m) => m.id)).toEqual(["compatible:fake-model"]);
    const text = await runCli(["providers", "--test", "compatible"], env("providers"));
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/^compatible:fake-model: OK in \d+ ms$/m);
    expect(text.stdout + text.stderr).not.toContain(KEY);
  }, 60_000);

  it("arm flags fill the roles an arm leaves open; an arm's own models win", () => {
    expect(roleModelsFromFlags({})).toBeUndefined();
    const flags = { evaluatorModel: "compatible:cheap", actorModel: "openai:gpt-4o" };
    expect(withRoleFlags({ label: "a", strategy: "reflexion", modelId: "demo" }, flags).models).toEqual({
      actor: { modelId: "openai:gpt-4o" },
      evaluator: { modelId: "compatible:cheap" },
    });
    expect(withRoleFlags({ label: "b", strategy: "reflexion", modelId: "demo", models: { actor: { modelId: "anthropic:claude-sonnet-4-0", temperature: 0.2 } } }, flags).models).toEqual({
      actor: { modelId: "anthropic:claude-sonnet-4-0", temperature: 0.2 },
      evaluator: { modelId: "compatible:cheap" },
    });
  });
});
