import type { ExternalCall, ExternalStep, ExternalTrace, ExternalVerdict, ParsedTraces, RawRecord, TraceProblem } from "./external-trace";
import { arr, isObject, num, readJsonRecords, str } from "./json-records";
import { asText, inputTaskId, inputTextOf, modelTurn, outputTextOf, toExternalMessages } from "./message-text";
import { verdictFromValue, type ReadVerdict } from "./score-verdict";
import { epochMs, isoTime, spanMs } from "./trace-time";

/**
 * Parser of LangSmith run exports: a JSON array, one object, or JSON lines of runs in the documented
 * run format (docs.langchain.com/langsmith/run-data-format: `id`, `name`, `run_type`, `trace_id`,
 * `parent_run_id`, `dotted_order`, `start_time`, `end_time`, `inputs`, `outputs`, `error`, `extra`,
 * `prompt_tokens`, `completion_tokens`, `total_cost`, `prompt_cost`, `completion_cost`,
 * `feedback_stats`, `reference_example_id`, `child_runs`), optionally with feedback records in the
 * documented feedback format (docs.langchain.com/langsmith/feedback-data-format: `run_id`, `key`,
 * `score`, `value`, `comment`) as records of their own or as a run's `feedback` list.
 *
 * Runs are grouped by `trace_id` (else the first id of `dotted_order`, else the parent chain) and
 * ordered by `dotted_order` (else `start_time`). `llm` runs are calls (messages from `inputs.messages`
 * in the LangChain / OpenAI / serialised-LangChain shapes, or `inputs.prompts`); `tool` runs are steps
 * (the run name is the tool, `inputs` the action input, `outputs` or `error` the observation, the text
 * of the `llm` output before it the thought); an `llm` output after the last tool run with no tool
 * calls is the final-answer step; other run types are raw records `run:<type>`. The verdict is the
 * chosen feedback key (else the root run's first feedback, else any), else `feedback_stats`.
 */

/** Options of {@link parseLangSmithExport}. */
export interface LangSmithParseOptions {
  /** The feedback key whose score is the verdict (e.g. `correctness`); default: the first that reads. */
  feedbackKey?: string;
  /** Scores at or above this pass; default 0.5. */
  passThreshold?: number;
}

type Run = Record<string, unknown> & { id: string };

/** Flattens nested `child_runs` (RunTree-style exports) after their parent. */
function flattenRuns(run: Record<string, unknown>, out: Record<string, unknown>[]): void {
  out.push(run);
  for (const child of arr(run.child_runs)) {
    if (isObject(child)) flattenRuns({ parent_run_id: run.id, trace_id: run.trace_id, ...child }, out);
  }
}

/** Parses a LangSmith run export. Never throws: bad records are problems. */
export function parseLangSmithExport(text: string, name: string, options: LangSmithParseOptions = {}): ParsedTraces {
  const { records, problems } = readJsonRecords(text);
  const runs: Run[] = [];
  const feedback: Record<string, unknown>[] = [];
  for (const { line, value } of records) {
    if (!isObject(value)) {
      problems.push({ where: `line ${line}`, message: "not a JSON object; expected a LangSmith run (with `run_type`) or a feedback record" });
      continue;
    }
    if (typeof value.run_type === "string") {
      const flat: Record<string, unknown>[] = [];
      flattenRuns(value, flat);
      for (const run of flat) {
        if (typeof run.id !== "string" || run.id.length === 0) problems.push({ where: `line ${line}`, message: `a run (${String(run.name ?? "unnamed")}) has no \`id\`; skipped` });
        else runs.push(run as Run);
      }
    } else if (typeof value.key === "string" && (typeof value.run_id === "string" || typeof value.trace_id === "string")) feedback.push(value);
    else problems.push({ where: `line ${line}`, message: "neither a LangSmith run (no `run_type`) nor a feedback record (`key` and `run_id`); skipped" });
  }
  for (const run of runs) for (const item of arr(run.feedback)) if (isObject(item)) feedback.push({ run_id: run.id, ...item });
  if (records.length === 0 && problems.length === 0) problems.push({ where: name, message: "the file is empty; expected LangSmith runs (JSON array or JSON lines)" });

  const byId = new Map(runs.map((run) => [run.id, run]));
  const traceOf = (run: Run, depth = 0): string => {
    const explicit = str(run.trace_id) ?? str(String(run.dotted_order ?? "").split(".")[0]?.split("Z")[1]);
    if (explicit) return explicit;
    const parent = str(run.parent_run_id) ? byId.get(run.parent_run_id as string) : undefined;
    return parent && depth < 1000 ? traceOf(parent, depth + 1) : run.id;
  };
  const groups = new Map<string, Run[]>();
  for (const run of runs) {
    const id = traceOf(run);
    groups.set(id, [...(groups.get(id) ?? []), run]);
  }

  const traces: ExternalTrace[] = [];
  for (const [traceId, group] of groups) {
    try {
      traces.push(traceFromRuns(traceId, group, feedback, options, problems));
    } catch (error) {
      problems.push({ where: `trace ${traceId}`, message: `could not be read (${error instanceof Error ? error.message : String(error)}); the other traces are imported` });
    }
  }
  return { format: "langsmith", traces, problems };
}

/** Runs in execution order: by `dotted_order` when every run has one, else by `start_time`, else as given. */
function ordered(group: Run[]): Run[] {
  // Code-point order, not localeCompare: ICU collation may ignore the `-` and `.` that structure the key.
  if (group.every((run) => typeof run.dotted_order === "string")) return [...group].sort((a, b) => ((a.dotted_order as string) < (b.dotted_order as string) ? -1 : (a.dotted_order as string) > (b.dotted_order as string) ? 1 : 0));
  return group.map((run, index) => ({ run, index, at: epochMs(run.start_time) ?? Number.POSITIVE_INFINITY })).sort((a, b) => a.at - b.at || a.index - b.index).map((entry) => entry.run);
}

/** A number written as a number or a decimal string (LangSmith writes costs as decimals). */
function decimal(value: unknown): number | null {
  if (typeof value === "string" && value.trim() !== "" && Number.isFinite(Number(value))) return Number(value);
  return num(value);
}

function callOf(run: Run, stepIndex: number | null): ExternalCall {
  const extra = isObject(run.extra) ? run.extra : {};
  const metadata = isObject(extra.metadata) ? extra.metadata : {};
  const params = isObject(extra.invocation_params) ? extra.invocation_params : {};
  const inputs = isObject(run.inputs) ? run.inputs : {};
  const outputs = isObject(run.outputs) ? run.outputs : {};
  const llmOutput = isObject(outputs.llm_output) ? outputs.llm_output : {};
  const usageMetadata = isObject(outputs.usage_metadata) ? outputs.usage_metadata : {};
  const openAiUsage = isObject(outputs.usage) ? outputs.usage : isObject(llmOutput.token_usage) ? llmOutput.token_usage : {};
  const modelName = str(metadata.ls_model_name) ?? str(params.model) ?? str(params.model_name) ?? str(llmOutput.model_name) ?? str(outputs.model) ?? str(inputs.model);
  const provider = str(metadata.ls_provider);
  const messages = Array.isArray(inputs.messages) ? toExternalMessages(inputs.messages) : arr(inputs.prompts).filter((prompt): prompt is string => typeof prompt === "string").map((prompt) => ({ role: "user" as const, content: prompt }));
  const promptCost = decimal(run.prompt_cost);
  const completionCost = decimal(run.completion_cost);
  return {
    model: modelName ? (provider ? `${provider}:${modelName}` : modelName) : (str(run.name) ?? "unknown"),
    messages,
    outputText: outputTextOf(run.outputs) ?? "",
    inputTokens: num(run.prompt_tokens) ?? num(usageMetadata.input_tokens) ?? num(openAiUsage.prompt_tokens) ?? num(openAiUsage.input_tokens),
    outputTokens: num(run.completion_tokens) ?? num(usageMetadata.output_tokens) ?? num(openAiUsage.completion_tokens) ?? num(openAiUsage.output_tokens),
    costUsd: decimal(run.total_cost) ?? (promptCost !== null && completionCost !== null ? promptCost + completionCost : null) ?? num(usageMetadata.total_cost),
    latencyMs: spanMs(run.start_time, run.end_time),
    stepIndex,
    sourceId: run.id,
  };
}

/** A tool run's `inputs` as action input: `{input: "…"}` (what LangChain tools log) as its string, else the inputs as JSON. */
function toolInput(inputs: unknown): string {
  if (isObject(inputs) && Object.keys(inputs).length === 1 && typeof inputs.input === "string") return inputs.input;
  return asText(inputs ?? {}) ?? "{}";
}

function traceFromRuns(traceId: string, group: Run[], feedback: Record<string, unknown>[], options: LangSmithParseOptions, problems: TraceProblem[]): ExternalTrace {
  const runs = ordered(group);
  const root = runs.find((run) => run.id === traceId) ?? runs.find((run) => !str(run.parent_run_id)) ?? null;
  if (!root) problems.push({ where: `trace ${traceId}`, message: "its root run is not in the file; the trace is read from the runs that are" });
  const steps: ExternalStep[] = [];
  const calls: ExternalCall[] = [];
  const unknown: RawRecord[] = [];
  let pendingThought: { text: string; call: ExternalCall } | null = null;
  let lastFinal: { text: string; call: ExternalCall; startedAt: string | null; id: string } | null = null;

  for (const run of runs) {
    const type = str(run.run_type) ?? "unknown";
    if (type === "llm") {
      const call = callOf(run, null);
      calls.push(call);
      const turn = modelTurn(run.outputs);
      pendingThought = { text: turn.text, call };
      lastFinal = !turn.asksForTools && turn.text ? { text: turn.text, call, startedAt: isoTime(run.start_time), id: run.id } : null;
    } else if (type === "tool") {
      if (pendingThought) pendingThought.call.stepIndex ??= steps.length;
      const errorText = str(run.error);
      const outputs = isObject(run.outputs) && Object.keys(run.outputs).length === 1 && "output" in run.outputs ? run.outputs.output : run.outputs;
      steps.push({
        thought: pendingThought?.text || null,
        action: { tool: str(run.name) ?? "tool", input: toolInput(run.inputs) },
        observation: errorText ? `Error: ${errorText}` : typeof outputs === "string" ? outputs : (outputTextOf(outputs) ?? null),
        answer: null,
        startedAt: isoTime(run.start_time),
        sourceId: run.id,
      });
      pendingThought = pendingThought ? { text: "", call: pendingThought.call } : null;
      lastFinal = null;
    } else if (run !== root) {
      unknown.push({ kind: `run:${type}`, name: str(run.name) ?? type, data: run });
    }
  }
  if (lastFinal) {
    lastFinal.call.stepIndex = steps.length;
    steps.push({ thought: null, action: null, observation: null, answer: lastFinal.text, startedAt: lastFinal.startedAt, sourceId: lastFinal.id });
  }
  if (root && str(root.error)) unknown.push({ kind: "run:error", name: str(root.name) ?? "error", data: { error: root.error } });

  const ids = new Set(group.map((run) => run.id));
  const mine = feedback.filter((item) => (typeof item.run_id === "string" && ids.has(item.run_id)) || item.trace_id === traceId);
  const verdict = traceVerdict(root, mine, options, (note) => problems.push({ where: `trace ${traceId}`, message: note }));
  const input = root ? inputTextOf(root.inputs) : null;
  const starts = runs.map((run) => isoTime(run.start_time)).filter((time): time is string => time !== null).sort();
  const ends = runs.map((run) => isoTime(run.end_time)).filter((time): time is string => time !== null).sort();
  return {
    format: "langsmith",
    traceId,
    title: str(root?.name) ?? `LangSmith trace ${traceId}`,
    taskId: str(root?.reference_example_id) ?? inputTaskId(input),
    input,
    target: null,
    output: root ? outputTextOf(root.outputs) : null,
    steps,
    calls,
    verdict,
    model: calls[0]?.model ?? null,
    unknown,
    startedAt: (root ? isoTime(root.start_time) : null) ?? starts[0] ?? null,
    endedAt: (root ? isoTime(root.end_time) : null) ?? ends[ends.length - 1] ?? null,
  };
}

/** The verdict: the chosen or first readable feedback (root run's first), else the root's `feedback_stats`. */
function traceVerdict(root: Run | null, feedback: Record<string, unknown>[], options: LangSmithParseOptions, note: (text: string) => void): ExternalVerdict | null {
  const threshold = { passThreshold: options.passThreshold };
  const fromFeedback = (item: Record<string, unknown>): ReadVerdict => {
    const key = str(item.key) ?? "feedback";
    const value = item.score !== null && item.score !== undefined ? item.score : item.value;
    return verdictFromValue(value, { name: key, source: `LangSmith feedback \`${key}\``, explanation: str(item.comment) }, threshold);
  };
  const rootFirst = [...feedback].sort((a, b) => Number(b.run_id === root?.id) - Number(a.run_id === root?.id));
  const candidates = options.feedbackKey ? rootFirst.filter((item) => item.key === options.feedbackKey) : rootFirst;
  for (const item of candidates) {
    const read = fromFeedback(item);
    if (read.note) note(read.note);
    if (read.verdict) return read.verdict;
  }
  const stats = root && isObject(root.feedback_stats) ? root.feedback_stats : {};
  const keys = options.feedbackKey ? [options.feedbackKey] : Object.keys(stats);
  for (const key of keys) {
    const stat = stats[key];
    if (!isObject(stat)) continue;
    const values = isObject(stat.values) ? Object.entries(stat.values).sort((a, b) => Number(b[1]) - Number(a[1])) : [];
    const raw = num(stat.avg) ?? values[0]?.[0];
    const read = verdictFromValue(raw, { name: key, source: `LangSmith feedback \`${key}\` (feedback_stats)`, explanation: arr(stat.comments).filter((c) => typeof c === "string").join("\n") }, threshold);
    if (read.note) note(read.note);
    if (read.verdict) return read.verdict;
  }
  if (options.feedbackKey && candidates.length === 0 && keys.every((key) => !isObject(stats[key]))) note(`no feedback \`${options.feedbackKey}\` on this trace; no verdict`);
  return null;
}
