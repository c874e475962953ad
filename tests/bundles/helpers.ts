import type { EnvironmentId } from "@/lib/domain/config";
import type { RunEvent } from "@/lib/domain/events";
import { SqliteRunStore } from "@/lib/db/sqlite-store";
import { MemoryTemplateStore } from "@/lib/db/memory-templates";
import type { ModelPort } from "@/lib/engine/ports";
import { codeDemoScriptBook } from "@/lib/environments/code/demo-script";
import { householdDemoScriptBook } from "@/lib/environments/household/demo-script";
import { qaDemoScriptBook } from "@/lib/environments/qa/demo-script";
import { createModelPort } from "@/lib/llm/model-port";
import { createServerContext, type ServerContext } from "@/lib/server/app-context";

/** Test keys and a base URL with credentials, set in the exporting context's environment: they must never reach a bundle. */
export const TEST_SECRETS = {
  OPENAI_API_KEY: "sk-test-bundle-0123456789abcdef",
  ANTHROPIC_API_KEY: "sk-ant-test-fedcba9876543210",
  OPENAI_COMPATIBLE_API_KEY: "sk-test-compatible-55aa55aa",
  OPENAI_COMPATIBLE_BASE_URL: "https://bundleuser:bundlepass@models.example.test/v1",
  OPENAI_BASE_URL: "https://user:pass@api.example.test/v1",
};

/** The demo model through the real port (a scripted stand-in), counting the calls that reach it. */
export function countingDemo(): { port: ModelPort; calls: () => number } {
  const inner = createModelPort({ demoScriptBooks: [codeDemoScriptBook, qaDemoScriptBook, householdDemoScriptBook] });
  let calls = 0;
  return {
    port: {
      async generate(request, options) {
        calls += 1;
        return inner.generate(request, options);
      },
    },
    calls: () => calls,
  };
}

/** A server context on a fresh in-memory SQLite database (the only adapter with bundles), counting model calls. */
export function sqliteContext(env: Record<string, string | undefined> = {}): { context: ServerContext; calls: () => number } {
  const demo = countingDemo();
  const context = createServerContext({
    store: new SqliteRunStore(":memory:"),
    model: demo.port,
    env,
    templates: new MemoryTemplateStore(),
    workers: { concurrency: 2, pollMs: 20 },
  });
  return { context, calls: demo.calls };
}

/** A finished demo run of one family (QA Reflexion, a household scene, a Python code problem). */
export async function finishedRun(context: ServerContext, environment: EnvironmentId) {
  const taskId = environment === "qa" ? "qa-builtin-01" : environment === "household" ? "household-builtin-01" : "code-py-01";
  const run = await context.service.createRun({ environment, taskSet: "builtin", taskId, strategy: "reflexion", modelId: "demo" });
  await context.workers.untilSettled(run.rootBranchId);
  return run;
}

/** Trial outcomes, verdicts, actions and observations of a branch's log: what a replay must reproduce. */
export function outcomes(events: RunEvent[]) {
  return events.flatMap((event) => {
    switch (event.type) {
      case "trial-end":
        return [`trial ${event.data.trial}: ${event.data.outcome}`];
      case "evaluation-end":
        return [`verdict ${event.data.trial}: ${event.data.verdict} ${event.data.score}`];
      case "step-action":
        return [`action ${event.data.trial}.${event.data.step}: ${event.data.text}`];
      case "step-observation":
        return [`observation ${event.data.trial}.${event.data.step}: ${event.data.text}`];
      case "reflection-end":
        return [`reflection ${event.data.trial}: ${event.data.text}`];
      case "run-end":
        return [`end: ${event.data.outcome} after ${event.data.trials}`];
      default:
        return [];
    }
  });
}
