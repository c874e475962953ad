import { z } from "zod";
import type { ArmUnit } from "./experiment-intervals";
import { runAuc } from "./experiment-intervals";
import { pairedExactTest } from "./paired-test";
import { BOOTSTRAP_SEED, DEFAULT_RESAMPLES, pairedBootstrap } from "./stats/bootstrap";
import { signFlipTest } from "./stats/sign-flip";

/** What a paired test compares: final success, the area under the success curve, or cost per run. */
export const comparisonMetricSchema = z.enum(["final-success", "auc", "cost"]);
export type ComparisonMetric = z.infer<typeof comparisonMetricSchema>;

/** The exact names printed next to each test. */
export const COMPARISON_METHODS = {
  "final-success": "exact McNemar",
  auc: "sign-flip test, bootstrap interval",
  cost: "sign-flip test, bootstrap interval",
} as const satisfies Record<ComparisonMetric, string>;

/**
 * One paired test of arm `a` against arm `b` over the (task, repetition) units both ran to the end.
 * `effect` is the mean difference a − b per unit (final success: a difference of success rates;
 * AUC: of the area under the success-by-trial curve as a share of the trials, lib/domain/experiment-intervals.ts
 * `runAuc`; cost: USD per run) and `ci` its 95 % paired-bootstrap interval (percentile, 2000
 * resamples over tasks and then repetitions). `p`: the exact McNemar p-value for final success, the
 * paired sign-flip test's two-sided p for the others (lib/domain/stats/sign-flip.ts: exact up to 16
 * tasks, so 3 tasks can never give less than p = 0.25). `differs` only when p < 0.05 and the interval
 * excludes 0.
 */
export const pairedComparisonSchema = z.object({
  a: z.string(),
  b: z.string(),
  metric: comparisonMetricSchema,
  method: z.string(),
  /** Paired units (task × repetition) both arms ended; for cost, those both priced. */
  n: z.number().int().nonnegative(),
  p: z.number().min(0).max(1),
  effect: z.number(),
  ci: z.tuple([z.number(), z.number()]),
  /** Final success: units solved by a only (b) and by b only (c), the discordant pairs. */
  aOnly: z.number().int().nonnegative().optional(),
  bOnly: z.number().int().nonnegative().optional(),
  differs: z.boolean(),
});
export type PairedComparison = z.infer<typeof pairedComparisonSchema>;

/** An arm as the tests take it: its label, trial budget and runs. */
export interface ComparedArm {
  label: string;
  trials: number;
  units: readonly ArmUnit[];
}

/** Units of `a` and `b` with the same (task, repetition), both ended, grouped by task. */
function pairs(a: ComparedArm, b: ComparedArm): Array<Array<[ArmUnit, ArmUnit]>> {
  const ofB = new Map(b.units.filter((unit) => unit.ended).map((unit) => [`${unit.taskId}\u0000${unit.repetition}`, unit]));
  const groups = new Map<string, Array<[ArmUnit, ArmUnit]>>();
  for (const unit of a.units) {
    const other = ofB.get(`${unit.taskId}\u0000${unit.repetition}`);
    if (!unit.ended || !other) continue;
    const group = groups.get(unit.taskId) ?? [];
    group.push([unit, other]);
    groups.set(unit.taskId, group);
  }
  return [...groups.values()];
}

const excludesZero = (ci: readonly [number, number]) => ci[0] > 0 || ci[1] < 0;

/**
 * The three paired tests of arm `a` against arm `b`: exact McNemar on final success (each arm within
 * its own trial budget), and on the AUC (over the trials both arms have) and on cost a paired sign-flip
 * test with a paired-bootstrap interval.
 * @param seed the bootstraps' seed (default {@link BOOTSTRAP_SEED}, as every summary statistic).
 * @param resamples bootstrap replicates (default {@link DEFAULT_RESAMPLES}).
 */
export function compareArms(a: ComparedArm, b: ComparedArm, seed = BOOTSTRAP_SEED, resamples = DEFAULT_RESAMPLES): PairedComparison[] {
  const grouped = pairs(a, b);
  const flat = grouped.flat();
  const solved = (unit: ArmUnit, trials: number) => unit.solvedAtTrial !== null && unit.solvedAtTrial <= trials;
  const aOnly = flat.filter(([x, y]) => solved(x, a.trials) && !solved(y, b.trials)).length;
  const bOnly = flat.filter(([x, y]) => !solved(x, a.trials) && solved(y, b.trials)).length;
  const mcnemar = pairedExactTest(flat.length, aOnly, bOnly);
  const success = pairedBootstrap(
    grouped.map((group) => group.map(([x, y]) => Number(solved(x, a.trials)) - Number(solved(y, b.trials)))),
    { seed, resamples },
  );
  const common = Math.min(a.trials, b.trials);
  const aucDifferences = grouped.map((group) => group.map(([x, y]) => runAuc(x.solvedAtTrial, common) - runAuc(y.solvedAtTrial, common)));
  const auc = pairedBootstrap(aucDifferences, { seed: seed + 1, resamples });
  const priced = grouped.map((group) => group.filter(([x, y]) => x.costUsd !== null && y.costUsd !== null).map(([x, y]) => x.costUsd! - y.costUsd!));
  const cost = pairedBootstrap(priced, { seed: seed + 2, resamples });
  const aucP = signFlipTest(aucDifferences, { seed: seed + 3, resamples }).p;
  const costP = signFlipTest(priced, { seed: seed + 4, resamples }).p;
  return [
    {
      a: a.label,
      b: b.label,
      metric: "final-success",
      method: COMPARISON_METHODS["final-success"],
      n: flat.length,
      p: mcnemar.pValue,
      effect: success.effect,
      ci: success.ci,
      aOnly,
      bOnly,
      differs: flat.length > 0 && mcnemar.pValue < 0.05 && excludesZero(success.ci),
    },
    { a: a.label, b: b.label, metric: "auc", method: COMPARISON_METHODS.auc, n: auc.n, p: aucP, effect: auc.effect, ci: auc.ci, differs: auc.n > 0 && aucP < 0.05 && excludesZero(auc.ci) },
    { a: a.label, b: b.label, metric: "cost", method: COMPARISON_METHODS.cost, n: cost.n, p: costP, effect: cost.effect, ci: cost.ci, differs: cost.n > 0 && costP < 0.05 && excludesZero(cost.ci) },
  ];
}

/** {@link compareArms} for every pair of arms (i < j, in the arms' order), seeded as `compare` is. */
export function allPairedComparisons(arms: readonly ComparedArm[], resamples = DEFAULT_RESAMPLES): PairedComparison[] {
  const tests: PairedComparison[] = [];
  for (let i = 0; i < arms.length; i += 1) {
    for (let j = i + 1; j < arms.length; j += 1) tests.push(...compareArms(arms[i]!, arms[j]!, BOOTSTRAP_SEED, resamples));
  }
  return tests;
}
