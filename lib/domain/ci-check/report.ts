import { percent, type ArmRow, type AssertionResult } from "./evaluate";
import { DEMO_MODEL_NOTE, isDemoModel } from "../model-id";

/**
 * What `cli check` prints and writes (pure): the Markdown summary (for a terminal and a pull-request
 * comment) and the JUnit XML report (one testsuite, one testcase per assertion, a `<failure>` with
 * the message; valid against the Jenkins xUnit plugin's junit-10.xsd, tests/fixtures/junit).
 */

/** Everything a report says about one check. */
export interface CheckReport {
  name: string;
  assertions: AssertionResult[];
  arms: ArmRow[];
  /** Each task set's experiment (its results are in the UI and `cli experiment show`). */
  experiments: Array<{ taskSet: string; experimentId: string }>;
  /** Model calls this check sent to a provider (`live`) and replayed from the response cache (`cached`: no call made). */
  calls: { live: number; cached: number };
  /** Wall time of the check, seconds. */
  seconds: number;
  /** ISO-8601 start time. */
  startedAt: string;
}

/** True when every assertion passed. */
export function checkPassed(report: Pick<CheckReport, "assertions">): boolean {
  return report.assertions.every((assertion) => assertion.passed);
}

/** A Markdown table cell: pipes escaped, line breaks as spaces. */
function cell(text: string): string {
  return text.replace(/\|/g, "\\|").replace(/\s*\n\s*/g, " ");
}

function measured(result: AssertionResult): string {
  if (result.value === null) return "—";
  if (result.metric === "cost-per-solved") return `$${result.value.toFixed(4)}`;
  const signed = result.metric === "paired" ? `${result.value >= 0 ? "+" : ""}${(100 * result.value).toFixed(1)} pts` : percent(result.value);
  const interval = result.interval ? ` [${format(result.metric, result.interval[0])}, ${format(result.metric, result.interval[1])}]` : "";
  return `${signed}${interval}`;
}

function format(metric: AssertionResult["metric"], value: number): string {
  return metric === "paired" ? `${(100 * value).toFixed(1)}` : percent(value);
}

/**
 * The Markdown summary: a heading with the verdict, one table row per assertion (value with its 95 %
 * interval, threshold, pass/fail, why), one row per arm (final success with its 95 % interval, model
 * calls, cost), the experiments, and the demo model's label when an arm used it.
 */
export function checkMarkdown(report: CheckReport): string {
  const failed = report.assertions.filter((assertion) => !assertion.passed).length;
  const verdict = failed === 0 ? `✅ all ${report.assertions.length} assertions passed` : `❌ ${failed} of ${report.assertions.length} assertions failed`;
  const lines = [`## Template check: ${report.name} — ${verdict}`, "", "| Result | Assertion | Value [95 % interval] | Threshold | Details |", "|---|---|---|---|---|"];
  for (const result of report.assertions) {
    lines.push(`| ${result.passed ? "✅ pass" : "❌ fail"} | ${cell(result.name)} | ${cell(measured(result))} | ${cell(result.threshold)} | ${cell(result.message)} |`);
  }
  lines.push("", "| Task set | Arm | Strategy | Model | Runs | Final success [95 % interval] | Model calls (live / cached) | Cost |", "|---|---|---|---|---|---|---|---|");
  for (const arm of report.arms) {
    const interval = arm.interval ? ` [${percent(arm.interval[0])}, ${percent(arm.interval[1])}]` : "";
    const cost = arm.costUsd === null ? "unknown" : `$${arm.costUsd.toFixed(4)}`;
    lines.push(`| ${cell(arm.taskSet)} | ${cell(arm.label)} | ${arm.strategy} | ${cell(arm.modelId)} | ${arm.runs} | ${percent(arm.finalSuccess)}${interval} | ${arm.calls.live} / ${arm.calls.cached} | ${cost} |`);
  }
  lines.push("");
  const methods = new Set(report.arms.map((arm) => arm.intervalMethod));
  if (methods.has("bootstrap")) lines.push("Intervals: 95 % bootstrap over tasks and repetitions; paired: exact McNemar test on final success, interval of the difference by paired bootstrap.");
  else lines.push("Intervals: 95 % Wilson score intervals; paired: exact McNemar test on final success, interval of the difference by paired bootstrap.");
  const experiments = report.experiments.map((entry) => `${entry.taskSet}: ${entry.experimentId}`).join("; ");
  lines.push(`Experiments: ${experiments}. Model calls this check: ${report.calls.live} sent to the model, ${report.calls.cached} replayed from the response cache. ${report.seconds.toFixed(1)} s.`);
  if (report.arms.some((arm) => isDemoModel(arm.modelId))) {
    lines.push("", `_The demo model is ${DEMO_MODEL_NOTE}: it shows how the check works offline, not how a real model would do._`);
  }
  return `${lines.join("\n")}\n`;
}

/** XML-escapes text for an attribute or element, dropping characters XML 1.0 cannot hold. */
export function xmlEscape(text: string): string {
  return text
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}

/**
 * The JUnit XML report: `<testsuite name tests failures errors="0" skipped="0" time timestamp>`
 * with the experiments as `<properties>`, and per assertion a `<testcase name classname="reflexion.check.<task set>">`
 * holding `<failure message type="AssertionFailed">` when it failed and its message as `<system-out>` when it passed.
 */
export function checkJunitXml(report: CheckReport): string {
  const failures = report.assertions.filter((assertion) => !assertion.passed).length;
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuite name="${xmlEscape(`reflexion check: ${report.name}`)}" tests="${report.assertions.length}" failures="${failures}" errors="0" skipped="0" time="${report.seconds.toFixed(3)}" timestamp="${xmlEscape(report.startedAt.replace(/\.\d+Z$/, ""))}">`,
    "  <properties>",
    ...report.experiments.map((entry) => `    <property name="${xmlEscape(`experiment.${entry.taskSet}`)}" value="${xmlEscape(entry.experimentId)}"/>`),
    `    <property name="model-calls.live" value="${report.calls.live}"/>`,
    `    <property name="model-calls.cached" value="${report.calls.cached}"/>`,
    "  </properties>",
  ];
  for (const result of report.assertions) {
    lines.push(`  <testcase name="${xmlEscape(result.name)}" classname="${xmlEscape(`reflexion.check.${result.taskSet}`)}" time="0">`);
    if (result.passed) lines.push(`    <system-out>${xmlEscape(result.message)}</system-out>`);
    else lines.push(`    <failure message="${xmlEscape(result.message)}" type="AssertionFailed">${xmlEscape(`${result.name}: ${result.message}`)}</failure>`);
    lines.push("  </testcase>");
  }
  lines.push("</testsuite>");
  return `${lines.join("\n")}\n`;
}
