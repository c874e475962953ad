/**
 * `npm run parity:python [-- --humaneval FILE] [--mbpp FILE ...] [--limit N]`
 *
 * Verdict parity of the Python sandbox with CPython, assert by assert (decision 0019;
 * logic in parity-python-core.ts). Datasets: HumanEval (default
 * `../shared/data/humaneval/HumanEval.jsonl.gz`) and every `--mbpp` file in either
 * published shape (`mbpp.jsonl`: test_list / test_setup_code / challenge_test_list;
 * `sanitized-mbpp.json`: test_imports), also taken from `$MBPP_FILES`
 * (colon-separated). Without an MBPP file, the MBPP-py problems of the Reflexion
 * paper's GPT-4 run log (`../shared/data/reflexion/…/simple_mbpp_py/*.jsonl`: the
 * logged solutions, right and wrong, with MultiPL-E's asserts) are checked in the
 * `mbpp.jsonl` shape, converted into a temporary file (see mbppFromReflexionLog).
 * Prints per dataset: problems, asserts, identical verdicts,
 * differences with examples. Exit status 1 when any verdict differs; 0 with a
 * message when the machine has no `python3` (nothing to compare against).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createSandboxPool } from "@/lib/sandbox";
import { checkParity, findPython, formatParityReport } from "./parity-python-core";

function values(name: string): string[] {
  const out: string[] = [];
  process.argv.forEach((arg, index) => {
    if (arg === `--${name}` && process.argv[index + 1]) out.push(process.argv[index + 1]!);
  });
  return out;
}

/** The Reflexion authors' GPT-4 MBPP-py run (397 problems with their logged solutions), when the shared data is present. */
const REFLEXION_MBPP_LOG = "../shared/data/reflexion/noahshinn-reflexion/programming_runs/root/simple_mbpp_py/mbpp-py._simple_1_gpt-4_pass_at_k_1_py.jsonl";

/**
 * Writes the log's problems as an `mbpp.jsonl`-shaped file in the temp folder:
 * `code` = the logged solution, `test_list` = the `assert` lines of MultiPL-E's
 * `check(candidate)` with `candidate` replaced by the entry point. Returns its path.
 */
function mbppFromReflexionLog(log: string): string {
  const rows = fs
    .readFileSync(log, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as { name: string; prompt: string; entry_point: string; test: string; solution: string });
  const out = rows.flatMap((row) => {
    const id = /^mbpp_(\d+)_/.exec(row.name)?.[1];
    const tests = row.test
      .split("\n")
      .filter((line) => line.startsWith("    assert "))
      .map((line) => line.trim().replaceAll("candidate(", `${row.entry_point}(`));
    return id && tests.length > 0 ? [JSON.stringify({ task_id: Number(id), text: row.prompt, code: row.solution, test_list: tests, test_setup_code: "", challenge_test_list: [] })] : [];
  });
  const file = path.join(os.tmpdir(), `parity-mbpp-from-reflexion-log-${process.pid}.jsonl`);
  fs.writeFileSync(file, `${out.join("\n")}\n`);
  return file;
}

async function main(): Promise<void> {
  const python = findPython();
  if (!python) {
    console.log("parity:python skipped: no python3 (3.9+) on this machine to serve as the CPython oracle. Install Python 3, or set PARITY_PYTHON to an interpreter, and run again.");
    return;
  }
  const defaultHumanEval = path.resolve(process.cwd(), "../shared/data/humaneval/HumanEval.jsonl.gz");
  const humaneval = values("humaneval");
  const mbpp = [...values("mbpp"), ...(process.env.MBPP_FILES ?? "").split(":").filter(Boolean)];
  const files = [...(humaneval.length > 0 ? humaneval : fs.existsSync(defaultHumanEval) ? [defaultHumanEval] : []), ...mbpp];
  for (const file of files) {
    if (!fs.existsSync(file)) throw new Error(`No such dataset file: ${file}. Pass an existing HumanEval / MBPP file.`);
  }
  if (mbpp.length === 0) {
    console.log("note: no MBPP file given (MBPP is not in ../shared/data); pass --mbpp mbpp.jsonl --mbpp sanitized-mbpp.json to check it.");
    const log = path.resolve(process.cwd(), REFLEXION_MBPP_LOG);
    if (fs.existsSync(log)) {
      console.log("      meanwhile: the MBPP-py problems of the Reflexion GPT-4 log (its logged solutions, MultiPL-E's asserts), in the mbpp.jsonl shape:");
      files.push(mbppFromReflexionLog(log));
    }
  }
  const limitArg = values("limit")[0];
  const limit = limitArg ? Number(limitArg) : undefined;
  console.log(`CPython oracle: ${python.command} ${python.version}`);
  const pool = createSandboxPool({ size: 2, warm: ["python"] });
  let differences = 0;
  try {
    for (const file of files) {
      const started = performance.now();
      const report = await checkParity(file, pool, { python: python.command, limit });
      differences += report.differences.length;
      console.log(`${formatParityReport({ ...report, dataset: path.relative(process.cwd(), file) })}\n  (${Math.round(performance.now() - started)} ms)`);
    }
  } finally {
    await pool.close();
  }
  process.exitCode = differences === 0 ? 0 : 1;
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 2;
});
