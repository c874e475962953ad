import { repeatsOf, type ArmResult, type ExperimentSummary } from "./experiment";
import { byTask } from "./experiment-intervals";
import type { PairedComparison } from "./experiment-tests";
import { BOOTSTRAP_SEED, clusteredBootstrap } from "./stats/bootstrap";
import { pValueText } from "./stats/p-value";
import { shortHash } from "./dataset-pin";
import { DEMO_MODEL_NOTE, isDemoModel } from "./model-id";

/** What the tables must say about the family's metric (from its descriptor: lib/domain may not read the registry). */
export interface MetricHonesty {
  /** The metric's name, e.g. "EM", "pass@1". */
  name: string;
  /** The metric reads the gold answer (HotpotQA's exact match): an oracle signal, said so under the table. */
  oracle: boolean;
}

/**
 * The caveats a reader of the tables must see (the UI's honesty rules): an arm run on the offline
 * demo model is a scripted stand-in, and a metric that reads the gold answer is an oracle signal.
 */
export function honestyNotes(summary: ExperimentSummary, metric: MetricHonesty): string[] {
  const notes: string[] = [];
  const demoArms = (summary.arms ?? []).filter((arm) => isDemoModel(arm.modelId)).map((arm) => arm.label);
  if (demoArms.length > 0) {
    notes.push(`Model demo (arms ${demoArms.join(", ")}) is the offline demo model, ${DEMO_MODEL_NOTE}: its figures show how the method and tools behave, not how a language model performs.`);
  }
  const oracle = oracleMetricNote(metric);
  if (oracle) notes.push(oracle);
  return notes;
}

/** The sentence naming an oracle metric (one that reads the gold answer) as such; null for any other metric. */
export function oracleMetricNote(metric: MetricHonesty): string | null {
  if (!metric.oracle) return null;
  return `${metric.name} compares the answer with the gold answer: an oracle signal the agent would not have in deployment (Reflexion paper, section 4.2), not the agent's own self-evaluation.`;
}

/**
 * Tables of an experiment for a paper: one row per arm with trial 1, the last trial and their
 * difference Δ (percent of tasks, each with its 95 % interval) and the cost per solved run, then the
 * paired tests between arms. Rendered as Markdown ({@link markdownTables}) or as a LaTeX document with
 * booktabs tables ({@link latexTables}); both from {@link experimentTableRows}, so they agree.
 */

/** A rate in percent of tasks with its 95 % interval. */
export interface RateCell {
  percent: number;
  ci: [number, number];
}

/** One arm's row. Percentages 0–100; cost USD (null: unpriced or nothing solved). */
export interface ArmTableRow {
  arm: string;
  strategy: string;
  model: string;
  tasks: number;
  repeats: number;
  lastTrial: number;
  first: RateCell;
  last: RateCell;
  /** Last trial minus trial 1, with a bootstrap interval over tasks and repetitions. */
  delta: RateCell;
  costPerSolvedUsd: number | null;
  intervalMethod: "wilson" | "bootstrap";
}

const pct = (count: number, tasks: number) => (tasks === 0 ? 0 : (100 * count) / tasks);

/** The arms' rows of the tables. */
export function experimentTableRows(summary: ExperimentSummary): ArmTableRow[] {
  const repeats = repeatsOf(summary.experiment.definition);
  return summary.arms.map((arm) => armRow(summary, arm, repeats));
}

function armRow(summary: ExperimentSummary, arm: ArmResult, repeats: number): ArmTableRow {
  const last = arm.successByTrial.length - 1;
  const ci = arm.successByTrialCI ?? [];
  const cells = summary.cells.filter((cell) => cell.arm === arm.label);
  // Δ per run: solved by the last trial but not at trial 1 (the curve is cumulative, so never negative).
  const clusters = byTask(cells).map((group) => group.map((cell) => [cell.solvedAtTrial !== null && cell.solvedAtTrial > 1 && cell.solvedAtTrial <= arm.trials ? 1 : 0]));
  const boot = clusteredBootstrap(clusters, { seed: BOOTSTRAP_SEED });
  const deltaMean = 100 * ((arm.successByTrial[last] ?? 0) - (arm.successByTrial[0] ?? 0)) / Math.max(1, arm.tasks);
  const [dLo, dHi] = boot.ci[0] ?? [0, 0];
  return {
    arm: arm.label,
    strategy: arm.strategy,
    model: arm.modelId,
    tasks: arm.tasks,
    repeats,
    lastTrial: last + 1,
    first: { percent: pct(arm.successByTrial[0] ?? 0, arm.tasks), ci: [pct(ci[0]?.[0] ?? 0, arm.tasks), pct(ci[0]?.[1] ?? 0, arm.tasks)] },
    last: { percent: pct(arm.successByTrial[last] ?? 0, arm.tasks), ci: [pct(ci[last]?.[0] ?? 0, arm.tasks), pct(ci[last]?.[1] ?? 0, arm.tasks)] },
    delta: { percent: deltaMean, ci: [Math.min(100 * dLo, deltaMean), Math.max(100 * dHi, deltaMean)] },
    costPerSolvedUsd: arm.costPerSolvedUsd ?? null,
    intervalMethod: arm.intervalMethod ?? "wilson",
  };
}

const one = (value: number) => value.toFixed(1);
const rate = (cell: RateCell) => `${one(cell.percent)} [${one(cell.ci[0])}, ${one(cell.ci[1])}]`;
const usd = (value: number | null) => (value === null ? "—" : `$${value < 0.01 && value > 0 ? value.toPrecision(2) : value.toFixed(4)}`);

/** How an effect reads in a table: a rate difference in points, an AUC difference, or USD. */
function effectText(test: PairedComparison): string {
  const [lo, hi] = test.ci;
  if (test.metric === "cost") return `${test.effect.toFixed(4)} [${lo.toFixed(4)}, ${hi.toFixed(4)}] USD`;
  const scale = 100;
  return `${(scale * test.effect).toFixed(1)} [${(scale * lo).toFixed(1)}, ${(scale * hi).toFixed(1)}] pts`;
}

/** The verdict words of a paired test (a difference only when its interval excludes 0). */
export function verdictText(test: PairedComparison): string {
  if (test.n === 0) return test.metric === "cost" ? "not priced" : "no paired runs yet";
  return test.differs ? "differs" : "no difference";
}

/** The name of a test's metric in a table. */
export const METRIC_LABEL: Record<PairedComparison["metric"], string> = { "final-success": "final success", auc: "AUC of success by trial", cost: "cost per run" };

/** The sentence under the arm table saying what the intervals are. */
export function intervalNote(summary: ExperimentSummary): string {
  const repeats = repeatsOf(summary.experiment.definition);
  return repeats <= 1
    ? "Rates are percent of tasks; brackets are 95 % Wilson score intervals (one run per task and arm); Δ's interval is a percentile bootstrap over tasks (2000 resamples)."
    : `Rates are percent of tasks, the mean over ${repeats} repetitions; brackets are 95 % percentile bootstrap intervals over tasks and, within each, repetitions (2000 resamples).`;
}

function datasetLine(summary: ExperimentSummary): string {
  const definition = summary.experiment.definition;
  const pin = definition.dataset ? `, pinned by content ${shortHash(definition.dataset.hash)}` : "";
  return `Task set: ${summary.experiment.taskSetName} (${definition.environment}, ${definition.taskIds.length} tasks${pin}); ${repeatsOf(definition)} repetition(s) per task and arm.`;
}

/**
 * Markdown: a heading, the dataset line, the arm table, the interval note, the honesty notes
 * ({@link honestyNotes}) and the paired-tests table.
 */
export function markdownTables(summary: ExperimentSummary, metric: MetricHonesty): string {
  const rows = experimentTableRows(summary);
  const esc = (text: string) => text.replace(/\|/g, "\\|");
  const lines = [
    `# ${esc(summary.experiment.definition.name)}`,
    "",
    datasetLine(summary),
    "",
    "| Arm | Strategy | Model | Trial 1 (%) | Last trial (%) | Δ (pts) | Cost per solved |",
    "| --- | --- | --- | --- | --- | --- | --- |",
    ...rows.map((row) => `| ${esc(row.arm)} | ${row.strategy} | ${esc(row.model)} | ${rate(row.first)} | ${rate(row.last)} (trial ${row.lastTrial}) | ${rate(row.delta)} | ${usd(row.costPerSolvedUsd)} |`),
    "",
    intervalNote(summary),
    ...honestyNotes(summary, metric).flatMap((note) => ["", note]),
  ];
  const tests = summary.tests ?? [];
  if (tests.length > 0) {
    lines.push("", "| A | B | Metric | Test | n | Effect A − B [95 % CI] | p | Verdict |", "| --- | --- | --- | --- | --- | --- | --- | --- |");
    for (const test of tests) {
      const discordant = test.aOnly === undefined ? "" : ` (discordant ${test.aOnly} vs ${test.bOnly})`;
      lines.push(`| ${esc(test.a)} | ${esc(test.b)} | ${METRIC_LABEL[test.metric]} | ${test.method} | ${test.n}${discordant} | ${effectText(test)} | ${pValueText(test.p).replace(/^p = /, "").replace(/^p /, "")} | ${verdictText(test)} |`);
    }
    lines.push("", "Paired units are (task, repetition) pairs both arms ran to the end. Final success: exact McNemar test (two-sided binomial on the discordant pairs); AUC and cost: paired sign-flip test (exact up to 16 tasks), interval by paired bootstrap (percentile, 2000 resamples over tasks then repetitions). A difference is reported only when p < 0.05 and the 95 % interval excludes 0.");
  }
  return `${lines.join("\n")}\n`;
}

/** Escapes text for LaTeX's text mode. */
export function latexEscape(text: string): string {
  return text.replace(/[\\{}$&#^_%~]/g, (char) =>
    char === "\\" ? "\\textbackslash{}" : char === "^" ? "\\textasciicircum{}" : char === "~" ? "\\textasciitilde{}" : `\\${char}`,
  );
}

/**
 * A complete LaTeX document (article, booktabs) holding the arm table and the paired-tests table as
 * `table` floats, ready to compile with pdflatex or to copy into a paper. Only ASCII is written.
 */
export function latexTables(summary: ExperimentSummary, metric: MetricHonesty): string {
  const rows = experimentTableRows(summary);
  const rateTex = (cell: RateCell) => `${one(cell.percent)} [${one(cell.ci[0])}, ${one(cell.ci[1])}]`;
  const usdTex = (value: number | null) => (value === null ? "--" : `\\$${value < 0.01 && value > 0 ? value.toPrecision(2) : value.toFixed(4)}`);
  const ascii = (text: string) => latexEscape(text.replace(/Δ/g, "Delta").replace(/[−–—]/g, "-").replace(/[^\x20-\x7e]/g, "?"));
  const out = [
    "% Generated by Reflexion Playground (cli experiment export --format latex).",
    "\\documentclass{article}",
    "\\usepackage{booktabs}",
    "\\usepackage[margin=2cm,landscape]{geometry}",
    "\\begin{document}",
    "\\begin{table}[ht]",
    "\\centering\\small",
    `\\caption{${ascii(summary.experiment.definition.name)}. ${ascii(datasetLine(summary))} ${ascii(intervalNote(summary))}${honestyNotes(summary, metric).map((note) => ` ${ascii(note)}`).join("")}}`,
    "\\begin{tabular}{llllllr}",
    "\\toprule",
    "Arm & Strategy & Model & Trial 1 (\\%) & Last trial (\\%) & $\\Delta$ (pts) & Cost per solved \\\\",
    "\\midrule",
    ...rows.map((row) => `${ascii(row.arm)} & ${ascii(row.strategy)} & ${ascii(row.model)} & ${rateTex(row.first)} & ${rateTex(row.last)} (trial ${row.lastTrial}) & ${rateTex(row.delta)} & ${usdTex(row.costPerSolvedUsd)} \\\\`),
    "\\bottomrule",
    "\\end{tabular}",
    "\\end{table}",
  ];
  const tests = summary.tests ?? [];
  if (tests.length > 0) {
    out.push(
      "\\begin{table}[ht]",
      "\\centering\\small",
      "\\caption{Paired tests over (task, repetition) pairs both arms ran to the end. Final success: exact McNemar; AUC and cost: paired sign-flip test, interval by paired bootstrap (percentile, 2000 resamples). A difference is reported only when $p < 0.05$ and the 95\\% interval excludes 0.}",
      "\\begin{tabular}{lllllllr}",
      "\\toprule",
      "A & B & Metric & Test & $n$ & Effect $A-B$ [95\\% CI] & $p$ & Verdict \\\\",
      "\\midrule",
      ...tests.map((test) => {
        const p = pValueText(test.p).replace(/^p = /, "").replace(/^p /, "").replace("<", "$<$");
        return `${ascii(test.a)} & ${ascii(test.b)} & ${ascii(METRIC_LABEL[test.metric])} & ${ascii(test.method)} & ${test.n} & ${ascii(effectText(test))} & ${p} & ${verdictText(test)} \\\\`;
      }),
      "\\bottomrule",
      "\\end{tabular}",
      "\\end{table}",
    );
  }
  out.push("\\end{document}", "");
  return out.join("\n");
}
