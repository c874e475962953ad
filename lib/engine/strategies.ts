import type { Strategy } from "@/lib/domain/config";
import type { EnvironmentFamily } from "@/lib/domain/environment";
import type { MemoryItem } from "@/lib/domain/events";
import { selectMemoryWindow } from "@/lib/domain/memory-window";

/**
 * What each memory strategy does between trials (Reflexion paper §3–4; the
 * reference code's `ReflexionStrategy`, shared/docs/reflexion-reference.md
 * §1.1). What each strategy puts in each prompt is tabulated in
 * docs/decisions/0008-strategies.md. Nothing here is family-specific: the
 * families supply the text (templates, `renderMemory`, `renderLastAttempt`).
 */
export interface StrategyBehaviour {
  /** Whether a failed trial is followed by a Self-Reflection call. */
  reflectsAfterFailure: boolean;
  /**
   * The reflections placed in the next trial's Actor prompt, chosen from the
   * whole episodic memory (oldest first) with the run's window Ω.
   */
  memoryForTrial(memory: readonly MemoryItem[], window: number | null): { inContext: MemoryItem[]; evicted: MemoryItem[] };
  /** Whether the Actor prompt of trial n > 1 carries trial n − 1's trajectory (the paper's EPM). */
  includesLastAttempt: boolean;
  /**
   * A fixed Actor step budget per trial that overrides the request's and the
   * family's (`cot` variants: 1, a Thought then `Finish`); null = no override.
   * Applied when the run's config is built (lib/server/run-config-factory.ts).
   */
  stepsPerTrial: number | null;
}

const noMemory = (): { inContext: MemoryItem[]; evicted: MemoryItem[] } => ({ inContext: [], evicted: [] });
const windowed = (memory: readonly MemoryItem[], window: number | null) => selectMemoryWindow(memory, window);
/** Reference LAST_ATTEMPT_AND_REFLEXION: only the newest reflection, whatever Ω (§1.1, issue #28). */
const newestOnly = (memory: readonly MemoryItem[]) => selectMemoryWindow(memory, 1);

const behaviours: Record<Strategy, StrategyBehaviour> = {
  none: { reflectsAfterFailure: false, memoryForTrial: noMemory, includesLastAttempt: false, stepsPerTrial: null },
  reflexion: { reflectsAfterFailure: true, memoryForTrial: windowed, includesLastAttempt: false, stepsPerTrial: null },
  "last-attempt": { reflectsAfterFailure: false, memoryForTrial: noMemory, includesLastAttempt: true, stepsPerTrial: null },
  "last-attempt-and-reflexion": { reflectsAfterFailure: true, memoryForTrial: newestOnly, includesLastAttempt: true, stepsPerTrial: null },
  cot: { reflectsAfterFailure: true, memoryForTrial: windowed, includesLastAttempt: false, stepsPerTrial: 1 },
  "cot-gold-context": { reflectsAfterFailure: true, memoryForTrial: windowed, includesLastAttempt: false, stepsPerTrial: 1 },
};

/** The behaviour of a strategy. */
export function strategyBehaviour(strategy: Strategy): StrategyBehaviour {
  return behaviours[strategy];
}

/**
 * The strategies a family can run: its `supportedStrategies`, or by default
 * `none` and `reflexion`, plus `last-attempt` and `last-attempt-and-reflexion`
 * when the family can render the previous trial (`renderLastAttempt`).
 */
export function supportedStrategiesOf(family: Pick<EnvironmentFamily<never>, "supportedStrategies" | "renderLastAttempt">): Strategy[] {
  if (family.supportedStrategies) return [...family.supportedStrategies];
  const base: Strategy[] = ["none", "reflexion"];
  return family.renderLastAttempt ? [...base, "last-attempt", "last-attempt-and-reflexion"] : base;
}
