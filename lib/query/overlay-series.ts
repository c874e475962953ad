import type { EnvironmentId } from "@/lib/domain/config";
import type { ArmResult, ExperimentSummary } from "@/lib/domain/experiment";
import { paperCurveNotes, type PaperCurveNotes } from "@/lib/domain/paper-curves";
import { familyDescriptor } from "@/lib/environments/descriptors";
import { finalReachedAtTrial } from "@/lib/graph/compare-arms";

/**
 * The overlay page (`/experiments/overlay?ids=a,b,…`): several experiments'
 * arms on one cumulative success-by-trial chart (the Reflexion paper's
 * Fig. 3–4 draw the authors' arms this way) and final-success bars (one-trial
 * logs, pass@1; the paper's Rust ablation). Pure and server-safe.
 */

/** At most this many experiments on one chart. */
export const MAX_OVERLAID = 8;

/** The overlay page's address for these experiments (duplicates and empties dropped, order kept). */
export function overlayHref(experimentIds: readonly string[]): string {
  const ids = [...new Set(experimentIds.filter((id) => id.length > 0))];
  return `/experiments/overlay?ids=${ids.map(encodeURIComponent).join(",")}`;
}

/** The experiment ids of an `ids` parameter: comma-separated, trimmed, duplicates dropped, at most {@link MAX_OVERLAID}. */
export function parseOverlayIds(value: string | readonly string[] | undefined | null): string[] {
  const raw = value === undefined || value === null ? [] : typeof value === "string" ? [value] : value;
  const ids = raw
    .flatMap((part) => part.split(","))
    .map((id) => id.trim())
    .filter((id) => id.length > 0);
  return [...new Set(ids)].slice(0, MAX_OVERLAID);
}

/** One line (or bar) of the overlay: an arm of one experiment, labelled uniquely. */
export interface OverlaySeries {
  /** Unique over the overlay: the arm's label, with its experiment's name when two arms share one. */
  label: string;
  experimentId: string;
  experimentName: string;
  environment: EnvironmentId;
  /** Imported from the authors' logs. */
  recorded: boolean;
  arm: ArmResult;
  /** An imported curve's unrecorded points and the paper's reported point (lib/domain/paper-curves.ts). */
  paperNotes?: PaperCurveNotes;
}

/**
 * The part of every label before a shared "…: " (e.g. "HumanEval-Rs hard 50: "
 * of the Rust ablation's four logs), or "" when there is none or only one label.
 */
export function sharedLabelPrefix(labels: readonly string[]): string {
  if (labels.length < 2) return "";
  const first = labels[0]!;
  const colon = first.indexOf(": ");
  if (colon < 0) return "";
  const prefix = first.slice(0, colon + 2);
  return labels.every((label) => label.startsWith(prefix) && label.length > prefix.length) ? prefix : "";
}

/**
 * The overlay's series, experiment by experiment and arm by arm. Labels are
 * the arms' own where unique, else "arm (experiment)", and numbered as a last
 * resort; a "…: " prefix every label shares is left out (the chart's heading
 * names the experiments).
 */
export function overlaySeries(summaries: readonly ExperimentSummary[]): OverlaySeries[] {
  const all = summaries.flatMap((summary) =>
    summary.arms.map((arm) => ({
      experimentId: summary.experiment.id,
      experimentName: summary.experiment.definition.name,
      environment: summary.experiment.definition.environment,
      recorded: summary.experiment.provenance !== null,
      arm,
      paperNotes: paperCurveNotes(summary.experiment.provenance, familyDescriptor(summary.experiment.definition.environment).paperLogCurves, arm),
    })),
  );
  const prefix = sharedLabelPrefix(all.map((entry) => entry.arm.label));
  const short = (label: string) => label.slice(prefix.length);
  const counts = new Map<string, number>();
  for (const entry of all) counts.set(entry.arm.label, (counts.get(entry.arm.label) ?? 0) + 1);
  const used = new Set<string>();
  return all.map((entry) => {
    const own = short(entry.arm.label);
    let label = (counts.get(entry.arm.label) ?? 0) > 1 ? `${own} (${entry.experimentName})` : own;
    for (let n = 2; used.has(label); n += 1) label = `${own} #${n}`;
    used.add(label);
    return { ...entry, label };
  });
}

/** The family the overlay measures, or null when its experiments are of different families (y is then "% of each arm's tasks" only). */
export function overlayEnvironment(series: readonly Pick<OverlaySeries, "environment">[]): EnvironmentId | null {
  const families = new Set(series.map((entry) => entry.environment));
  return families.size === 1 ? [...families][0]! : null;
}

/** A bar: an arm's tasks solved by its last trial, of how many. */
export interface FinalBar {
  label: string;
  solved: number;
  tasks: number;
  /** 0–100, one decimal. */
  percent: number;
  trials: number;
  /** The trial by which `solved` was reached (lib/graph/compare-arms.ts finalReachedAtTrial). */
  reachedAtTrial: number;
  recorded: boolean;
  /** The 95 % interval of `percent` (Wilson, or a bootstrap with repeats), one decimal; absent when the summary has none. */
  ci?: [number, number];
}

/** The final-success bars: each series' `successByTrial` at its last trial (pass@1 for a one-trial log). */
export function finalBars(series: readonly OverlaySeries[]): FinalBar[] {
  return series.map((entry) => {
    const solved = entry.arm.successByTrial.at(-1) ?? 0;
    const tasks = entry.arm.tasks;
    const interval = entry.arm.successByTrialCI?.at(-1);
    const pct = (count: number) => (tasks === 0 ? 0 : Math.round((count / tasks) * 1000) / 10);
    return {
      ...(interval ? { ci: [pct(interval[0]), pct(interval[1])] as [number, number] } : {}),
      label: entry.label,
      solved,
      tasks,
      percent: tasks === 0 ? 0 : Math.round((solved / tasks) * 1000) / 10,
      trials: entry.arm.successByTrial.length,
      reachedAtTrial: finalReachedAtTrial(entry.arm.successByTrial),
      recorded: entry.recorded,
    };
  });
}

/** Whether the overlay draws curves: some arm has more than one trial (one-trial logs are bars only). */
export function hasCurves(series: readonly OverlaySeries[]): boolean {
  return series.some((entry) => entry.arm.successByTrial.length > 1);
}
