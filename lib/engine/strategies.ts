import type { Strategy } from "@/lib/domain/config";
import type { MemoryItem } from "@/lib/domain/events";
import { selectMemoryWindow } from "@/lib/domain/memory-window";

/**
 * What each memory strategy does between trials (Reflexion paper §3–4; the
 * reference code's `ReflexionStrategy`, shared/docs/reflexion-reference.md §1.1).
 * New strategies (`last-attempt`, `cot`, …) plug in here.
 */
export interface StrategyBehaviour {
  /** Whether a failed trial is followed by a Self-Reflection call. */
  reflectsAfterFailure: boolean;
  /** The memory placed in the next trial's Actor prompt. */
  memoryForTrial(memory: readonly MemoryItem[], window: number | null): { inContext: MemoryItem[]; evicted: MemoryItem[] };
}

const behaviours: Record<Strategy, StrategyBehaviour> = {
  none: {
    reflectsAfterFailure: false,
    memoryForTrial: () => ({ inContext: [], evicted: [] }),
  },
  reflexion: {
    reflectsAfterFailure: true,
    memoryForTrial: (memory, window) => selectMemoryWindow(memory, window),
  },
};

/** The behaviour of a strategy. */
export function strategyBehaviour(strategy: Strategy): StrategyBehaviour {
  return behaviours[strategy];
}
