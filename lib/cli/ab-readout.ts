import type { AbResult } from "@/lib/domain/template-library";

/**
 * The lines `cli templates ab` prints for an A/B read-out, as the results page shows it
 * (components/templates/ab-result.tsx): the arms and their versions, the paired test, then for
 * every task where the arms differ each arm's outcome and its reflections in trial order
 * ("after trial k: …"), so what each template made the Self-Reflection write can be read side by side.
 */
export function abReadoutLines(result: AbResult): string[] {
  const test = result.pairedTest;
  const lines = [
    `${result.role}: ${result.armA.label} (${result.armA.versionId}) vs ${result.armB.label} (${result.armB.versionId})`,
    `n = ${test.n} tasks; solved by ${result.armA.label} only ${test.aOnly}, by ${result.armB.label} only ${test.bOnly}; p = ${test.pValue.toPrecision(3)} (${test.method})`,
  ];
  if (result.differingTasks.length === 0) {
    lines.push("No task differs between the arms: both solved (or failed) the same tasks at the same trials.");
    return lines;
  }
  const at = (trial: number | null) => (trial === null ? "unsolved" : `solved at trial ${trial}`);
  for (const task of result.differingTasks) {
    lines.push(`  ${task.taskId}: ${result.armA.label} ${at(task.a.solvedAtTrial)}, ${result.armB.label} ${at(task.b.solvedAtTrial)}`);
    for (const [label, outcome] of [
      [result.armA.label, task.a],
      [result.armB.label, task.b],
    ] as const) {
      if (outcome.reflections.length === 0) {
        lines.push(`    ${label} reflections: none (solved before any was needed, or the strategy writes none) — run ${outcome.runId}`);
        continue;
      }
      lines.push(`    ${label} reflections (run ${outcome.runId}):`);
      outcome.reflections.forEach((text, index) => lines.push(`      after trial ${index + 1}: ${text.replace(/\s*\n\s*/g, " ")}`));
    }
  }
  return lines;
}
