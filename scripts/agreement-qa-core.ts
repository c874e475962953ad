import { spawnSync } from "node:child_process";
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { exactMatch, normalizeAnswer } from "@/lib/environments/qa/exact-match";
import { f1FromNormalized } from "@/lib/environments/qa/f1";
import { parseHotpotQaLog } from "@/lib/importers/hotpotqa-log-parser";
import { parseLoggedAction } from "@/lib/importers/run-log-builder";

/**
 * The core of `npm run agreement:qa` (decision 0020): every
 * (prediction, gold) pair of the paper's HotpotQA logs, scored by our EM and F1
 * (lib/environments/qa) and by a Python re-implementation of the official
 * `hotpot_evaluate_v1.py` functions (scripts/agreement-qa-official.py, run by the
 * machine's `python3`), and the differences, each with the documented deviation
 * that explains it — or none, which fails the check.
 */

/** One answered trial of a log: the `Finish[...]` argument and the logged key. */
export interface QaPair {
  /** Log file, relative to the logs' root. */
  file: string;
  /** 1-based line of the block in the file. */
  line: number;
  trial: number;
  prediction: string;
  gold: string;
  /** The log's own verdict: true for a block in the CORRECT group. */
  loggedCorrect: boolean;
}

/** What the official functions answer for one pair (the Python script's output line). */
export interface OfficialScores {
  em: boolean;
  f1: number;
  precision: number;
  recall: number;
  normalizedPrediction: string;
  normalizedGold: string;
}

/** A pair on which our figures and the official ones differ. */
export interface Difference {
  pair: QaPair;
  metric: "em" | "f1";
  ours: boolean | number;
  official: boolean | number;
  /** The documented deviation that explains it; null when none does (the check fails). */
  explanation: string | null;
}

/** The figures the script prints. */
export interface AgreementReport {
  files: number;
  pairs: number;
  /** Blocks that ended without `Finish[...]` (halted): no prediction, so no pair. */
  unanswered: number;
  emAgreements: number;
  f1Agreements: number;
  /** Pairs whose official EM equals the log's own CORRECT/INCORRECT group (Reflexion's evaluator, as run). */
  loggedAgreements: number;
  differences: Difference[];
}

/**
 * Deviation of decision 0004: our EM never counts an empty normalised prediction as
 * correct, and compares a gold answer that normalises to nothing ("A", "The The")
 * without the article step (lib/environments/qa/exact-match.ts `compareAnswers`).
 */
export const EMPTY_PREDICTION_DEVIATION =
  "an empty prediction is never correct (decision 0004): the official script counts a prediction that normalises to nothing equal to a gold answer that does too, ours compares such a gold answer without the article step";

/** Our normaliser applies Unicode NFC first; the official one does not. */
export const NFC_DEVIATION = "our normalisation applies Unicode NFC first: the two answers differ only in composed vs decomposed characters";

/** The `100_questions_*_trials.txt` files under `root`, sorted. */
export function findHotpotQaLogs(root: string): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/^100_questions_\d+_trials\.txt$/.test(name)) found.push(path);
    }
  };
  walk(root);
  return found;
}

/**
 * The pairs of one log's content, read with the importer's parser
 * (lib/importers/hotpotqa-log-parser.ts): the last `Finish[...]` of each block and
 * its `Correct answer:` key. Blocks without a Finish are counted as unanswered.
 */
export function pairsOfLog(file: string, content: string): { pairs: QaPair[]; unanswered: number } {
  const log = parseHotpotQaLog(file, content);
  const pairs: QaPair[] = [];
  let unanswered = 0;
  for (const trial of log.trials) {
    for (const block of trial.blocks) {
      let prediction: string | null = null;
      for (const step of block.steps) {
        const parsed = parseLoggedAction(step.action);
        if (parsed !== null && parsed.type.toLowerCase() === "finish") prediction = parsed.argument;
      }
      if (prediction === null) unanswered += 1;
      else pairs.push({ file, line: block.line, trial: trial.trial, prediction, gold: block.correctAnswer, loggedCorrect: block.group === "CORRECT" });
    }
  }
  return { pairs, unanswered };
}

/** Path of the Python oracle next to this file. */
export const OFFICIAL_SCRIPT = fileURLToPath(new URL("./agreement-qa-official.py", import.meta.url));

/**
 * Scores the pairs with the Python oracle (one `python3` process for all).
 *
 * @throws Error naming what to install when `python3` is missing or fails.
 */
export function officialScores(pairs: readonly Pick<QaPair, "prediction" | "gold">[], python = "python3"): OfficialScores[] {
  const input = pairs.map((pair) => JSON.stringify({ prediction: pair.prediction, gold: pair.gold })).join("\n");
  const result = spawnSync(python, [OFFICIAL_SCRIPT], { input, encoding: "utf8", maxBuffer: 256 * 1024 * 1024 });
  if (result.error) throw new Error(`could not run ${python} (${result.error.message}): install Python 3 or put it on PATH; it is the official-normalisation oracle`);
  if (result.status !== 0) throw new Error(`${python} ${OFFICIAL_SCRIPT} failed (exit ${result.status}): ${result.stderr.trim()}`);
  const lines = result.stdout.split("\n").filter((line) => line.trim() !== "");
  if (lines.length !== pairs.length) throw new Error(`the oracle answered ${lines.length} lines for ${pairs.length} pairs`);
  return lines.map((line) => JSON.parse(line) as OfficialScores);
}

/** The deviation explaining an EM difference, or null. */
function explainEm(ours: boolean, official: OfficialScores, normalizedPrediction: string): string | null {
  if (!ours && official.em && official.normalizedGold === "" && (normalizedPrediction === "" || official.normalizedPrediction === "")) return EMPTY_PREDICTION_DEVIATION;
  const differOnlyInComposition =
    official.normalizedPrediction !== official.normalizedGold && official.normalizedPrediction.normalize("NFC") === official.normalizedGold.normalize("NFC");
  if (ours && !official.em && differOnlyInComposition) return NFC_DEVIATION;
  return null;
}

/**
 * Compares our EM and F1 with the official ones, pair by pair. F1 must agree
 * bit for bit (same operations in the same order), EM exactly.
 */
export function compareScores(pairs: readonly QaPair[], official: readonly OfficialScores[], files: number, unanswered: number): AgreementReport {
  const differences: Difference[] = [];
  let emAgreements = 0;
  let f1Agreements = 0;
  let loggedAgreements = 0;
  pairs.forEach((pair, index) => {
    const theirs = official[index];
    if (theirs === undefined) throw new Error(`no official score for pair ${index}`);
    const normalizedPrediction = normalizeAnswer(pair.prediction);
    const em = exactMatch(pair.prediction, pair.gold);
    const { f1 } = f1FromNormalized(normalizedPrediction, normalizeAnswer(pair.gold));
    if (em === theirs.em) emAgreements += 1;
    else differences.push({ pair, metric: "em", ours: em, official: theirs.em, explanation: explainEm(em, theirs, normalizedPrediction) });
    if (f1 === theirs.f1) f1Agreements += 1;
    else differences.push({ pair, metric: "f1", ours: f1, official: theirs.f1, explanation: null });
    if (theirs.em === pair.loggedCorrect) loggedAgreements += 1;
  });
  return { files, pairs: pairs.length, unanswered, emAgreements, f1Agreements, loggedAgreements, differences };
}

/** Collects every pair under `root` and compares (reads the files, runs python3 once). */
export function checkQaAgreement(root: string, python = "python3"): AgreementReport {
  const files = findHotpotQaLogs(root);
  if (files.length === 0) throw new Error(`no 100_questions_*_trials.txt under ${root}: pass the Reflexion repository's hotpotqa_runs directory`);
  const pairs: QaPair[] = [];
  let unanswered = 0;
  for (const path of files) {
    const read = pairsOfLog(relative(root, path), readFileSync(path, "utf8"));
    pairs.push(...read.pairs);
    unanswered += read.unanswered;
  }
  return compareScores(pairs, officialScores(pairs, python), files.length, unanswered);
}

/** Percentage with one decimal (`99.8 %`). */
function percent(part: number, whole: number): string {
  return whole === 0 ? "n/a" : `${((100 * part) / whole).toFixed(1)} %`;
}

/** The report as printed: figures, then every difference with its explanation. */
export function formatAgreement(report: AgreementReport): string {
  const lines = [
    `HotpotQA logs: ${report.files} files, ${report.pairs} (prediction, gold) pairs, ${report.unanswered} blocks without Finish[...] (no pair)`,
    `EM agreement with the official normalisation: ${report.emAgreements}/${report.pairs} (${percent(report.emAgreements, report.pairs)})`,
    `F1 agreement (bit for bit): ${report.f1Agreements}/${report.pairs} (${percent(report.f1Agreements, report.pairs)})`,
    `Official EM vs the log's own CORRECT/INCORRECT: ${report.loggedAgreements}/${report.pairs} (${percent(report.loggedAgreements, report.pairs)})`,
  ];
  const unexplained = report.differences.filter((difference) => difference.explanation === null).length;
  lines.push(`Differences: ${report.differences.length} (${report.differences.length - unexplained} explained by a documented deviation, ${unexplained} unexplained)`);
  for (const difference of report.differences) {
    const { pair } = difference;
    lines.push(
      `  ${pair.file}:${pair.line} trial ${pair.trial} ${difference.metric}: ours ${String(difference.ours)}, official ${String(difference.official)}; prediction ${JSON.stringify(pair.prediction)}, gold ${JSON.stringify(pair.gold)} — ${difference.explanation ?? "UNEXPLAINED"}`,
    );
  }
  return lines.join("\n");
}
