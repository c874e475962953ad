import type { EnvironmentFamily } from "@/lib/domain/environment";
import type { ContextWindow } from "@/lib/domain/model-windows";
import type { CallPricer, EventLog, ModelPort } from "./ports";
import type { MemoryPort } from "./warm-start";
import type { SpendingGate } from "./spending-gate";

/** What the engine needs; all of it behind ports, so tests and the bench pass in-memory versions. */
export interface EngineDeps {
  log: EventLog;
  model: ModelPort;
  /** Resolves the task family named in the run's config. */
  environmentFor(id: string): EnvironmentFamily<unknown>;
  /** Fresh ids for events and model calls; defaults to UUID v4. */
  newId?: () => string;
  /** Awaited between two actions so timers and I/O can run; default: one `setImmediate` turn. */
  yieldToEventLoop?: () => Promise<void>;
  /** A model's context window (tokens); default: lib/domain/model-windows.ts with the server's `REFLEXION_CONTEXT_WINDOW[_PROVIDER]`. */
  contextWindowFor?: (modelId: string) => ContextWindow;
  /** Prices live calls at record time from the price table; absent = the port's own `costUsd` (seed prices). */
  pricing?: CallPricer;
  /** Named memory stores for warm starts and `writeMemory`; absent = warm starts carry nothing in. */
  memory?: MemoryPort;
  /** Budgets per person and per lab, across runs (lib/engine/spending-gate.ts); absent = none. */
  spending?: SpendingGate;
}
