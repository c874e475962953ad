import { AppError } from "@/lib/domain/errors";
import type { LogSummaryLine } from "@/lib/domain/provenance";

/**
 * Parser of the Reflexion authors' HotpotQA text logs
 * (noahshinn/reflexion `hotpotqa_runs/root/**\/100_questions_*_trials.txt`,
 * text-davinci-003, May 2023; shared/data/reflexion/SOURCES.md, reference §2.10).
 *
 * Layout, per trial:
 * ```
 * ########################################
 * BEGIN TRIAL 1
 * Trial summary: Correct: 32, Incorrect: 51, Halted: 17      (CoT logs: no Halted)
 * #######################################
 * ------------- BEGIN CORRECT AGENTS -------------            (then INCORRECT, HALTED)
 * <block> <block> …
 * ```
 * A block is one agent's prompt minus the few-shot examples and ends with
 * `Correct answer: <key>`. ReAct blocks: `Question: …` (in later trials with the
 * reflection header glued to the question line), optionally `Reflections:` with
 * `- ` bullets, then `Thought n:` / `Action n:` / `Observation n:` lines. CoT
 * blocks: `Context: …` (paragraphs; in the CoT(GT) + Reflexion log the question
 * is not printed, or only as a dangling `Question:`), `Question: …`, one
 * `Thought:` / `Action:` / `Observation:` and a `Reflections: …` section after
 * the trajectory (reflections one per line; for the EPM logs the previous
 * trial's trajectory). Any line that is not a label continues the field before
 * it (observations and contexts span lines).
 */

/** The agent groups a trial lists its blocks under. */
export type LoggedGroup = "CORRECT" | "INCORRECT" | "HALTED";

/** One step as printed. `step` is null for the CoT logs' unnumbered labels. */
export interface ParsedHotpotStep {
  /** 1-based line of the step's first line in the file. */
  line: number;
  step: number | null;
  thought: string;
  action: string;
  observation: string;
}

/** One logged agent block. */
export interface ParsedHotpotBlock {
  /** 1-based line where the block starts. */
  line: number;
  group: LoggedGroup;
  /** The question with the reflection header removed; null when the log does not print it. */
  question: string | null;
  /** The `Context:` text (CoT logs), paragraphs separated by blank lines; null when absent. */
  context: string | null;
  steps: ParsedHotpotStep[];
  /**
   * The memory printed for this trial: one string per reflection; null when the
   * block has no `Reflections:` section, [] when it is empty.
   */
  memory: string[] | null;
  /** True when the `Reflections:` section held a trajectory (the EPM logs' last trial) rather than reflections. */
  memoryIsLastTrial: boolean;
  /** The `Correct answer:` key as logged. */
  correctAnswer: string;
}

/** One `BEGIN TRIAL n` section. */
export interface ParsedHotpotTrial {
  trial: number;
  /** 1-based line of the `BEGIN TRIAL` banner. */
  line: number;
  summary: LogSummaryLine & { hasHalted: boolean };
  blocks: ParsedHotpotBlock[];
}

/** A parsed HotpotQA log. */
export interface ParsedHotpotLog {
  file: string;
  /** True when the blocks are ReAct trajectories (numbered `Thought n:`), false for CoT. */
  react: boolean;
  trials: ParsedHotpotTrial[];
}

const TRIAL_BANNER = /^BEGIN TRIAL (\d+)\s*$/;
const SUMMARY = /^Trial summary: Correct: (\d+), Incorrect: (\d+)(?:, Halted: (\d+))?\s*$/;
const GROUP = /^-+ BEGIN (CORRECT|INCORRECT|HALTED) AGENTS -+\s*$/;
const STEP_LABEL = /^(Thought|Action|Observation)(?: (\d+))?:\s?(.*)$/;
/** The reflection header the older ReAct template glued to the question line. */
const REFLECTION_HEADER = "You have attempted to answer following question before and failed.";

type Field = "context" | "question" | "thought" | "action" | "observation" | "memory" | null;

interface OpenBlock {
  block: ParsedHotpotBlock;
  field: Field;
  memoryLines: string[];
  /** Steps seen after `Reflections:` (EPM: the previous trial), kept apart from the trajectory. */
  afterMemory: boolean;
}

/** Throws the error every parse failure raises: file, line, what is wrong and what to do. */
function fail(file: string, line: number, what: string): never {
  throw new AppError("invalid-dataset", `${file}, line ${line}: ${what} Nothing was imported from this file; check that it is a complete HotpotQA run log (100_questions_*_trials.txt) of the Reflexion repository.`);
}

function appendText(current: string, text: string): string {
  return current === "" ? text : `${current}\n${text}`;
}

/** Splits a `Reflections:` section into reflections: `- ` bullets when there are any, else one per non-empty line. */
function splitMemory(lines: readonly string[]): string[] {
  const nonEmpty = lines.map((line) => line.trimEnd()).filter((line) => line.trim() !== "");
  if (nonEmpty.some((line) => line.startsWith("- "))) {
    const items: string[] = [];
    for (const line of nonEmpty) {
      if (line.startsWith("- ")) items.push(line.slice(2).trim());
      else if (items.length > 0) items[items.length - 1] = `${items[items.length - 1]} ${line.trim()}`;
      else items.push(line.trim());
    }
    return items;
  }
  return nonEmpty.map((line) => line.trim());
}

function closeBlock(open: OpenBlock): ParsedHotpotBlock {
  const { block } = open;
  if (block.memory !== null && !block.memoryIsLastTrial) block.memory = splitMemory(open.memoryLines);
  if (block.context !== null) block.context = block.context.trim();
  for (const step of block.steps) step.observation = step.observation.trim();
  return block;
}

/**
 * Parses one HotpotQA log. `file` names it in errors.
 * @throws AppError("invalid-dataset") naming the file and line of the first problem:
 *   no trial banner, a missing or malformed summary line, trials out of order, a
 *   block outside a group, or a block without its `Correct answer:` line (a truncated file).
 */
export function parseHotpotQaLog(file: string, content: string): ParsedHotpotLog {
  const lines = content.split(/\r?\n/);
  const trials: ParsedHotpotTrial[] = [];
  let group: LoggedGroup | null = null;
  let open: OpenBlock | null = null;
  let react = false;
  let awaitingSummary: number | null = null;

  lines.forEach((raw, index) => {
    const lineNo = index + 1;
    const line = raw.replace(/\s+$/, "");
    const banner = TRIAL_BANNER.exec(line);
    if (banner || GROUP.test(line)) {
      if (open) fail(file, open.block.line, `the block starting here has no "Correct answer:" line before line ${lineNo} (the log looks cut or edited).`);
    }
    if (banner) {
      const trial = Number(banner[1]);
      const expected = trials.length + 1;
      if (trial !== expected) fail(file, lineNo, `expected "BEGIN TRIAL ${expected}", found "BEGIN TRIAL ${trial}".`);
      trials.push({ trial, line: lineNo, summary: { trial, correct: 0, incorrect: 0, halted: 0, hasHalted: false }, blocks: [] });
      group = null;
      awaitingSummary = lineNo;
      return;
    }
    if (awaitingSummary !== null) {
      if (line.trim() === "") return;
      const summary = SUMMARY.exec(line);
      if (!summary) fail(file, lineNo, `expected the trial summary line "Trial summary: Correct: N, Incorrect: N[, Halted: N]" after BEGIN TRIAL (line ${awaitingSummary}), found "${line.slice(0, 80)}".`);
      const current = trials[trials.length - 1];
      if (current) {
        current.summary = {
          trial: current.trial,
          correct: Number(summary[1]),
          incorrect: Number(summary[2]),
          halted: summary[3] === undefined ? 0 : Number(summary[3]),
          hasHalted: summary[3] !== undefined,
        };
      }
      awaitingSummary = null;
      return;
    }
    const groupMatch = GROUP.exec(line);
    if (groupMatch) {
      if (trials.length === 0) fail(file, lineNo, "an agent group before any \"BEGIN TRIAL\" banner.");
      group = groupMatch[1] as LoggedGroup;
      return;
    }
    if (/^#+$/.test(line)) return;

    if (!open) {
      if (line.trim() === "") return;
      if (!line.startsWith("Question:") && !line.startsWith("Context:")) {
        fail(file, lineNo, `expected a block starting with "Question:" or "Context:", found "${line.slice(0, 80)}".`);
      }
      if (trials.length === 0) fail(file, lineNo, "a block before any \"BEGIN TRIAL\" banner: this does not look like a HotpotQA run log.");
      if (group === null) fail(file, lineNo, "a block before any \"BEGIN … AGENTS\" group line.");
      open = {
        block: { line: lineNo, group, question: null, context: null, steps: [], memory: null, memoryIsLastTrial: false, correctAnswer: "" },
        field: null,
        memoryLines: [],
        afterMemory: false,
      };
    }
    const current: OpenBlock = open;
    const block = current.block;

    if (line.startsWith("Correct answer:")) {
      block.correctAnswer = line.slice("Correct answer:".length).trim();
      trials[trials.length - 1]?.blocks.push(closeBlock(current));
      open = null;
      return;
    }
    if (line.startsWith("Context:")) {
      block.context = line.slice("Context:".length).trim();
      current.field = "context";
      return;
    }
    if (line.startsWith("Question:")) {
      setQuestion(block, line.slice("Question:".length));
      current.field = "question";
      return;
    }
    if (line.startsWith("Reflections:")) {
      block.memory = [];
      current.afterMemory = block.steps.length > 0;
      current.memoryLines = [line.slice("Reflections:".length)];
      current.field = "memory";
      return;
    }
    const label = STEP_LABEL.exec(line);
    if (label) {
      const kind = label[1] as "Thought" | "Action" | "Observation";
      const number = label[2] === undefined ? null : Number(label[2]);
      if (number !== null) react = true;
      const text = label[3] ?? "";
      if (current.afterMemory) {
        // EPM logs: the previous trial's trajectory printed as memory.
        block.memoryIsLastTrial = true;
        block.memory = [];
        current.field = "memory";
        return;
      }
      let step = block.steps[block.steps.length - 1];
      if (kind === "Thought" || !step || (number !== null && step.step !== number) || (kind === "Action" && step.action !== "")) {
        step = { line: lineNo, step: number, thought: "", action: "", observation: "" };
        block.steps.push(step);
      }
      if (kind === "Thought") step.thought = text;
      if (kind === "Action") step.action = text;
      if (kind === "Observation") step.observation = text;
      current.field = kind === "Thought" ? "thought" : kind === "Action" ? "action" : "observation";
      return;
    }
    // A continuation line of the field before it.
    switch (current.field) {
      case "context": {
        // The CoT(GT) + Reflexion log glues a (usually empty) `Question:` to the last context line.
        const glued = /^(.*?)\s*Question:\s*(.*)$/.exec(line);
        if (glued) {
          block.context = appendText(block.context ?? "", glued[1] ?? "");
          setQuestion(block, glued[2] ?? "");
          current.field = "question";
        } else {
          block.context = appendText(block.context ?? "", line);
        }
        return;
      }
      case "question":
        if (line.trim() !== "") setQuestion(block, `${block.question ?? ""} ${line}`);
        return;
      case "memory":
        if (!block.memoryIsLastTrial) current.memoryLines.push(line);
        return;
      case "thought":
      case "action":
      case "observation": {
        const step = block.steps[block.steps.length - 1];
        if (step && line.trim() !== "") step[current.field] = appendText(step[current.field], line);
        return;
      }
      default:
        return;
    }
  });

  if (open !== null) {
    const unfinished: OpenBlock = open;
    fail(file, unfinished.block.line, `the file ends inside the block starting here (no "Correct answer:" line): the log is truncated.`);
  }
  if (awaitingSummary !== null) fail(file, awaitingSummary, "the file ends right after a \"BEGIN TRIAL\" banner: the log is truncated.");
  if (trials.length === 0) fail(file, 1, "no \"BEGIN TRIAL 1\" banner: this is not a HotpotQA run log.");
  const empty = trials.find((trial) => trial.blocks.length === 0);
  if (empty) fail(file, empty.line, `trial ${empty.trial} lists no agent blocks: the log is truncated or edited.`);
  return { file, react, trials };
}

function setQuestion(block: ParsedHotpotBlock, text: string): void {
  const header = text.indexOf(REFLECTION_HEADER);
  const question = (header >= 0 ? text.slice(0, header) : text).replace(/\s+/g, " ").trim();
  block.question = question === "" ? null : question;
}
