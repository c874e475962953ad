import { MemoryRunStore } from "@/lib/db/memory-store";
import type { AnnotationStore } from "@/lib/db/annotation-store";
import type { AnnotationEvent, AnnotationEventDraft } from "@/lib/domain/annotations";
import { AppError } from "@/lib/domain/errors";
import { qaDemoScriptBook } from "@/lib/environments/qa/demo-script";
import { createModelPort } from "@/lib/llm/model-port";
import { createServerContext, type ServerContext } from "@/lib/server/app-context";

/** QA built-in tasks the fixtures run (the demo model fails trial 1 of each and reflects). */
export const QA_TASKS = ["qa-builtin-01", "qa-builtin-02", "qa-builtin-03", "qa-builtin-04"];

/** A context on an in-memory store with the offline QA demo model (scripted). */
export function demoContext(): ServerContext {
  return createServerContext({ store: new MemoryRunStore(), model: createModelPort({ demoScriptBooks: [qaDemoScriptBook] }), workers: { concurrency: 4, pollMs: 20 } });
}

/**
 * A finished QA experiment with three arms: A and B (Reflexion, B with memory window 1) reflect
 * after trial 1 of every task; C (ReAct, strategy none) never reflects.
 */
export async function qaExperiment(context: ServerContext, taskIds = QA_TASKS): Promise<string> {
  const record = await context.experiments.start({
    name: "QA reflections",
    environment: "qa",
    taskSet: "builtin",
    taskIds,
    arms: [
      { label: "A", strategy: "reflexion", modelId: "demo" },
      { label: "B", strategy: "reflexion", modelId: "demo", memoryWindow: 1 },
      { label: "C", strategy: "none", modelId: "demo" },
    ],
    maxTrials: 3,
  });
  for (const runId of await context.experiments.runIds(record.id)) {
    const run = await context.service.getRun(runId);
    await context.workers.untilSettled(run.rootBranchId);
  }
  return record.id;
}

/** A minimal in-memory {@link AnnotationStore} for these tests (the real adapters have their own contract suite). */
export class ListAnnotationStore implements AnnotationStore {
  readonly events: AnnotationEvent[] = [];

  async append(draft: AnnotationEventDraft): Promise<AnnotationEvent> {
    if (draft.type !== "annotation-add" && !this.events.some((event) => event.type === "annotation-add" && event.annotationId === draft.annotationId)) {
      throw new AppError("not-found", `no annotation ${draft.annotationId}`);
    }
    const event = { ...draft, id: `ae-${this.events.length + 1}`, seq: this.events.length + 1, occurredAt: draft.occurredAt ?? new Date().toISOString() } as AnnotationEvent;
    this.events.push(event);
    return event;
  }

  async listForRun(runId: string): Promise<AnnotationEvent[]> {
    return this.events.filter((event) => (event.type === "annotation-add" ? event.target.runId : event.runId) === runId);
  }

  async listEvents(runIds?: readonly string[]): Promise<AnnotationEvent[]> {
    return runIds ? this.events.filter((event) => runIds.includes(event.type === "annotation-add" ? event.target.runId : event.runId)) : [...this.events];
  }

  async importEvents(events: readonly AnnotationEvent[]): Promise<number> {
    const fresh = events.filter((event) => !this.events.some((known) => known.id === event.id));
    this.events.push(...fresh);
    return fresh.length;
  }
}
