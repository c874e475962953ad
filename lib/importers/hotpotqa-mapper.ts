import { strategyBehaviour } from "@/lib/domain/strategies";
import { createHash } from "node:crypto";
import { runConfigSchema, type RunConfig } from "@/lib/domain/config";
import type { Provenance } from "@/lib/domain/provenance";
import { environmentEntry } from "@/lib/environments/registry";
import { exactMatch, type QaTask } from "@/lib/environments/qa";
import { f1Score } from "@/lib/environments/qa/f1";
import type { ImportedRunInput } from "@/lib/db/store";
import type { LogDescriptor } from "./log-catalog";
import type { LoggedGroup, ParsedHotpotBlock, ParsedHotpotLog } from "./hotpotqa-log-parser";
import { provenanceOf } from "./provenance-of";
import { parseLoggedAction, RunLogBuilder } from "./run-log-builder";
import type { MappedLog, TaskSetRef } from "./types";

/**
 * Maps a parsed HotpotQA log (hotpotqa-log-parser.ts) to one run per question
 * (docs/decisions/0015):
 *
 * - each block is matched to a task of the 100-question sample
 *   (shared/data/hotpotqa, the set the authors ran) by its question, or by its
 *   gold paragraphs where the log does not print the question; a question not
 *   in the sample gets a task built from the log (question, key, printed
 *   context) and a warning;
 * - a question listed twice in a trial (the ReAct logs list some agents under
 *   INCORRECT and HALTED) counts once, in the first group it is listed in, and
 *   the warnings say so; a question missing from a trial gets an empty failed
 *   trial and a warning;
 * - each trial of a question becomes a trial of its run, with its steps and the
 *   verdict as logged (exact match against the logged key, oracle); the run
 *   stops at its first success, as the authors' loop did;
 * - the reflections are the new items of the next trial's printed memory;
 * - each trial's summary line is checked against the blocks; disagreements go
 *   to the warnings and both figures are kept (`provenance.logSummary`).
 */

/** Normalised question text for matching: collapsed whitespace, trimmed. */
function questionKey(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

function paragraphText(sentences: readonly string[]): string {
  return sentences.join("").trim();
}

/** Finds sample tasks by question and by paragraph text. */
class SampleIndex {
  private readonly byQuestion = new Map<string, QaTask>();
  private readonly byParagraph = new Map<string, Set<string>>();
  private readonly byId = new Map<string, QaTask>();

  constructor(tasks: readonly QaTask[]) {
    for (const task of tasks) {
      this.byId.set(task.id, task);
      this.byQuestion.set(questionKey(task.question), task);
      for (const paragraph of task.paragraphs) {
        const key = paragraphText(paragraph.sentences);
        const ids = this.byParagraph.get(key) ?? new Set<string>();
        ids.add(task.id);
        this.byParagraph.set(key, ids);
      }
    }
  }

  find(block: ParsedHotpotBlock): QaTask | null {
    if (block.question !== null) {
      const found = this.byQuestion.get(questionKey(block.question));
      if (found) return found;
    }
    if (block.context) {
      let candidates: string[] | null = null;
      for (const paragraph of block.context.split(/\n\s*\n/)) {
        const ids = this.byParagraph.get(paragraph.trim());
        if (!ids) continue;
        candidates = candidates === null ? [...ids] : candidates.filter((id: string) => ids.has(id));
      }
      if (candidates?.length === 1) {
        const [id] = candidates;
        return id === undefined ? null : (this.byId.get(id) ?? null);
      }
    }
    return null;
  }
}

/** A task built from the log alone, for a question the sample does not have. */
function taskFromLog(block: ParsedHotpotBlock): QaTask {
  const question = block.question ?? "(the log does not print this question)";
  const id = `paper-log-${createHash("sha256").update(`${question}\n${block.context ?? ""}`).digest("hex").slice(0, 12)}`;
  const paragraphs = (block.context ?? "")
    .split(/\n\s*\n/)
    .map((text) => text.trim())
    .filter((text) => text !== "")
    .map((text, index) => ({ title: `Logged context ${index + 1}`, sentences: [text] }));
  return {
    id,
    question,
    answer: block.correctAnswer || "(no key logged)",
    paragraphs: paragraphs.length > 0 ? paragraphs : [{ title: "Logged question", sentences: [question] }],
    supportingTitles: [],
  };
}

const GROUP_RANK: Record<LoggedGroup, number> = { CORRECT: 0, INCORRECT: 1, HALTED: 2 };

/** One question's block per trial (null when the trial does not list it). */
interface QuestionHistory {
  task: QaTask;
  fromSample: boolean;
  blocks: Array<ParsedHotpotBlock | null>;
}

/** Options of {@link mapHotpotQaLog}. */
export interface MapHotpotQaOptions {
  descriptor: LogDescriptor;
  /** Path relative to the data root, or the uploaded file name. */
  source: string;
  /** The sample the questions are matched to, and its task set. */
  sample: readonly QaTask[];
  taskSet: TaskSetRef;
}

/** Maps a parsed HotpotQA log to its runs, warnings and the log's own summary. */
export function mapHotpotQaLog(log: ParsedHotpotLog, options: MapHotpotQaOptions): MappedLog {
  const { descriptor } = options;
  const index = new SampleIndex(options.sample);
  const warnings: string[] = [];
  const histories = new Map<string, QuestionHistory>();
  const trials = log.trials.length;
  const notInSample = new Set<string>();
  const duplicatesByTrial: string[][] = [];
  let keyMismatches = 0;

  log.trials.forEach((trial, trialIndex) => {
    const seen = new Map<string, ParsedHotpotBlock>();
    const duplicates: string[] = [];
    for (const block of trial.blocks) {
      const sampleTask = index.find(block);
      const task = sampleTask ?? taskFromLog(block);
      if (!sampleTask) notInSample.add(task.question);
      if (sampleTask && block.correctAnswer !== "" && block.correctAnswer !== sampleTask.answer) keyMismatches += 1;
      const previous = seen.get(task.id);
      if (previous) {
        duplicates.push(`"${task.question.slice(0, 60)}" (${previous.group} and ${block.group})`);
        if (GROUP_RANK[block.group] < GROUP_RANK[previous.group]) seen.set(task.id, block);
        continue;
      }
      seen.set(task.id, block);
      if (!histories.has(task.id)) histories.set(task.id, { task, fromSample: sampleTask !== null, blocks: Array.from({ length: trials }, () => null) });
    }
    for (const [id, block] of seen) {
      const history = histories.get(id);
      if (history) history.blocks[trialIndex] = block;
    }
    duplicatesByTrial.push(duplicates);
  });

  // One warning per trial whose blocks and summary line do not tell the same story.
  log.trials.forEach((trial, trialIndex) => {
    const blocks = [...histories.values()].map((history) => history.blocks[trialIndex] ?? null);
    const counted = { CORRECT: 0, INCORRECT: 0, HALTED: 0 };
    for (const block of blocks) if (block) counted[block.group] += 1;
    const listedQuestions = blocks.filter((block) => block !== null).length;
    const missing = [...histories.values()].filter((history) => (history.blocks[trialIndex] ?? null) === null);
    const duplicates = duplicatesByTrial[trialIndex] ?? [];
    const { summary } = trial;
    const summaryTotal = summary.correct + summary.incorrect + (summary.hasHalted ? summary.halted : 0);
    const agrees = counted.CORRECT === summary.correct && counted.INCORRECT === summary.incorrect && (!summary.hasHalted || counted.HALTED === summary.halted);
    if (agrees && duplicates.length === 0 && missing.length === 0 && summaryTotal === histories.size) return;
    const halted = (n: number) => (summary.hasHalted ? `, Halted ${n}` : "");
    const parts = [
      `Trial ${trial.trial} (line ${trial.line}): the log's summary says Correct ${summary.correct}, Incorrect ${summary.incorrect}${halted(summary.halted)} (${summaryTotal} agents); its blocks list ${trial.blocks.length} agent(s) for ${listedQuestions} of ${histories.size} questions`,
    ];
    if (duplicates.length > 0) parts.push(`listed twice and counted once, in the first group: ${duplicates.join("; ")}`);
    if (missing.length > 0) parts.push(`not listed (recorded as a failed trial without steps unless solved before): ${missing.map((history) => `"${history.task.question.slice(0, 60)}"`).join("; ")}`);
    parts.push(
      agrees
        ? `counted once each, the blocks agree with the summary (Correct ${counted.CORRECT}, Incorrect ${counted.INCORRECT}${halted(counted.HALTED)})`
        : `counted once each, the blocks give Correct ${counted.CORRECT}, Incorrect ${counted.INCORRECT}${halted(counted.HALTED)}, which differs from the summary; both figures are kept (provenance.logSummary has the summary's)`,
    );
    warnings.push(`${parts.join("; ")}.`);
  });

  if (notInSample.size > 0) {
    warnings.push(`${notInSample.size} question(s) are not in the 100-question sample; their tasks were built from the log (question, key, printed context): ${[...notInSample].map((q) => `"${q.slice(0, 50)}"`).join("; ")}.`);
  }
  if (keyMismatches > 0) warnings.push(`${keyMismatches} block(s) log a correct answer that differs from the sample's gold answer; the verdicts are the log's.`);

  const logSummary = log.trials.map((trial) => ({ trial: trial.trial, correct: trial.summary.correct, incorrect: trial.summary.incorrect, halted: trial.summary.halted }));
  const provenance = provenanceOf(descriptor, options.source, [], logSummary);
  const maxSteps = Math.max(
    environmentEntry("qa").family.defaultMaxStepsPerTrial ?? 6,
    ...log.trials.flatMap((trial) => trial.blocks.map((block) => block.steps.length)),
  );
  const runs = [...histories.values()].map((history) => buildRun(history, { descriptor, provenance, trials, maxSteps, taskSet: options.taskSet }));
  return { descriptor, trials, runs, warnings, logSummary, notes: [] };
}

function configFor(task: QaTask, options: { descriptor: LogDescriptor; provenance: Provenance; trials: number; maxSteps: number; taskSet: TaskSetRef }): RunConfig {
  const { family } = environmentEntry("qa");
  const { descriptor } = options;
  const templates = family.templatesFor?.(descriptor.strategy) ?? family.defaultTemplates;
  const model = { modelId: descriptor.modelId, temperature: 0, maxOutputTokens: 256 };
  return runConfigSchema.parse({
    environment: "qa",
    taskSetName: options.taskSet.name,
    taskId: task.id,
    task,
    strategy: descriptor.strategy,
    memoryWindow: descriptor.memoryWindow,
    maxTrials: options.trials,
    maxStepsPerTrial: Math.min(100, options.maxSteps),
    models: { actor: model, reflector: model },
    templates,
    replayMode: "live",
    provenance: options.provenance,
  });
}

function buildRun(history: QuestionHistory, options: { descriptor: LogDescriptor; provenance: Provenance; trials: number; maxSteps: number; taskSet: TaskSetRef }): ImportedRunInput {
  const { task } = history;
  const builder = new RunLogBuilder(configFor(task, options));
  const reflects = strategyBehaviour(options.descriptor.strategy).reflectsAfterFailure;
  let solved = false;
  for (let k = 0; k < history.blocks.length && !solved; k += 1) {
    const block = history.blocks[k] ?? null;
    const printed = block?.memory && !block.memoryIsLastTrial ? block.memory : undefined;
    const trial = builder.startTrial(reflects ? printed : []);
    if (block === null) {
      builder.endTrial({
        outcome: "failure",
        reason: `The log does not list this question in trial ${trial}.`,
        evaluation: { verdict: "fail", score: 0, feedback: `Not listed in the log's trial ${trial}.`, evaluatorKind: "exact-match", oracle: true, details: { gold: task.answer, recorded: true, listed: false, f1: 0, precision: 0, recall: 0 } },
      });
    } else {
      let answer: string | null = null;
      for (const step of block.steps) {
        const parsed = parseLoggedAction(step.action);
        const finish = parsed !== null && parsed.type.toLowerCase() === "finish";
        if (finish) answer = parsed.argument;
        builder.step({ thought: step.thought, action: step.action, parsed, observation: step.observation, done: finish, answer: finish ? parsed.argument : null });
      }
      const outcome = block.group === "CORRECT" ? "success" : block.group === "HALTED" ? "halted" : "failure";
      const feedback =
        block.group === "CORRECT"
          ? `Answer is CORRECT (exact match with "${block.correctAnswer}", as logged).`
          : block.group === "HALTED"
            ? `Halted without a correct answer (as logged); the key is "${block.correctAnswer}".`
            : `Answer is INCORRECT (as logged); the key is "${block.correctAnswer}".`;
      builder.endTrial({
        outcome,
        reason: feedback,
        evaluation: {
          verdict: block.group === "CORRECT" ? "pass" : "fail",
          score: block.group === "CORRECT" ? 1 : 0,
          feedback,
          evaluatorKind: "exact-match",
          oracle: true,
          details: {
            answer,
            gold: block.correctAnswer,
            loggedGroup: block.group,
            line: block.line,
            recorded: true,
            emAgrees: answer === null ? null : exactMatch(answer, block.correctAnswer) === (block.group === "CORRECT"),
            // F1 / precision / recall as hotpot_evaluate_v1 computes them (no answer: 0, as for an empty prediction).
            ...(answer === null ? { f1: 0, precision: 0, recall: 0 } : f1Score(answer, block.correctAnswer)),
          },
        },
      });
      solved = block.group === "CORRECT";
    }
    const next = history.blocks[k + 1];
    if (!solved && reflects && next?.memory && !next.memoryIsLastTrial) {
      const known = new Set(builder.memory.map((item) => item.text.trim()));
      builder.reflect(next.memory.filter((text) => text.trim() !== "" && !known.has(text.trim())));
    }
  }
  builder.end(solved ? "success" : "failure");
  return { config: builder.config, title: task.question, cell: { taskId: task.id, arm: options.descriptor.label }, drafts: builder.drafts };
}
