import { isInsightItemId } from "./insights";
import type { RunConfig } from "./config";
import type { MemoryItem } from "./events";
import type { RunState } from "./fold-run";
import { strategyBehaviour } from "./strategies";
import { estimateTokens } from "./token-estimate";

/**
 * The next trial: whether the loop starts one after a judged trial, and what
 * its Actor prompt will carry (paper §3: episodic memory after the window Ω,
 * chosen by the strategy; §4 EPM: the previous trajectory). The engine
 * (lib/engine/decide.ts, and `trial-start` through `strategyBehaviour`), the
 * memory panel, the inspector and the fork outlook read these rules.
 */

/** A judged trial, as far as the loop's next move depends on it. */
export interface JudgedTrial {
  /** The trial number (1-based). */
  trial: number;
  /** The Evaluator's verdict is `pass` (the trial's outcome is `success`). */
  passed: boolean;
  /** Code tasks: the hidden tests' verdict (reporting only, it decides the run's outcome); null elsewhere. */
  hiddenVerdict: "pass" | "fail" | null;
  /** The trial already has its Self-Reflection. */
  reflected: boolean;
}

/**
 * What the loop does after a judged trial:
 * - `end-run`: the trial passed (`passed`; `false-positive` when the internal
 *   tests passed and the hidden tests failed: the run ends failed) or it was the
 *   last trial of the budget (`last-trial`; the outcome is the hidden verdict's
 *   when there is one, else failure);
 * - `reflect`: the strategy reflects after a failure and the trial has no
 *   reflection yet (never after the last trial: nothing would read it);
 * - `start-trial`: trial `trial` comes next.
 */
export type AfterTrial =
  | { kind: "end-run"; outcome: "success" | "failure"; reason: "passed" | "false-positive" | "last-trial" }
  | { kind: "reflect"; trial: number }
  | { kind: "start-trial"; trial: number };

/** See {@link AfterTrial} (paper §3 control flow; code: pass@1 on the hidden tests, reference §4.1). */
export function afterTrial(config: Pick<RunConfig, "strategy" | "maxTrials">, judged: JudgedTrial): AfterTrial {
  if (judged.passed) {
    return judged.hiddenVerdict === "fail"
      ? { kind: "end-run", outcome: "failure", reason: "false-positive" }
      : { kind: "end-run", outcome: "success", reason: "passed" };
  }
  if (judged.trial >= config.maxTrials) {
    return { kind: "end-run", outcome: judged.hiddenVerdict === "pass" ? "success" : "failure", reason: "last-trial" };
  }
  if (strategyBehaviour(config.strategy).reflectsAfterFailure && !judged.reflected) return { kind: "reflect", trial: judged.trial };
  return { kind: "start-trial", trial: judged.trial + 1 };
}

/** What the next trial's Actor prompt will carry, given the memory as it stands now. */
export interface NextTrialView {
  /** The trial number the next `trial-start` will carry. */
  trial: number;
  /** Whether the strategy puts reflections into the prompt at all (false: `none`, `last-attempt`). */
  reflectionsInPrompt: boolean;
  /** The memory items the prompt will carry (after Ω, as the strategy applies it), oldest first. */
  inContext: MemoryItem[];
  /**
   * The memory items the prompt will not carry: those outside Ω, or every item
   * when the strategy carries no reflections (the engine then records no
   * `evicted` at `trial-start`: nothing was windowed out, nothing was taken in).
   */
  leftOut: MemoryItem[];
  /** Whether the prompt will carry the previous trial's trajectory (the paper's EPM). */
  lastAttempt: boolean;
  /**
   * Under the summarize option: the memory is over the token budget, so before the trial starts
   * the Self-Reflection model merges `inContext` into one reflection (event `memory-summary`), and
   * the prompt carries that merge instead ({@link mergesBeforeTrial}).
   */
  mergedFirst: boolean;
}

/**
 * Whether the memory is merged before the next trial starts (the summarize option, a strategy that
 * puts reflections in the prompt, and more than `tokenBudget` tokens of them by the Self-Reflection
 * model's tokenizer, or the estimate the memory panel passes) — the engine's test before `trial-start`, and the memory panel's.
 */
export function mergesBeforeTrial(
  config: Pick<RunConfig, "strategy" | "memoryManagement" | "models">,
  memory: readonly MemoryItem[],
  countMemoryTokens: MemoryTokenCounter,
): boolean {
  const management = config.memoryManagement;
  if (management?.kind !== "summarize" || !strategyBehaviour(config.strategy).reflectionsInPrompt) return false;
  return memory.length > 1 && countMemoryTokens(config.models.reflector.modelId, memory) > management.tokenBudget;
}

/**
 * Tokens of a memory's reflection texts for a model id (a count). The engine passes the exact
 * counter (`memoryTokens`, lib/domain/memory-summary.ts, which loads the tokenizer's encodings);
 * browser code cannot load those (megabytes), so it passes {@link estimateMemoryTokens}.
 */
export type MemoryTokenCounter = (modelId: string, memory: readonly MemoryItem[]) => number;

/**
 * A tokenizer-free estimate of a memory's tokens: `ceil(chars / 4)` per reflection, the floor the
 * token budget uses (lib/domain/tokenizer.ts). What the memory panel shows "merged first" with;
 * the engine decides with the exact count, so near the budget the two may differ.
 */
export const estimateMemoryTokens: MemoryTokenCounter = (_modelId, memory) => memory.reduce((sum, item) => sum + estimateTokens(item.text), 0);

/**
 * The window a trial's memory is cut to: the run's Ω, except under the `summarize` memory option
 * (`RunConfig.memoryManagement`), which bounds the memory by merging it (lib/domain/memory-summary.ts)
 * instead of windowing it — there Ω does not apply (null: keep every item).
 */
export function effectiveMemoryWindow(config: Pick<RunConfig, "memoryWindow" | "memoryManagement">): number | null {
  return config.memoryManagement?.kind === "summarize" ? null : config.memoryWindow;
}

/**
 * The memory a trial starts with: the strategy's rule
 * (`StrategyBehaviour.memoryForTrial`) over the whole episodic memory with the
 * run's effective window ({@link effectiveMemoryWindow}) — the one call the engine makes for
 * `trial-start` and the memory panel makes for "the next trial sees". Carried-in ExpeL insights
 * (lib/domain/insights.ts) are outside Ω: they stay in context, first, whenever reflections do.
 */
export function memoryForTrial(
  config: Pick<RunConfig, "strategy" | "memoryWindow" | "memoryManagement">,
  memory: readonly MemoryItem[],
): { inContext: MemoryItem[]; evicted: MemoryItem[] } {
  const behaviour = strategyBehaviour(config.strategy);
  const insights = memory.filter((item) => isInsightItemId(item.id));
  if (insights.length === 0) return behaviour.memoryForTrial(memory, effectiveMemoryWindow(config));
  // ExpeL's insights hold for every trial (§4.3): Ω windows the reflections only, insights stay ahead of them.
  const chosen = behaviour.memoryForTrial(memory.filter((item) => !isInsightItemId(item.id)), effectiveMemoryWindow(config));
  return behaviour.reflectionsInPrompt ? { inContext: [...insights, ...chosen.inContext], evicted: chosen.evicted } : { inContext: chosen.inContext, evicted: [...insights, ...chosen.evicted] };
}

/**
 * What the trial after the newest one would see if it started now: the
 * episodic memory as it stands (edits applied) through {@link memoryForTrial},
 * and the last attempt when the strategy includes it. Items the strategy
 * leaves out are in `leftOut` (under `none` every item, hand-written ones
 * too). Null before `run-start`. `countMemoryTokens` decides `mergedFirst`: the estimate by
 * default (browser code), the exact counter where the tokenizer may load.
 */
export function nextTrialView(
  state: Pick<RunState, "config" | "trials" | "memory">,
  countMemoryTokens: MemoryTokenCounter = estimateMemoryTokens,
): NextTrialView | null {
  const config = state.config;
  if (!config) return null;
  const behaviour = strategyBehaviour(config.strategy);
  const trial = (state.trials.at(-1)?.trial ?? 0) + 1;
  const inContext = memoryForTrial(config, state.memory).inContext;
  const kept = new Set(inContext.map((item) => item.id));
  return {
    trial,
    reflectionsInPrompt: behaviour.reflectionsInPrompt,
    inContext,
    leftOut: state.memory.filter((item) => !kept.has(item.id)),
    lastAttempt: behaviour.includesLastAttempt && trial > 1,
    mergedFirst: mergesBeforeTrial(config, state.memory, countMemoryTokens),
  };
}
