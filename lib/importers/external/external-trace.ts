/**
 * CONTRACT (shared by every trace importer, the trace → run mapper, the reflection service and the
 * UI). Change only additively.
 *
 * An outside agent's trace, normalised from whatever format it came in (decision 0039):
 * OTLP JSON / JSON lines with OpenInference or OTel `gen_ai.*` attributes, Inspect AI eval logs,
 * LangSmith run exports, Langfuse trace exports. Each parser turns records of its format into
 * {@link ExternalTrace}s plus {@link TraceProblem}s; one mapper (lib/importers/external/map-trace.ts)
 * turns an ExternalTrace into a read-only run of the `external` family. Parsers never throw on one
 * bad record: they report it as a problem and go on.
 */

/** The formats a trace file can be in. `auto` is resolved by sniffing the content. */
export type TraceFormat = "otlp" | "inspect" | "langsmith" | "langfuse";

/** One agent turn as a ReAct step: the model's reasoning, the tool call, the tool's result. Any part may be missing. */
export interface ExternalStep {
  /** The assistant's text before the tool call (its reasoning), or null. */
  thought: string | null;
  /** The tool call, or null (a final answer turn has none). */
  action: { tool: string; input: string } | null;
  /** The tool's result as text, or null when the trace has none. */
  observation: string | null;
  /** The final answer when this turn ended the episode, else null. */
  answer: string | null;
  /** Start time of the turn, ISO-8601, when the trace has it. */
  startedAt: string | null;
  /** The id of the span / event / run it came from, for linking back. */
  sourceId: string | null;
}

/** One chat message of a recorded LLM call. */
export interface ExternalMessage {
  role: "system" | "user" | "assistant" | "tool";
  content: string;
}

/** One LLM call as the trace recorded it (an LLM span, an Inspect model event, a LangSmith `llm` run, a Langfuse generation). */
export interface ExternalCall {
  /** As written in the trace, e.g. `gpt-4o-mini`; provider-prefixed when the trace names the provider (`openai:gpt-4o-mini`). */
  model: string;
  messages: ExternalMessage[];
  outputText: string;
  /** Tokens as recorded; null when the trace has no usage. */
  inputTokens: number | null;
  outputTokens: number | null;
  /** USD as recorded by the source; null when absent (never estimated here). */
  costUsd: number | null;
  /** Wall time in ms, from the span's start and end; null when unknown. */
  latencyMs: number | null;
  /** Index into {@link ExternalTrace.steps} of the step this call produced, or null (a call outside any step). */
  stepIndex: number | null;
  sourceId: string | null;
}

/**
 * The trace's own judgement of the attempt, as recorded: an Inspect score, a LangSmith feedback, a
 * Langfuse score, a `gen_ai.evaluation.*` event or an OpenInference eval attribute. `source` says
 * which (shown with the verdict: "score from the trace (Inspect scorer `match`)").
 */
export interface ExternalVerdict {
  /** True / false when the source's score reads as pass / fail. */
  passed: boolean;
  /** Normalised to 0..1 where the source's scale is known; the raw value is in `raw`. */
  score: number;
  /** The score's name in the source (`match`, `correctness`, `accuracy`, …). */
  name: string;
  /** Where it came from, e.g. "Inspect scorer `match`", "LangSmith feedback `correctness`". */
  source: string;
  /** The source's explanation or comment, or "". */
  explanation: string;
  /** The value as written (`"C"`, `1`, `true`, `0.8`). */
  raw: unknown;
}

/** A record the importer did not understand: kept whole and shown raw, never dropped. */
export interface RawRecord {
  /** What kind of record it is in its format, e.g. `span:RETRIEVER`, `event:sandbox`, `run:parser`. */
  kind: string;
  /** Its name in the source (span name, event type, run name). */
  name: string;
  /** The record itself (attributes, fields), as parsed JSON. */
  data: unknown;
}

/** One outside agent's attempt at one task. */
export interface ExternalTrace {
  format: TraceFormat;
  /** The id of the trace / sample / root run in the source. */
  traceId: string;
  /** A human title: the agent or workflow name, the Inspect task and sample id, the root run's name. */
  title: string;
  /** A stable id of the task attempted (Inspect sample id, the input's hash, a dataset example id). */
  taskId: string;
  /** The task as the agent received it (the question / instruction), or null. */
  input: string | null;
  /** The expected answer when the source records one (Inspect `target`), else null. */
  target: string | null;
  /** The agent's final output, or null. */
  output: string | null;
  steps: ExternalStep[];
  calls: ExternalCall[];
  verdict: ExternalVerdict | null;
  /** The model that drove the agent (the first LLM call's), or null. */
  model: string | null;
  unknown: RawRecord[];
  /** ISO-8601 when known. */
  startedAt: string | null;
  endedAt: string | null;
}

/** A per-record problem: the record's position (1-based line, span id, sample id) and what was wrong with it. */
export interface TraceProblem {
  /** e.g. "line 12", "span 5f2a…", "sample 7 (epoch 1)". */
  where: string;
  message: string;
}

/** What a parser returns for one file. */
export interface ParsedTraces {
  format: TraceFormat;
  traces: ExternalTrace[];
  problems: TraceProblem[];
}
