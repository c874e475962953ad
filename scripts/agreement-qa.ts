/**
 * `npm run agreement:qa [-- <hotpotqa_runs dir>]`: our QA EM and F1 against the
 * official `hotpot_evaluate_v1.py` normalisation (a Python re-implementation run
 * by `python3`) on every (prediction, gold) pair of the paper's HotpotQA logs.
 * Exits 1 when a difference is not explained by a documented deviation, 2 when
 * it cannot run (no logs, no python3). See scripts/agreement-qa-core.ts.
 */
import { resolve } from "node:path";
import { checkQaAgreement, formatAgreement } from "./agreement-qa-core";

const DEFAULT_ROOT = "../shared/data/reflexion/noahshinn-reflexion/hotpotqa_runs/root";

function main(): number {
  const root = resolve(process.argv[2] ?? DEFAULT_ROOT);
  try {
    const report = checkQaAgreement(root, process.env.PYTHON ?? "python3");
    console.log(formatAgreement(report));
    return report.differences.some((difference) => difference.explanation === null) ? 1 : 0;
  } catch (error) {
    console.error(`agreement:qa: ${error instanceof Error ? error.message : String(error)}`);
    return 2;
  }
}

process.exitCode = main();
