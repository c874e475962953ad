import { MemoryRunStore } from "@/lib/db/memory-store";
import type { RunStore } from "@/lib/db/store";
import type { AnnotationStore } from "@/lib/db/annotation-store";
import type { AnnotationEvent, AnnotationEventDraft } from "@/lib/domain/annotations";
import { foldRun, type RunState } from "@/lib/domain/fold-run";
import { familyDescriptor } from "@/lib/environments/descriptors";
import { createServerContext, type ServerContext } from "@/lib/server/app-context";

/** The family ids the demo runs use, read from the descriptors (not typed out). */
export const HOUSEHOLD = familyDescriptor("household").id;
export const QA = familyDescriptor("qa").id;

/** A small in-test {@link AnnotationStore}: an array, seqs from 1. */
export class ArrayAnnotationStore implements AnnotationStore {
  readonly events: AnnotationEvent[] = [];
  async append(draft: AnnotationEventDraft): Promise<AnnotationEvent> {
    const event = { ...draft, id: `a${this.events.length + 1}`, seq: this.events.length + 1, occurredAt: draft.occurredAt ?? new Date().toISOString() } as AnnotationEvent;
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
    this.events.push(...events);
    return events.length;
  }
}

/** The demo runs the search tests query: household (Reflexion and ReAct only) and QA, on the offline demo model. */
export const DEMO_RUNS = [
  { environment: HOUSEHOLD, taskId: "household-builtin-01", strategy: "reflexion" },
  { environment: HOUSEHOLD, taskId: "household-builtin-01", strategy: "none" },
  { environment: HOUSEHOLD, taskId: "household-builtin-02", strategy: "reflexion" },
  { environment: HOUSEHOLD, taskId: "household-builtin-03", strategy: "none" },
  { environment: QA, taskId: "qa-builtin-01", strategy: "reflexion" },
] as const;

/** Drives {@link DEMO_RUNS} to their end on `store` (the embedded demo model, offline). */
export async function driveDemoRuns(context: ServerContext, runs: readonly { environment: string; taskId: string; strategy: string }[] = DEMO_RUNS): Promise<string[]> {
  const ids: string[] = [];
  for (const request of runs) {
    const run = await context.service.createRun({ environment: request.environment, taskSet: "builtin", taskId: request.taskId, strategy: request.strategy, modelId: "demo" } as Parameters<ServerContext["service"]["createRun"]>[0]);
    await context.workers.untilSettled(run.rootBranchId);
    ids.push(run.id);
  }
  return ids;
}

/** A memory store holding the demo runs, made once per test file. */
export async function demoStore(store: RunStore = new MemoryRunStore()): Promise<{ store: RunStore; runIds: string[]; states: Map<string, RunState> }> {
  const context = createServerContext({ store, workers: { pollMs: 10 } });
  const runIds = await driveDemoRuns(context);
  await context.workers.stop();
  const states = new Map<string, RunState>();
  for (const runId of runIds) {
    const run = await store.getRun(runId as never);
    if (run) states.set(runId, foldRun(await store.list(run.id, run.rootBranchId)));
  }
  return { store, runIds, states };
}
