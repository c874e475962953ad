import type { RunId } from "@/lib/domain/ids";
import type { SpendingCall } from "@/lib/domain/budget";

/**
 * The engine's port to budgets per person and per lab (lib/domain/spending-limits.ts). Unlike a run's
 * own budget these depend on other runs, so they cannot be read from the run's log: the engine asks
 * the port at each step boundary where the next action may call a model, and tells it every live call
 * it recorded. Implementations must not throw from `record` (a failed ledger write must not fail a run).
 */
export interface SpendingGate {
  /**
   * Why run `runId` must not call a model now — a person's or the lab's budget is spent — as the
   * `run-pause` detail (names whose budget and how to raise it), or null while there is room.
   */
  exhausted(runId: RunId): Promise<string | null>;
  /** Adds one recorded call to the spend of the run's owner and the lab (cached calls spend nothing). `occurredAt` is ISO-8601. */
  record(runId: RunId, call: SpendingCall, occurredAt: string): Promise<void>;
}
