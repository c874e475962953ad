import { z } from "zod";
import type { Rubric } from "./judge";

/**
 * Reflexion on an outside agent's failures (docs/decisions/0039): an imported trace (a read-only run
 * of the `external` family) gets a verdict from the Evaluator a person chose — the trace's own score,
 * a rubric judge with the judge model, or a person's grade — and each failure gets a Self-Reflection
 * written with a versioned template (`external/reflect` by default), stored in a memory store with
 * this provenance. The outside agent reads them back with `cli memory export` or
 * `GET /api/memory-stores/<name>/reflections` and puts them in its next prompt (paper §3: the
 * reflection is the verbal reinforcement signal; the agent's weights never change).
 */

/**
 * Which Evaluator decides that an imported trace failed:
 * - `trace`: the score or label recorded in the trace (Inspect scorer, LangSmith feedback, Langfuse
 *   score, `gen_ai.evaluation.result`); a trace without one is skipped, with a note;
 * - `judge`: the rubric judge (the `open` family's judge prompt) with the judge model, on the
 *   trace's task and final output (the expected answer, when the trace has one, goes into the
 *   grader's notes: then it is an oracle signal);
 * - `person`: a person's pass / fail grade on the trace (the judge page's grade store); ungraded
 *   traces are skipped, with a note saying where to grade them.
 */
export const traceEvaluatorSchema = z.enum(["trace", "judge", "person"]);
export type TraceEvaluator = z.infer<typeof traceEvaluatorSchema>;

/** Labels for pickers and printed lines. */
export const TRACE_EVALUATOR_LABELS: Record<TraceEvaluator, string> = {
  trace: "the trace's own score",
  judge: "a rubric judge (judge model)",
  person: "a person's grade",
};

/** Where a reflection on an imported trace came from; stored with the memory entry (`reflectedOn`). */
export const traceReflectionProvenanceSchema = z.object({
  kind: z.literal("trace-reflection"),
  /** The Evaluator that called the trace a failure. */
  evaluator: traceEvaluatorSchema,
  /** What that verdict rests on, in words: "Inspect scorer `match` = I", "judge gpt-4o-mini: 0.40 < 0.70", "graded fail by a person". */
  verdictSource: z.string(),
  /** The Self-Reflection template: its id, version number and library version id (null for a text that is no saved version). */
  template: z.object({ id: z.string(), version: z.number().int().positive(), versionId: z.string().nullable() }),
  /** The Self-Reflection model, e.g. `demo`, `openai:gpt-4o-mini`. */
  model: z.string(),
  /** The import's experiment, when the run came in with one. */
  experimentId: z.string().nullable(),
  /**
   * The verdict used the expected answer the trace records (a scorer or judge compared against it):
   * an oracle signal, not something the agent could know. Absent on entries written before it was kept.
   */
  oracle: z.boolean().optional(),
  /** The imported file (provenance source), e.g. `agent-traces.otlp.jsonl`. */
  importedFrom: z.string().nullable(),
});
export type TraceReflectionProvenance = z.infer<typeof traceReflectionProvenanceSchema>;

/** The Self-Reflection prompt's ending; the demo model and the check for a reflection prompt read it. */
export const TRACE_REFLECTION_PROMPT_END = "Reflection:";

/** The heading above `{feedback}` in the built-in template (the demo model reads the section after it). */
export const FEEDBACK_HEADING = "How it ended, and why it was judged a failure:";

/** The label of the final answer's line in `{feedback}`. */
export const FINAL_ANSWER_LABEL = "Final answer:";

/** The first line of the built-in template; the demo model recognises a trace reflection prompt by it. */
export const TRACE_REFLECTION_INSTRUCTION = "You are an advisor reviewing one attempt of an AI agent that used tools to do a task and did not succeed.";

/**
 * The built-in Self-Reflection template for imported traces (ours): the `external` family's
 * reflector template, `external/reflect` in the library. Placeholders are the family's: `{task}` (the
 * task as the agent received it), `{scratchpad}` (the trajectory as `Thought n / Action n /
 * Observation n` lines) and `{feedback}` (the final answer, then the Evaluator's verdict and
 * explanation). Kept to the shape of the paper's reflection prompts (reference §2.6): diagnose the
 * failure, then a concise, high-level plan, in a few sentences, so it fits in the agent's next prompt.
 */
export const TRACE_REFLECT_TEMPLATE = {
  id: "external/reflect",
  version: 1,
  text: [
    TRACE_REFLECTION_INSTRUCTION,
    "You will see the task, the agent's steps (its thoughts, the tools it called and what they returned), its final answer and why the attempt was judged a failure.",
    "In a few sentences, diagnose the concrete reason it failed (a wrong tool input, a repeated call, a fact it missed, an answer in the wrong form) and write a plan the agent can follow next time: name the action or fact, not a general intention such as \"think harder\".",
    "Write in the first person, as the agent speaking to its future self. Do not repeat the trajectory.",
    "",
    "Task:",
    "{task}",
    "",
    "Steps:",
    "{scratchpad}",
    "",
    `${FEEDBACK_HEADING}`,
    "{feedback}",
    "",
    TRACE_REFLECTION_PROMPT_END,
  ].join("\n"),
};

/** What the expected answer reads as in a reflection prompt: the lesson must not hand the gold answer back to the agent. */
export const HIDDEN_TARGET = "[the expected answer]";

/**
 * The `{feedback}` of a trace reflection: the final answer line, then the Evaluator's words, with
 * every whole-word occurrence of the expected answer the trace records replaced by
 * {@link HIDDEN_TARGET} — a reflection quoting the gold answer would let the agent's next attempt
 * pass by copying it (the paper's HotpotQA reflections see only "incorrect", reference §2.6).
 */
export function traceFeedback(answer: string | null, verdictFeedback: string, target: string | null = null): string {
  const words = verdictFeedback.trim() || "(no explanation recorded)";
  return `${FINAL_ANSWER_LABEL} ${answer ?? "(none)"}\n${hideTarget(words, target)}`;
}

/** How a trace's list of acceptable answers is stored in one string (Inspect's list `target`). */
export const TARGET_ALTERNATIVES_SEPARATOR = " | ";

/**
 * `text` with whole-word occurrences of the expected answer (case-insensitive) replaced by
 * {@link HIDDEN_TARGET}: the whole target and, for a list of acceptable answers joined with
 * {@link TARGET_ALTERNATIVES_SEPARATOR}, each of them (longest first). Unchanged when there is no target.
 */
export function hideTarget(text: string, target: string | null): string {
  const whole = target?.trim();
  if (!whole) return text;
  const answers = [whole, ...whole.split(TARGET_ALTERNATIVES_SEPARATOR).map((answer) => answer.trim())].filter((answer, index, all) => answer !== "" && all.indexOf(answer) === index);
  answers.sort((a, b) => b.length - a.length);
  return answers.reduce((out, answer) => {
    const escaped = answer.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    return out.replace(new RegExp(`(?<![\\p{L}\\p{N}])${escaped}(?![\\p{L}\\p{N}])`, "giu"), HIDDEN_TARGET);
  }, text);
}

/**
 * True when a verdict's explanation speaks of a reference answer ("the reference answer is …",
 * "expected …", "target", "gold"): the score compared against an answer the agent could not know,
 * and the explanation may state it — an oracle signal even when the trace records no target.
 */
export function mentionsReferenceAnswer(explanation: string): boolean {
  return /\b(?:reference|expected|gold|correct|right)\s+answer\b|\btarget\b|\bground[- ]truth\b/iu.test(explanation);
}

/**
 * The default rubric of the `judge` Evaluator for imported traces (ours; the `open` family's judge
 * prompt and parser read it). Two criteria; a trace passes at a weighted score ≥ 0.7.
 */
export const TRACE_JUDGE_RUBRIC: Rubric = {
  criteria: [
    { id: "trace-goal-met", description: "The final answer does what the task asks (and agrees with the expected answer in the notes, when there is one).", weight: 3 },
    { id: "trace-grounded", description: "The answer rests on what the tools returned, not on guesses the steps do not support.", weight: 1 },
  ],
  passThreshold: 0.7,
};

/** The heading of the tool results in the judge's notes for a trace (the demo judge reads the section after it). */
export const TOOL_RESULTS_HEADING = "What the tools returned:";

/** One step of a trajectory as the reflection prompt shows it. */
export interface TraceStepText {
  thought: string | null;
  action: string | null;
  observation: string | null;
}

/** The longest observation shown in the prompt (characters); longer ones are cut with a note, as the QA reference trims (§2.6). */
export const MAX_OBSERVATION_CHARS = 1200;

/** `Thought n: …` / `Action n: …` / `Observation n: …` lines; observations over {@link MAX_OBSERVATION_CHARS} are cut. */
export function renderTraceScratchpad(steps: readonly TraceStepText[]): string {
  if (steps.length === 0) return "(the trace recorded no steps)";
  const lines: string[] = [];
  steps.forEach((step, index) => {
    const n = index + 1;
    if (step.thought) lines.push(`Thought ${n}: ${step.thought}`);
    if (step.action) lines.push(`Action ${n}: ${step.action}`);
    if (step.observation !== null) {
      const text = step.observation.length > MAX_OBSERVATION_CHARS ? `${step.observation.slice(0, MAX_OBSERVATION_CHARS)} … (${step.observation.length - MAX_OBSERVATION_CHARS} more characters cut)` : step.observation;
      lines.push(`Observation ${n}: ${text}`);
    }
  });
  return lines.join("\n");
}

/** What the outcome of one imported trace's reflection pass was. */
export const traceReflectionOutcomeSchema = z.object({
  runId: z.string(),
  title: z.string(),
  taskId: z.string(),
  /** `fail`: reflected on; `pass`: nothing to reflect on; `skipped`: the chosen Evaluator had no verdict (see `note`). */
  verdict: z.enum(["pass", "fail", "skipped"]),
  verdictSource: z.string(),
  /** The reflection written (or found already stored for this failure), else null. */
  reflection: z.string().nullable(),
  /** True when this failure's reflection was already in the store (nothing new was written). */
  alreadyStored: z.boolean(),
  /** Why a trace was skipped, or a caveat (e.g. "oracle signal: the judge saw the expected answer"). */
  note: z.string().nullable(),
  /** The verdict used the expected answer recorded in the trace (see {@link traceReflectionProvenanceSchema}). */
  oracle: z.boolean().default(false),
});
export type TraceReflectionOutcome = z.infer<typeof traceReflectionOutcomeSchema>;

/** A person's verdict on one imported trace, with an optional note that the Self-Reflection reads as the feedback. */
export const personGradeSchema = z.object({ verdict: z.enum(["pass", "fail"]), note: z.string().max(2000).optional() }).strict();
export type PersonGrade = z.infer<typeof personGradeSchema>;

/** `POST /api/trace-reflections` body: an import's experiment or runs, the store, the Evaluator, optionally a template version and model. */
export const traceReflectionRequestSchema = z
  .object({
    experimentId: z.string().min(1).optional(),
    runIds: z.array(z.string().min(1)).max(5000).optional(),
    store: z.string().min(1),
    evaluator: traceEvaluatorSchema.default("trace"),
    /** A library version reference for the Self-Reflection template (`tv-…`, `external/reflect@v2`, `…@label`); default the built-in. */
    template: z.string().min(1).optional(),
    /** The Self-Reflection (and judge) model; default `demo`, the offline scripted stand-in. */
    modelId: z.string().min(1).optional(),
    /** The `person` Evaluator's verdicts, by run id (a note is passed to the Self-Reflection as the feedback). */
    grades: z.record(z.string(), personGradeSchema).optional(),
  })
  .strict()
  .refine((body) => Boolean(body.experimentId) !== Boolean(body.runIds?.length), { message: "Give either experimentId or runIds (not both)." });
export type TraceReflectionRequest = z.input<typeof traceReflectionRequestSchema>;

/** The answer: one outcome per trace, and totals. */
export const traceReflectionResponseSchema = z.object({
  store: z.string(),
  evaluator: traceEvaluatorSchema,
  model: z.string(),
  template: z.object({ id: z.string(), version: z.number().int().positive(), versionId: z.string().nullable() }),
  outcomes: z.array(traceReflectionOutcomeSchema),
  written: z.number().int().nonnegative(),
  failures: z.number().int().nonnegative(),
  skipped: z.number().int().nonnegative(),
  /** `person` grades whose run id is not among the runs reflected on (a typo, or a run of another import): nothing used them. */
  unmatchedGrades: z.array(z.string()).default([]),
});
export type TraceReflectionResponse = z.infer<typeof traceReflectionResponseSchema>;
