import { InvalidArgumentError, Option } from "commander";
import type { LatsSettings } from "@/lib/domain/config";

/** The `cli run` flags of a LATS run, as commander parses them. */
export interface LatsFlags {
  latsChildren?: number;
  latsIterations?: number;
  latsExploration?: number;
}

function numberIn(min: number, max: number, integer: boolean): (value: string) => number {
  return (value) => {
    const parsed = Number(value);
    if (!Number.isFinite(parsed) || parsed < min || parsed > max || (integer && !Number.isInteger(parsed))) {
      // commander names the option: error: option '--lats-children <n>' argument '0' is invalid. …
      throw new InvalidArgumentError(`expected ${integer ? "a whole number" : "a number"} from ${min} to ${max}.`);
    }
    return parsed;
  };
}

/**
 * The tree-search flags of `cli run --strategy lats` (Zhou et al. 2024 §4): `--lats-children n`
 * (children sampled per expansion), `--lats-iterations k` (search iterations: the run's trial
 * budget, overriding `--trials`) and `--lats-exploration w` (UCT's exploration weight).
 */
export function latsOptions(): [Option, Option, Option] {
  return [
    new Option("--lats-children <n>", "LATS: children sampled per expansion (1–10, default 3)").argParser(numberIn(1, 10, true)),
    new Option("--lats-iterations <k>", "LATS: search iterations, one trial each (1–50; overrides --trials)").argParser(numberIn(1, 50, true)),
    new Option("--lats-exploration <w>", "LATS: UCT exploration weight (0–10, default 1)").argParser(numberIn(0, 10, false)),
  ];
}

/**
 * The note `cli run` prints when LATS flags are given to a method that is not a tree search (they
 * would be ignored without a word), else null.
 */
export function latsFlagsIgnoredNote(flags: LatsFlags, treeSearch: boolean): string | null {
  if (treeSearch) return null;
  const given = [
    flags.latsChildren !== undefined ? "--lats-children" : null,
    flags.latsIterations !== undefined ? "--lats-iterations" : null,
    flags.latsExploration !== undefined ? "--lats-exploration" : null,
  ].filter((flag) => flag !== null);
  return given.length === 0 ? null : `note: ${given.join(", ")} ${given.length === 1 ? "applies" : "apply"} to --strategy lats only; this run ignores ${given.length === 1 ? "it" : "them"}.`;
}

/** The request's `lats` settings and trial budget from the flags (nothing when none was given). */
export function latsFromFlags(flags: LatsFlags): { lats?: Partial<LatsSettings>; maxTrials?: number } {
  const lats: Partial<LatsSettings> = {};
  if (flags.latsChildren !== undefined) lats.children = flags.latsChildren;
  if (flags.latsExploration !== undefined) lats.exploration = flags.latsExploration;
  return {
    ...(Object.keys(lats).length > 0 ? { lats } : {}),
    ...(flags.latsIterations !== undefined ? { maxTrials: flags.latsIterations } : {}),
  };
}
