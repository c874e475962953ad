import type { RunConfig } from "@/lib/domain/config";
import { draft, type EventData, type EventDraft } from "@/lib/domain/events";
import type { RunState } from "@/lib/domain/fold-run";
import { carriedItemId, type InsightProvenance, type MemorySource } from "@/lib/domain/memory-store";

/**
 * Memory that outlives a run, at the engine's side
 * (lib/domain/memory-store.ts, docs/decisions/0024-costs-budgets-memory.md):
 * the engine asks its {@link MemoryPort} for a warm start's entries once,
 * before trial 1, and records what it got as `memory-carried-in` — from then
 * on the log, not the store, says what trial 1 saw (replays and forks are
 * deterministic). After each reflection of a run with `writeMemory`, it hands
 * the reflection to the port.
 */

/** One entry as a memory store returns it for a warm start. */
export interface CarriedEntry {
  entryId: string;
  text: string;
  source: MemorySource;
  /** ISO-8601. */
  createdAt: string;
}

/** One insight as a memory store returns it for an ExpeL run. */
export interface CarriedInsight {
  entryId: string;
  text: string;
  provenance: InsightProvenance | null;
  /** ISO-8601. */
  createdAt: string;
}

/** Reads and writes named memory stores (lib/server/memory-store-service.ts). */
export interface MemoryPort {
  /** The task's newest unexpired entries, newest first, at most `limit`. */
  carryIn(query: { store: string; environment: string; taskId: string; limit: number }): Promise<CarriedEntry[]>;
  /** The names of the existing stores (to say that a warm start's store does not exist); optional. */
  storeNames?(): Promise<string[]>;
  /**
   * The family's ExpeL insights in a store (lib/domain/insights.ts), oldest first, at most `limit`;
   * optional (a port without it carries none in).
   */
  insights?(query: { store: string; environment: string; limit: number }): Promise<CarriedInsight[]>;
  /** Stores one reflection (idempotent per source event). */
  remember(entry: { store: string; environment: string; taskId: string; text: string; source: MemorySource }): Promise<void>;
}

/**
 * The `memory-carried-in` draft to append before trial 1 when the run asks for a
 * warm start and has none recorded yet, else null. Without a port the entries
 * are empty (recorded as such, so the run does not ask again).
 */
export async function warmStartDraft(state: RunState, config: RunConfig, trial: number, port: MemoryPort | undefined): Promise<EventDraft | null> {
  const warm = config.warmStart;
  if (!warm || trial !== 1 || state.carriedIn !== null) return null;
  const found = port ? await port.carryIn({ store: warm.store, environment: config.environment, taskId: config.taskId, limit: warm.maxEntries }) : [];
  const entries: EventData<"memory-carried-in">["entries"] = found.slice(0, warm.maxEntries).map((entry) => ({ ...entry, itemId: carriedItemId(entry.entryId) }));
  // A store name with a typo would silently carry in nothing: record why.
  const note = entries.length === 0 && port?.storeNames ? await missingStoreNote(warm.store, port.storeNames) : null;
  // Newest first in the event; memory is oldest first, so the newest carried reflection is the one Ω keeps longest.
  return draft("memory-carried-in", { store: warm.store, entries, ...(note ? { note } : {}) });
}

/**
 * "memory store 'x' does not exist (stores: a, b)" when `store` is not among the existing stores,
 * else null (also when they cannot be listed: a warm start never fails on it).
 */
export async function missingStoreNote(store: string, storeNames: () => Promise<string[]>): Promise<string | null> {
  try {
    const names = await storeNames();
    return names.includes(store) ? null : `memory store '${store}' does not exist (stores: ${names.length > 0 ? names.join(", ") : "none yet"})`;
  } catch {
    return null;
  }
}

/**
 * Hands the newest reflection of `trial` to the port when the branch writes memory: the root branch
 * writes to the run's `writeMemory`, a fork only to the store named when it was forked. A store
 * fault never fails the run.
 */
export async function rememberReflection(state: RunState, config: RunConfig, trial: number, port: MemoryPort | undefined, ids: { runId: string; branchId: string }): Promise<void> {
  // A fork writes only to the store it was given when forked, never to the run's (decision 0024).
  const target = state.fork ? (state.fork.writeMemory ?? null) : config.writeMemory;
  if (!target || !port) return;
  const reflection = state.trials.find((t) => t.trial === trial)?.reflection;
  if (!reflection || reflection.text.trim() === "") return;
  try {
    await port.remember({
      store: target.store,
      environment: config.environment,
      taskId: config.taskId,
      text: reflection.text,
      source: { runId: ids.runId, branchId: ids.branchId, trial, eventId: reflection.eventId },
    });
  } catch {
    // The reflection is in the run's log either way; the store only misses one entry.
  }
}
