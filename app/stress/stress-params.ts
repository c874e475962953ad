import { defaultStressFamily, STRESS_MAX_TRIALS, stressFamilies, type StressFamily } from "@/lib/graph/stress-run";
import { STRESS_TREE_MAX_NODES } from "@/lib/graph/stress-tree";

/** What the stress page draws, from its query string. */
export interface StressParams {
  /** Trials per run, 1–2,000 (default 24). */
  trials: number;
  /**
   * `nodes=N`: about N graph nodes per run instead of a number of trials (as many trials as
   * make ~N nodes, 1–2,000 trials; e.g. `nodes=25000` ≈ 840 household trials). Null: `trials` holds.
   */
  nodes: number | null;
  /** The family the runs imitate: one with a stress-run script (default: the script marked `pageDefault`). */
  family: StressFamily;
  /**
   * `single`: one run graph; `graphs`: two run graphs side by side (different seeds);
   * `compare`: the compare view's trial lanes (components/compare) of two runs.
   */
  view: "single" | "graphs" | "compare";
  seed: number;
  /** `auto`: the graph's default (old trials of a long run start collapsed); `off`: every trial expanded. */
  collapse: "auto" | "off";
  /**
   * `tree=N`: instead of a run graph, a synthetic LATS search tree of N nodes (1–30,000;
   * lib/graph/stress-tree.ts) in the search tree view (components/tree-search). Null: no tree.
   */
  tree: number | null;
  /**
   * `replay=1`: one run behind a replay cursor (app/stress/stress-replay-view.tsx) that
   * bench/replay-page.ts moves and times; `trials`/`family`/`seed` as for the single view.
   */
  replay: boolean;
}

/** The largest synthetic search tree the stress page draws. */
export const STRESS_TREE_LIMIT = STRESS_TREE_MAX_NODES;

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function familyOf(value: string | undefined): StressFamily {
  return stressFamilies().find((family) => family === value) ?? defaultStressFamily();
}

function viewOf(value: string | undefined): StressParams["view"] {
  return value === "graphs" || value === "compare" ? value : "single";
}

/** Parses `/stress` query parameters, falling back to the defaults on anything unexpected. */
export function parseStressParams(query: Record<string, string | string[] | undefined>): StressParams {
  const trials = Number.parseInt(first(query.trials) ?? "", 10);
  const seed = Number.parseInt(first(query.seed) ?? "", 10);
  const tree = Number.parseInt(first(query.tree) ?? "", 10);
  const nodes = Number.parseInt(first(query.nodes) ?? "", 10);
  return {
    trials: Number.isFinite(trials) ? Math.min(STRESS_MAX_TRIALS, Math.max(1, trials)) : 24,
    nodes: Number.isFinite(nodes) ? Math.max(1, nodes) : null,
    family: familyOf(first(query.family)),
    view: viewOf(first(query.view)),
    seed: Number.isFinite(seed) ? seed : 1,
    collapse: first(query.collapse) === "off" ? "off" : "auto",
    tree: Number.isFinite(tree) ? Math.min(STRESS_TREE_LIMIT, Math.max(1, tree)) : null,
    replay: first(query.replay) === "1",
  };
}
