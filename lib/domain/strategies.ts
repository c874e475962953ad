import type { Strategy } from "./config";
import type { EnvironmentFamily } from "./environment";
import type { MemoryItem } from "./events";
import { selectMemoryWindow } from "./memory-window";
import type { MethodDescriptor } from "@/lib/methods/method-descriptor";
import { METHOD_DESCRIPTORS } from "@/lib/methods/registry";

/**
 * What each memory strategy does between trials (Reflexion paper §3–4; the
 * reference code's `ReflexionStrategy`, shared/docs/reflexion-reference.md
 * §1.1). What each strategy puts in each prompt is tabulated in
 * docs/decisions/0008-strategies.md. Nothing here is family-specific: the
 * families supply the text (templates, `renderMemory`, `renderLastAttempt`).
 *
 * Each method's row is derived from its descriptor (lib/methods/<id>/descriptor.ts,
 * docs/adding-a-method.md): the engine, the server and the UI all read it here
 * (ESLint forbids comparing strategy names outside lib/methods and the family folders).
 */
export interface StrategyBehaviour {
  /** Whether a failed (or halted) trial is followed by a Self-Reflection call. */
  reflectsAfterFailure: boolean;
  /**
   * Whether the Actor prompt of a trial carries reflections from the episodic
   * memory (after the window Ω). False for `none` and `last-attempt`: under
   * them even a hand-written memory entry reaches no prompt.
   */
  reflectionsInPrompt: boolean;
  /**
   * A fixed memory window Ω that overrides the run's: `last-attempt-and-reflexion`
   * shows only the newest reflection, whatever Ω (reference §1.1,
   * https://github.com/noahshinn/reflexion/issues/28);
   * null = the run's Ω. Recorded in the run's config when it is built
   * (lib/server/run-config-factory.ts).
   */
  fixedMemoryWindow: number | null;
  /**
   * The reflections placed in the next trial's Actor prompt, chosen from the
   * whole episodic memory (oldest first) with the run's window Ω (`null` =
   * unbounded): `inContext` oldest first, `evicted` the rest. Follows
   * {@link reflectionsInPrompt} and {@link fixedMemoryWindow}.
   */
  memoryForTrial(memory: readonly MemoryItem[], window: number | null): { inContext: MemoryItem[]; evicted: MemoryItem[] };
  /** Whether the Actor prompt of trial n > 1 carries trial n − 1's trajectory (the paper's EPM). */
  includesLastAttempt: boolean;
  /**
   * A fixed Actor step budget per trial that overrides the request's and the
   * family's (`cot` variants: 1, a Thought then `Finish`); null = no override.
   * Applied when the run's config is built (lib/server/run-config-factory.ts)
   * and again when the budget is read (lib/domain/next-step.ts).
   */
  stepsPerTrial: number | null;
  /** Each trial is one tree-search iteration (descriptor `trial.shape` `tree-search`, LATS): lib/engine/tree-phase.ts. */
  treeSearch: boolean;
}

/**
 * A method's behaviour, read from its descriptor (lib/methods/<id>/descriptor.ts), with its memory
 * rule derived from what it remembers.
 */
function behaviourOf(method: MethodDescriptor): StrategyBehaviour {
  const { reflections, lastAttempt, fixedMemoryWindow } = method.remembers;
  return {
    reflectsAfterFailure: method.reflects === "after-failure",
    reflectionsInPrompt: reflections,
    fixedMemoryWindow,
    includesLastAttempt: lastAttempt,
    stepsPerTrial: method.trial.stepsPerTrial,
    treeSearch: method.trial.shape === "tree-search",
    memoryForTrial: (memory, window) => (reflections ? selectMemoryWindow(memory, fixedMemoryWindow ?? window) : { inContext: [], evicted: [] }),
  };
}

const behaviours = new Map<Strategy, StrategyBehaviour>(METHOD_DESCRIPTORS.map((method) => [method.id, behaviourOf(method)]));

/** The behaviour of a strategy (see {@link StrategyBehaviour}). */
export function strategyBehaviour(strategy: Strategy): StrategyBehaviour {
  const behaviour = behaviours.get(strategy);
  if (!behaviour) throw new Error(`No method is registered for strategy "${strategy}" (lib/methods/registry.ts).`);
  return behaviour;
}

/**
 * The strategies a family can run, in registry order: every method whose descriptor says
 * `families: "all"` (those that remember the last attempt only where the family can render it,
 * `renderLastAttempt`), plus the `listed` methods the family names in its `ownStrategies`.
 * So a new method runs on every family by registering it (docs/adding-a-method.md).
 */
export function supportedStrategiesOf(family: Pick<EnvironmentFamily<never>, "ownStrategies" | "renderLastAttempt">): Strategy[] {
  const own = new Set<string>(family.ownStrategies ?? []);
  return METHOD_DESCRIPTORS.filter((method) =>
    method.families === "all" ? !method.remembers.lastAttempt || family.renderLastAttempt !== undefined : own.has(method.id),
  ).map((method) => method.id);
}

/**
 * The limits a strategy on a family fixes, whatever a create-run request asks:
 * `stepsPerTrial`, the family's `fixedStepsPerTrial` (code: 2) or else the
 * strategy's ({@link StrategyBehaviour.stepsPerTrial}, `cot`: 1); `memoryWindow`,
 * the strategy's fixed Ω ({@link StrategyBehaviour.fixedMemoryWindow},
 * `last-attempt-and-reflexion`: 1). Null = the request (or the family's default)
 * decides. The server builds run configs with it; the new-run form shows it.
 */
export function fixedLimitsOf(
  strategy: Strategy,
  family: { fixedStepsPerTrial?: number | null },
): { stepsPerTrial: number | null; memoryWindow: number | null } {
  const behaviour = strategyBehaviour(strategy);
  return { stepsPerTrial: family.fixedStepsPerTrial ?? behaviour.stepsPerTrial, memoryWindow: behaviour.fixedMemoryWindow };
}

/**
 * Whether a person can set Ω for `strategy` on `family`: the strategy puts reflections in the
 * prompt ({@link StrategyBehaviour.reflectionsInPrompt}) and does not fix Ω itself
 * ({@link fixedLimitsOf}). The new-run and new-experiment forms enable their Ω field with it;
 * where it is false the server's run config ignores a requested Ω.
 */
export function memoryWindowApplies(strategy: Strategy, family: { fixedStepsPerTrial?: number | null } | undefined): boolean {
  return strategyBehaviour(strategy).reflectionsInPrompt && fixedLimitsOf(strategy, family ?? {}).memoryWindow === null;
}
