import type { RunConfig } from "@/lib/domain/config";
import { draft, type EventData, type EventDraft, type RunEvent, type RunEventOf } from "@/lib/domain/events";
import type { RunState } from "@/lib/domain/fold-run";
import { insightItemId, MAX_INSIGHTS, noInsightsNote } from "@/lib/domain/insights";
import { methodDescriptor } from "@/lib/methods/registry";
import { missingStoreNote, type MemoryPort } from "./warm-start";

/**
 * ExpeL's task inference at the engine's side (Zhao et al. 2024, §4.3; lib/domain/insights.ts):
 * before trial 1 of a run whose method carries insights (`remembers.insights`), the engine asks its
 * {@link MemoryPort} ONCE for the family's insights in the run's `insights` store and records what it
 * got as `insights-carried-in`. From then on the log says what the Actor saw: a replay or a fork
 * folds the event and never reads the store. No store, an unknown store or a store without insights
 * for the family: the event carries none and a note saying how to extract them, and the run goes
 * on as Reflexion.
 */

/** The `insights-carried-in` draft to append before trial 1, or null (not such a method, not trial 1, already recorded). */
export async function insightsDraft(state: RunState, config: RunConfig, trial: number, port: MemoryPort | undefined): Promise<EventDraft | null> {
  if (trial !== 1 || state.insightsCarriedIn !== null || methodDescriptor(config.strategy).remembers.insights !== true) return null;
  const store = config.insights?.store ?? null;
  if (store === null) return draft("insights-carried-in", { store: null, entries: [], note: noInsightsNote(null, config.environment) });
  const found = port?.insights ? await port.insights({ store, environment: config.environment, limit: MAX_INSIGHTS * 4 }) : [];
  const entries: EventData<"insights-carried-in">["entries"] = found.map((insight) => ({ ...insight, itemId: insightItemId(insight.entryId) }));
  if (entries.length > 0) return draft("insights-carried-in", { store, entries });
  // A typo in the store's name says so; an existing store without insights says how to extract them.
  const missing = port?.storeNames ? await missingStoreNote(store, port.storeNames) : null;
  return draft("insights-carried-in", { store, entries, note: missing ? `${missing}; ${noInsightsNote(store, config.environment).split("; ")[1]}` : noInsightsNote(store, config.environment) });
}

/**
 * The `insights-carried-in` event to copy onto a recorded replay forked before its parent carried
 * insights in (a replay from the run's start): the parent's recorded event, so the replay folds the
 * same insights and never reads the store (whose insights may have changed since). Empty for a live
 * fork (it starts afresh and reads the store, as a new run would), for a fork made after the event
 * (it shares it) and for a parent without one.
 */
export function recordedInsightsForFork(parentPath: readonly RunEvent[], atSeq: number, replay: "live" | "recorded"): EventDraft[] {
  if (replay !== "recorded") return [];
  const carried = parentPath.find((event): event is RunEventOf<"insights-carried-in"> => event.type === "insights-carried-in");
  if (!carried || carried.seq <= atSeq) return [];
  return [draft("insights-carried-in", carried.data)];
}
