import { DEMO_VARIATION_NOTE } from "@/lib/domain/demo-variation";
import { experimentSummaryLine, repeatsOf, type ExperimentSummary } from "@/lib/domain/experiment";
import { experimentStatusText } from "@/lib/domain/experiment-summary";
import { oracleMetricNote } from "@/lib/domain/experiment-tables";
import { shortHash } from "@/lib/domain/dataset-pin";
import { DEMO_MODEL_NOTE, isDemoModel } from "@/lib/domain/model-id";
import { familyDescriptor } from "@/lib/environments/descriptors";
import { describeTests } from "./experiment-compare";

/**
 * People's view of an experiment summary: one block per arm with the cumulative success curve and its
 * intervals, calls, tokens and cost, the paired tests, and the caveats (demo stand-in, oracle metric).
 */
export function describeExperiment(summary: ExperimentSummary): string {
  const definition = summary.experiment.definition;
  const repeats = repeatsOf(definition);
  const lines = [`Experiment ${summary.experiment.id} — ${definition.name} (${experimentStatusText(summary)}, ${summary.progress.done}/${summary.progress.total} runs ended)`];
  if (definition.dataset) lines.push(`  tasks pinned by content: ${shortHash(definition.dataset.hash)} (${definition.dataset.tasks} tasks)`);
  if (repeats > 1) lines.push(`  ${repeats} repetitions per task and arm: counts are means over repetitions; [lo, hi] are 95 % bootstrap intervals over tasks and repetitions, in percent`);
  else lines.push("  [lo, hi]: 95 % Wilson score intervals, in percent");
  for (const arm of summary.arms) {
    const round = (value: number) => (Number.isInteger(value) ? String(value) : value.toFixed(2));
    const curve = arm.successByTrial
      .map((n, k) => {
        const ci = arm.successByTrialCI?.[k];
        // The interval is in tasks (as the JSON summary has it); printed in percent beside the percentage.
        const percent = (count: number) => (arm.tasks ? Math.round((1000 * count) / arm.tasks) / 10 : 0);
        return `t${k + 1} ${round(n)}/${arm.tasks} (${percent(n)}%${ci ? ` [${percent(ci[0])}, ${percent(ci[1])}]` : ""})`;
      })
      .join(" · ");
    const cost = arm.costUsd === null ? "cost unknown" : `$${arm.costUsd.toFixed(4)}`;
    const perSolved = arm.costPerSolvedUsd === null || arm.costPerSolvedUsd === undefined ? "" : `, $${arm.costPerSolvedUsd.toFixed(4)} per solved run`;
    const seeded = isDemoModel(arm.modelId) && repeats > 1 ? `; ${DEMO_VARIATION_NOTE}` : "";
    const demo = isDemoModel(arm.modelId) ? ` — demo model: ${DEMO_MODEL_NOTE}${seeded}` : "";
    lines.push(`  ${arm.label} [${arm.strategy}, ${arm.modelId}${demo}]`);
    lines.push(`    solved by trial: ${curve}`);
    // Calls per solved run: what a search method (LATS) pays for its extra solves, priced or not.
    const solved = (arm.successByTrial.at(-1) ?? 0) * (arm.repeats ?? 1);
    const callsPerSolved = solved > 0 ? `; ${((arm.calls.live + arm.calls.cached) / solved).toFixed(1)} calls per solved run` : "";
    lines.push(`    model calls ${arm.calls.live} live, ${arm.calls.cached} served from the cache${callsPerSolved}; tokens in/out ${arm.tokens.input}/${arm.tokens.output}; ${cost}${perSolved}`);
    if (arm.passAtK) lines.push(`    pass@k (Chen et al. 2021, over ${repeats} samples per task): ${arm.passAtK.map((entry) => `pass@${entry.k} ${(100 * entry.value).toFixed(1)}%`).join(" · ")}`);
    if (arm.falsePositives > 0) lines.push(`    false positives (internal tests passed, hidden failed): ${arm.falsePositives}`);
    if (arm.halts > 0) lines.push(`    halted trials: ${arm.halts}`);
  }
  if ((summary.tests ?? []).length > 0) lines.push("  paired tests:", ...describeTests(summary.tests ?? []).map((line) => `    ${line}`));
  const oracle = oracleMetricNote(familyDescriptor(definition.environment).metric);
  if (oracle) lines.push(`  note: ${oracle}`);
  return lines.join("\n");
}

/** Writes the summary to stdout: {@link describeExperiment}'s text, or with `json` one `experiment-summary` line. */
export function report(summary: ExperimentSummary, json: boolean): void {
  if (json) process.stdout.write(`${experimentSummaryLine(summary)}\n`);
  else process.stdout.write(`${describeExperiment(summary)}\n`);
}
