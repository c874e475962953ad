import { InvalidArgumentError, type Command } from "commander";
import { METRIC_LABEL, verdictText } from "@/lib/domain/experiment-tables";
import type { PairedComparison } from "@/lib/domain/experiment-tests";
import { pValueText } from "@/lib/domain/stats/p-value";
import { cliContext } from "./context";

/** `--temperature`: a number in [0, 2]. @throws InvalidArgumentError otherwise. */
export function temperatureArg(value: string): number {
  const parsed = Number(value);
  if (value.trim() === "" || !Number.isFinite(parsed) || parsed < 0 || parsed > 2) throw new InvalidArgumentError("a temperature from 0 to 2, e.g. 0.7");
  return parsed;
}

/** An effect and its interval in the metric's units: points of success rate, points of AUC, or USD. */
function effectText(test: PairedComparison): string {
  const [lo, hi] = test.ci;
  if (test.metric === "cost") return `Δ ${test.effect.toFixed(4)} USD per run [${lo.toFixed(4)}, ${hi.toFixed(4)}]`;
  const points = (value: number) => `${value >= 0 ? "+" : ""}${(100 * value).toFixed(1)}`;
  return `Δ ${points(test.effect)} pts [${points(lo)}, ${points(hi)}]`;
}

/**
 * People's lines for paired tests, one per test:
 * `none vs reflexion — final success: exact McNemar, n = 36, discordant 0 vs 27, p < 0.001, Δ −75.0 pts [−88.9, −61.1] → differs`.
 */
export function describeTests(tests: readonly PairedComparison[]): string[] {
  return tests.map((test) => {
    const discordant = test.aOnly === undefined ? "" : `, discordant ${test.aOnly} vs ${test.bOnly}`;
    return `${test.a} vs ${test.b} — ${METRIC_LABEL[test.metric]}: ${test.method}, n = ${test.n}${discordant}, ${pValueText(test.p)}, ${effectText(test)} → ${verdictText(test)}`;
  });
}

/** `cli experiment compare --id <id> --a <label> --b <label> [--json]`: the paired tests of two arms. */
export function registerCompareCommand(experiment: Command): void {
  experiment
    .command("compare")
    .description(
      "Paired tests of two arms on the same tasks and repetitions: exact McNemar on final success, a paired sign-flip test with a paired-bootstrap interval on the area under the success-by-trial curve and on cost (a difference only when p < 0.05 and the 95 % interval excludes 0).",
    )
    .requiredOption("--id <id>", "experiment id")
    .requiredOption("--a <label>", "first arm's label")
    .requiredOption("--b <label>", "second arm's label")
    .option("--json", "one line: {type: experiment-compare, experimentId, tests: [{a, b, metric, method, n, p, effect, ci, …}]}")
    .action(async (options: { id: string; a: string; b: string; json?: boolean }) => {
      const context = cliContext();
      try {
        const tests = await context.experiments.compare(options.id, options.a, options.b);
        if (options.json) process.stdout.write(`${JSON.stringify({ type: "experiment-compare", experimentId: options.id, tests })}\n`);
        else process.stdout.write(`${describeTests(tests).join("\n")}\n`);
      } finally {
        await context.close();
      }
    });
}
