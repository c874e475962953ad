import { repeatsOf, type ArmResult, type ExperimentSummary } from "@/lib/domain/experiment";
import { armStyle } from "./arm-palette";
import { isDemoModel, SCRIPTED_STAND_IN_NOTE } from "@/lib/domain/model-id";

/**
 * Figures of an experiment as standalone SVG text (no browser, no chart library): the cumulative
 * success-by-trial curves with their 95 % bands (Reflexion Fig. 3 with error bands) and the
 * cost-effectiveness plot (final success against cost per run, one point per arm with its
 * interval). The CLI's `experiment export --format svg`, the results page's download and the
 * image in docs/features.md are this text. Pure; numbers are rounded to 0.1 px so the text is stable.
 */

const W = 720;
const H = 400;
const M = { top: 48, right: 170, bottom: 72, left: 64 };
const r1 = (value: number) => Math.round(value * 10) / 10;

/** Escapes text for SVG/XML content and attributes. */
export function xmlEscape(text: string): string {
  return text.replace(/[<>&"']/g, (char) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;", "'": "&#39;" })[char]!);
}

/** A segment of an arm's curve the source does not record (imported paper runs): drawn dashed, with its note. */
export interface UnrecordedSpan {
  arm: string;
  /** First and last trial (1-based) of the span whose points are not in the logs. */
  fromTrial: number;
  toTrial: number;
  note: string;
}

/** Options of {@link successCurveSvg}. */
export interface CurveFigureOptions {
  title?: string;
  /** Points the source does not record, drawn dashed (imported paper runs). */
  unrecorded?: readonly UnrecordedSpan[];
  /** A marked point, e.g. the paper's reported stopping point (ALFWorld 130/134 at trial 12). */
  marks?: ReadonlyArray<{ trial: number; percent: number; label: string }>;
}

function intervalCaption(summary: Pick<ExperimentSummary, "experiment">, arms: readonly ArmResult[]): string {
  const repeats = repeatsOf(summary.experiment.definition);
  if (arms.every((arm) => (arm.successByTrialCI ?? []).length === 0)) return "No intervals recorded.";
  return repeats <= 1
    ? "Bands: 95 % Wilson score intervals (one run per task and arm)."
    : `Bands: 95 % bootstrap intervals over tasks and repetitions (R = ${repeats}); lines: mean over repetitions.`;
}

/** The figure's second line: tasks, repetitions and models, the demo model named as the stand-in it is. */
function subtitle(summary: Pick<ExperimentSummary, "experiment" | "arms">): string {
  const definition = summary.experiment.definition;
  const models = [...new Set(summary.arms.map((arm) => (isDemoModel(arm.modelId) ? `demo model (${SCRIPTED_STAND_IN_NOTE})` : arm.modelId)))].join(", ");
  const repeats = repeatsOf(definition);
  return `${definition.taskIds.length} ${definition.environment} tasks × ${repeats} repetition${repeats === 1 ? "" : "s"} · ${models}`;
}

/**
 * The success-by-trial curves with 95 % bands, as an SVG document. x = trial 1 … T, y = percent of
 * the arm's tasks solved at or before the trial (`successByTrial` / tasks), band = `successByTrialCI`.
 */
export function successCurveSvg(summary: Pick<ExperimentSummary, "experiment" | "arms">, options: CurveFigureOptions = {}): string {
  const arms = summary.arms;
  const trials = Math.max(2, ...arms.map((arm) => arm.successByTrial.length));
  const plotW = W - M.left - M.right;
  const plotH = H - M.top - M.bottom;
  const x = (trial: number) => r1(M.left + ((trial - 1) / (trials - 1)) * plotW);
  const y = (percent: number) => r1(M.top + (1 - percent / 100) * plotH);
  const pct = (count: number, tasks: number) => (tasks === 0 ? 0 : (100 * count) / tasks);
  const title = options.title ?? summary.experiment.definition.name;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="Helvetica, Arial, sans-serif" role="img" aria-labelledby="title">`,
    `<title id="title">${xmlEscape(title)}: tasks solved by trial, with 95 % bands</title>`,
    `<rect width="${W}" height="${H}" fill="#ffffff"/>`,
    `<text x="${M.left}" y="24" font-size="15" font-weight="600" fill="#0f172a">${xmlEscape(title)}</text>`,
    `<text x="${M.left}" y="40" font-size="11" fill="#475569">${xmlEscape(subtitle(summary))}</text>`,
  ];
  for (const tick of [0, 25, 50, 75, 100]) {
    parts.push(`<line x1="${M.left}" x2="${M.left + plotW}" y1="${y(tick)}" y2="${y(tick)}" stroke="#e2e8f0" stroke-dasharray="3 3"/>`);
    parts.push(`<text x="${M.left - 8}" y="${y(tick) + 4}" font-size="12" text-anchor="end" fill="#334155">${tick}%</text>`);
  }
  for (let trial = 1; trial <= trials; trial += 1) parts.push(`<text x="${x(trial)}" y="${M.top + plotH + 18}" font-size="12" text-anchor="middle" fill="#334155">${trial}</text>`);
  parts.push(
    `<line x1="${M.left}" x2="${M.left}" y1="${M.top}" y2="${M.top + plotH}" stroke="#94a3b8"/>`,
    `<line x1="${M.left}" x2="${M.left + plotW}" y1="${M.top + plotH}" y2="${M.top + plotH}" stroke="#94a3b8"/>`,
    `<text x="${M.left + plotW / 2}" y="${M.top + plotH + 38}" font-size="12" text-anchor="middle" fill="#334155">Trial</text>`,
    `<text transform="translate(16 ${M.top + plotH / 2}) rotate(-90)" font-size="12" text-anchor="middle" fill="#334155">Tasks solved (%, cumulative)</text>`,
  );
  arms.forEach((arm, index) => {
    const style = armStyle(index);
    const reached = Math.min(arm.successByTrial.length, arm.trialsReached ?? Infinity);
    const points = arm.successByTrial.slice(0, reached).map((count, k) => ({ trial: k + 1, percent: pct(count, arm.tasks) }));
    const ci = (arm.successByTrialCI ?? []).slice(0, reached);
    if (ci.length === points.length && ci.length > 0) {
      const upper = ci.map(([, hi], k) => `${x(k + 1)},${y(pct(hi, arm.tasks))}`);
      const lower = ci.map(([lo], k) => `${x(k + 1)},${y(pct(lo, arm.tasks))}`).reverse();
      parts.push(`<polygon class="band" data-arm="${xmlEscape(arm.label)}" points="${[...upper, ...lower].join(" ")}" fill="${style.color}" fill-opacity="0.16" stroke="none"/>`);
    }
    const spans = (options.unrecorded ?? []).filter((span) => span.arm === arm.label);
    const unrecorded = (trial: number) => spans.some((span) => trial >= span.fromTrial && trial <= span.toTrial);
    for (let k = 1; k < points.length; k += 1) {
      const a = points[k - 1]!;
      const b = points[k]!;
      const dashed = unrecorded(b.trial) || unrecorded(a.trial);
      const dash = dashed ? "2 4" : style.dash;
      parts.push(`<line x1="${x(a.trial)}" y1="${y(a.percent)}" x2="${x(b.trial)}" y2="${y(b.percent)}" stroke="${style.color}" stroke-width="2.5"${dash ? ` stroke-dasharray="${dash}"` : ""}${dashed ? ' class="unrecorded"' : ""}/>`);
    }
    for (const point of points) {
      const hollow = unrecorded(point.trial);
      parts.push(`<circle cx="${x(point.trial)}" cy="${y(point.percent)}" r="3.5" fill="${hollow ? "#ffffff" : style.color}" stroke="${style.color}"/>`);
    }
    const last = points.at(-1);
    if (last) {
      parts.push(`<text x="${x(last.trial) + 8}" y="${y(last.percent) + 4 + index * 2}" font-size="12" font-weight="600" fill="${style.color}">${xmlEscape(arm.label)} ${Math.round(last.percent * 10) / 10}%</text>`);
    }
  });
  for (const mark of options.marks ?? []) {
    parts.push(`<circle cx="${x(mark.trial)}" cy="${y(mark.percent)}" r="6" fill="none" stroke="#0f172a" stroke-width="1.5"/>`);
    parts.push(`<text x="${x(mark.trial) - 8}" y="${y(mark.percent) - 10}" font-size="11" text-anchor="end" fill="#0f172a">${xmlEscape(mark.label)}</text>`);
  }
  const notes = [intervalCaption(summary, arms), ...(options.unrecorded ?? []).map((span) => `${span.arm}, dashed and hollow: ${span.note}`)];
  notes.forEach((note, index) => parts.push(`<text x="${M.left}" y="${H - 14 - (notes.length - 1 - index) * 14}" font-size="11" fill="#475569">${xmlEscape(note)}</text>`));
  parts.push("</svg>");
  return `${parts.join("\n")}\n`;
}

/** One arm's point on the cost-effectiveness plot. */
export interface CostPoint {
  label: string;
  /** x: mean cost per run, USD (or tokens per run when nothing is priced, `unit`). */
  cost: number;
  /** y: final success, percent of tasks, and its 95 % interval. */
  percent: number;
  ci: [number, number];
}

/**
 * The cost-effectiveness points: per arm, its mean cost per run (USD; tokens in + out when no arm
 * has a known non-zero cost, e.g. the demo model) against its final success rate and interval.
 */
export function costEffectivenessPoints(summary: Pick<ExperimentSummary, "experiment" | "arms">): { unit: "USD" | "tokens"; points: CostPoint[] } {
  const repeats = repeatsOf(summary.experiment.definition);
  const priced = summary.arms.some((arm) => (arm.costUsd ?? 0) > 0) && summary.arms.every((arm) => arm.costUsd !== null);
  const points = summary.arms.map((arm) => {
    const runs = Math.max(1, arm.tasks * repeats);
    const last = arm.successByTrial.length - 1;
    const [lo, hi] = arm.successByTrialCI?.[last] ?? [arm.successByTrial[last] ?? 0, arm.successByTrial[last] ?? 0];
    const pct = (count: number) => (arm.tasks === 0 ? 0 : (100 * count) / arm.tasks);
    return {
      label: arm.label,
      cost: priced ? (arm.costUsd ?? 0) / runs : (arm.tokens.input + arm.tokens.output) / runs,
      percent: pct(arm.successByTrial[last] ?? 0),
      ci: [pct(lo), pct(hi)] as [number, number],
    };
  });
  return { unit: priced ? "USD" : "tokens", points };
}

/** The cost-effectiveness plot as an SVG document: one point per arm, vertical whiskers = 95 % interval of its final success. */
export function costEffectivenessSvg(summary: Pick<ExperimentSummary, "experiment" | "arms">): string {
  const { unit, points } = costEffectivenessPoints(summary);
  const maxCost = Math.max(...points.map((point) => point.cost), unit === "USD" ? 1e-6 : 1) * 1.15;
  const plotW = W - M.left - M.right;
  const plotH = H - M.top - M.bottom;
  const x = (cost: number) => r1(M.left + (cost / maxCost) * plotW);
  const y = (percent: number) => r1(M.top + (1 - percent / 100) * plotH);
  const xLabel = unit === "USD" ? "Cost per run (USD)" : "Tokens per run (in + out; no price known)";
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="Helvetica, Arial, sans-serif" role="img">`,
    `<title>Final success against ${unit === "USD" ? "cost" : "tokens"} per run, one point per arm</title>`,
    `<rect width="${W}" height="${H}" fill="#ffffff"/>`,
    `<text x="${M.left}" y="24" font-size="15" font-weight="600" fill="#0f172a">${xmlEscape(summary.experiment.definition.name)}: is it worth the extra calls?</text>`,
    `<line x1="${M.left}" x2="${M.left}" y1="${M.top}" y2="${M.top + plotH}" stroke="#94a3b8"/>`,
    `<line x1="${M.left}" x2="${M.left + plotW}" y1="${M.top + plotH}" y2="${M.top + plotH}" stroke="#94a3b8"/>`,
  ];
  for (const tick of [0, 25, 50, 75, 100]) parts.push(`<text x="${M.left - 8}" y="${y(tick) + 4}" font-size="12" text-anchor="end" fill="#334155">${tick}%</text>`);
  for (const share of [0, 0.5, 1]) {
    const value = (maxCost / 1.15) * share;
    parts.push(`<text x="${x(value)}" y="${M.top + plotH + 18}" font-size="12" text-anchor="middle" fill="#334155">${unit === "USD" ? `$${value.toPrecision(2)}` : Math.round(value)}</text>`);
  }
  parts.push(
    `<text x="${M.left + plotW / 2}" y="${M.top + plotH + 38}" font-size="12" text-anchor="middle" fill="#334155">${xmlEscape(xLabel)}</text>`,
    `<text transform="translate(16 ${M.top + plotH / 2}) rotate(-90)" font-size="12" text-anchor="middle" fill="#334155">Solved by the last trial (%)</text>`,
  );
  points.forEach((point, index) => {
    const style = armStyle(index);
    parts.push(
      `<line class="whisker" x1="${x(point.cost)}" x2="${x(point.cost)}" y1="${y(point.ci[0])}" y2="${y(point.ci[1])}" stroke="${style.color}" stroke-width="2"/>`,
      `<circle cx="${x(point.cost)}" cy="${y(point.percent)}" r="5" fill="${style.color}"/>`,
      `<text x="${x(point.cost) + 9}" y="${y(point.percent) + 4}" font-size="12" font-weight="600" fill="${style.color}">${xmlEscape(point.label)} ${Math.round(point.percent * 10) / 10}%</text>`,
    );
  });
  parts.push(`<text x="${M.left}" y="${H - 14}" font-size="11" fill="#475569">Whiskers: 95 % interval of the final success rate.</text>`, "</svg>");
  return `${parts.join("\n")}\n`;
}
