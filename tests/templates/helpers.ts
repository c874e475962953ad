import type { RunEvent } from "@/lib/domain/events";
import { MemoryRunStore } from "@/lib/db/memory-store";
import { MemoryTemplateStore } from "@/lib/db/memory-templates";
import type { ModelPort } from "@/lib/engine/ports";
import { codeDemoScriptBook } from "@/lib/environments/code/demo-script";
import { householdDemoScriptBook } from "@/lib/environments/household/demo-script";
import { qaDemoScriptBook } from "@/lib/environments/qa/demo-script";
import { createModelPort } from "@/lib/llm/model-port";
import { createServerContext, type ServerContext } from "@/lib/server/app-context";

/** A server context on in-memory stores with the demo model, counting the calls that reach the model. */
export function demoContext(): { context: ServerContext; calls: () => number } {
  const inner = createModelPort({ demoScriptBooks: [codeDemoScriptBook, qaDemoScriptBook, householdDemoScriptBook] });
  let calls = 0;
  const port: ModelPort = {
    async generate(request, options) {
      calls += 1;
      return inner.generate(request, options);
    },
  };
  const context = createServerContext({ store: new MemoryRunStore(), templates: new MemoryTemplateStore(), model: port, workers: { pollMs: 10 } });
  return { context, calls: () => calls };
}

/** Waits until a run's root branch (or `branchId`) has settled; returns its events. */
export async function settled(context: ServerContext, runId: string, branchId?: string): Promise<RunEvent[]> {
  const run = await context.service.getRun(runId);
  const branch = await context.service.branchOf(run, branchId ?? null);
  await context.workers.untilSettled(branch);
  return (await context.service.events(runId, 0, branch)).events;
}

/** The `model-call-end` events of a log. */
export function callsOf(events: readonly RunEvent[]) {
  return events.filter((event): event is Extract<RunEvent, { type: "model-call-end" }> => event.type === "model-call-end");
}
