import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { EXIT_BUDGET_EXHAUSTED, modelsText } from "@/lib/cli/follow";
import { runCli } from "./run-cli";

// Budget-exhausted has its own exit code and words; a missing warm-start store warns.

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "rp-cli-budget-"));

describe("CLI: a run stopped by its budget", () => {
  it(`exits ${EXIT_BUDGET_EXHAUSTED} with "Budget exhausted: … resume with …", and warns about a warm-start store that does not exist`, async () => {
    const result = await runCli(
      ["run", "--env", "qa", "--tasks", "builtin", "--task-id", "qa-builtin-01", "--strategy", "reflexion", "--model", "demo", "--budget-tokens", "500", "--warm-start", "nosuchstore:3"],
      { REFLEXION_DB_PATH: path.join(tmp, "budget.sqlite") },
    );
    expect(result.code, result.stderr).toBe(EXIT_BUDGET_EXHAUSTED);
    expect(result.stderr).toContain("memory store 'nosuchstore' does not exist (stores: none yet)");
    // The recorded note is printed with the run's events.
    expect(result.stdout).toContain("Warm start: nothing carried in — memory store 'nosuchstore' does not exist");
    expect(result.stdout).not.toMatch(/^Paused: Budget exhausted/m);
    expect(result.stdout).toMatch(/^Budget exhausted: .*tokens.* spent; resume with `npm run cli -- resume --run \S+ --budget-tokens \d+`/m);
  });
});

describe("modelsText", () => {
  it("names each role's model when they differ, and the demo model as a stand-in", () => {
    expect(modelsText({ actor: { modelId: "demo" }, reflector: { modelId: "demo" } })).toBe(" (demo model: a scripted stand-in, not an LLM)");
    expect(modelsText({ actor: { modelId: "demo" }, evaluator: { modelId: "compatible:fake-model" }, reflector: { modelId: "demo" } })).toBe(
      " (Actor demo (a scripted stand-in, not an LLM), Evaluator compatible:fake-model, Self-Reflection demo (a scripted stand-in, not an LLM))",
    );
    expect(modelsText({ actor: { modelId: "openai:gpt-4o-mini" }, reflector: { modelId: "openai:gpt-4o-mini" } })).toBe(" (openai:gpt-4o-mini)");
  });
});
