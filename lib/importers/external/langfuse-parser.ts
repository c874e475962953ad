import type { ExternalCall, ExternalStep, ExternalTrace, ExternalVerdict, ParsedTraces, RawRecord, TraceProblem } from "./external-trace";
import { arr, isObject, num, readJsonRecords, str } from "./json-records";
import { asText, inputTaskId, inputTextOf, modelTurn, outputTextOf, toExternalMessages } from "./message-text";
import { verdictFromValue, type ReadVerdict } from "./score-verdict";
import { epochMs, isoTime, spanMs } from "./trace-time";

/**
 * Parser of Langfuse trace exports: a JSON array, one object, or JSON lines of traces in the shape of
 * the public API's `GET /api/public/traces/{traceId}` (`TraceWithFullDetails` in langfuse/langfuse
 * fern/apis/server/definition/commons.yml: `id`, `name`, `timestamp`, `input`, `output`, `metadata`,
 * `observations[]` (`ObservationsView`: `id`, `type`, `name`, `parentObservationId`, `startTime`,
 * `endTime`, `input`, `output`, `model`, `usageDetails`, `costDetails`, `usage` (deprecated),
 * `calculatedTotalCost`, `latency`, `level`, `statusMessage`, `metadata`) and `scores[]` (`ScoreV1`:
 * `name`, `value`, `stringValue`, `dataType` NUMERIC | BOOLEAN | CATEGORICAL | TEXT, `comment`,
 * `observationId`)). A list response `{data: [...]}` is read as its traces. Records that are bare
 * observations (`type` and `traceId`) or scores (`dataType` and `traceId`) are grouped by `traceId`.
 *
 * Observations are ordered by `startTime`. GENERATION → a call. TOOL → a step; a SPAN is read as a tool
 * step too when its name is `tool:<name>` / `tool.<name>` / `tool_call <name>` / `execute_tool <name>`
 * (any of `: . _ - space` as separator, case-insensitive) or its metadata names the tool
 * (`tool_name`, `toolName`, `tool`). The thought of a step is the text of the generation before it; an
 * ERROR-level tool's `statusMessage` is its observation when it has no output. A generation after the
 * last tool with text and no tool calls is the final-answer step. Every other observation (AGENT,
 * CHAIN, SPAN, EVENT, RETRIEVER, EVALUATOR, EMBEDDING, GUARDRAIL, …) is a raw record `observation:<TYPE>`.
 * The verdict is the chosen score (else the first readable trace-level score, then observation-level):
 * NUMERIC by value, BOOLEAN by value (1 / 0), CATEGORICAL by `stringValue` against the pass labels
 * (option `passLabels`, else lib/importers/external/score-verdict.ts PASS_LABELS / FAIL_LABELS).
 */

/** Options of {@link parseLangfuseExport}. */
export interface LangfuseParseOptions {
  /** The score name whose value is the verdict; default: the first that reads. */
  scoreName?: string;
  /** CATEGORICAL labels that pass (case-insensitive); when given, every other label fails. */
  passLabels?: string[];
  /** Scores at or above this pass; default 0.5. */
  passThreshold?: number;
}

type Obj = Record<string, unknown>;

const TOOL_SPAN_NAME = /^(?:tool|tool_call|tool call|execute_tool|execute tool)[\s:._-]+(.+)$/i;

/** Parses a Langfuse trace export. Never throws: bad records are problems. */
export function parseLangfuseExport(text: string, name: string, options: LangfuseParseOptions = {}): ParsedTraces {
  const { records, problems } = readJsonRecords(text);
  const traces = new Map<string, Obj>();
  const looseObservations = new Map<string, Obj[]>();
  const looseScores = new Map<string, Obj[]>();
  const add = (value: unknown, where: string): void => {
    if (!isObject(value)) return void problems.push({ where, message: "not a JSON object; expected a Langfuse trace" });
    if (Array.isArray(value.data)) return void value.data.forEach((item, index) => add(item, `${where}, data[${index}]`));
    const traceId = str(value.traceId);
    if (Array.isArray(value.observations) || (str(value.id) && !traceId && ("timestamp" in value || "scores" in value))) {
      if (!str(value.id)) return void problems.push({ where, message: "a trace without `id`; skipped" });
      traces.set(value.id as string, value);
    } else if (traceId && typeof value.type === "string") looseObservations.set(traceId, [...(looseObservations.get(traceId) ?? []), value]);
    else if (traceId && ("dataType" in value || ("value" in value && typeof value.name === "string"))) looseScores.set(traceId, [...(looseScores.get(traceId) ?? []), value]);
    else problems.push({ where, message: "neither a Langfuse trace (`id` and `observations`), an observation (`type` and `traceId`) nor a score; skipped" });
  };
  for (const { line, value } of records) add(value, `line ${line}`);
  if (records.length === 0 && problems.length === 0) problems.push({ where: name, message: "the file is empty; expected Langfuse traces (JSON array or JSON lines)" });

  for (const id of new Set([...looseObservations.keys(), ...looseScores.keys()])) {
    const trace = traces.get(id) ?? { id };
    trace.observations = [...arr(trace.observations), ...(looseObservations.get(id) ?? [])];
    trace.scores = [...arr(trace.scores), ...(looseScores.get(id) ?? [])];
    traces.set(id, trace);
  }

  const out: ExternalTrace[] = [];
  for (const [id, trace] of traces) {
    try {
      out.push(traceFromLangfuse(trace, options, problems));
    } catch (error) {
      problems.push({ where: `trace ${id}`, message: `could not be read (${error instanceof Error ? error.message : String(error)}); the other traces are imported` });
    }
  }
  return { format: "langfuse", traces: out, problems };
}

/** The tool a span stands for by the documented rule, or null when it is not a tool span. */
function toolNameOf(observation: Obj): string | null {
  const type = str(observation.type);
  if (type === "TOOL") return str(observation.name) ?? "tool";
  if (type !== "SPAN") return null;
  const metadata = isObject(observation.metadata) ? observation.metadata : {};
  const fromMetadata = str(metadata.tool_name) ?? str(metadata.toolName) ?? str(metadata.tool);
  if (fromMetadata) return fromMetadata;
  const match = TOOL_SPAN_NAME.exec(str(observation.name) ?? "");
  return match?.[1]?.trim() || null;
}

/** A numeric usage field from `usageDetails`, else the deprecated `usage`. */
function usageOf(observation: Obj, details: string[], legacy: string[]): number | null {
  const usageDetails = isObject(observation.usageDetails) ? observation.usageDetails : {};
  for (const key of details) if (num(usageDetails[key]) !== null) return num(usageDetails[key]);
  const usage = isObject(observation.usage) ? observation.usage : {};
  for (const key of legacy) if (num(usage[key]) !== null) return num(usage[key]);
  return null;
}

function callOf(observation: Obj, stepIndex: number | null): ExternalCall {
  const input = observation.input;
  const messages = Array.isArray(input) ? toExternalMessages(input) : isObject(input) && Array.isArray(input.messages) ? toExternalMessages(input.messages) : typeof input === "string" ? [{ role: "user" as const, content: input }] : [];
  const costDetails = isObject(observation.costDetails) ? observation.costDetails : {};
  const latencySeconds = num(observation.latency);
  return {
    model: str(observation.model) ?? str(observation.providedModelName) ?? str(observation.name) ?? "unknown",
    messages,
    outputText: outputTextOf(observation.output) ?? "",
    inputTokens: usageOf(observation, ["input", "prompt_tokens", "input_tokens"], ["input", "promptTokens"]),
    outputTokens: usageOf(observation, ["output", "completion_tokens", "output_tokens"], ["output", "completionTokens"]),
    costUsd: num(costDetails.total) ?? num(observation.calculatedTotalCost) ?? num(observation.totalCost) ?? (isObject(observation.usage) ? num(observation.usage.totalCost) : null),
    latencyMs: spanMs(observation.startTime, observation.endTime) ?? (latencySeconds === null ? null : Math.round(latencySeconds * 1000)),
    stepIndex,
    sourceId: str(observation.id),
  };
}

function traceFromLangfuse(trace: Obj, options: LangfuseParseOptions, problems: TraceProblem[]): ExternalTrace {
  const traceId = str(trace.id) ?? "?";
  const listed = arr(trace.observations);
  const idsOnly = listed.length > 0 && listed.every((item) => typeof item === "string");
  if (idsOnly) problems.push({ where: `trace ${traceId}`, message: "its observations are ids only (a `GET /api/public/traces` list item); export each trace with `GET /api/public/traces/{traceId}` to include them" });
  const observations = (idsOnly ? [] : listed)
    .map((observation, index) => ({ observation, index }))
    .filter((entry): entry is { observation: Obj; index: number } => {
      if (isObject(entry.observation)) return true;
      problems.push({ where: `trace ${traceId}, observations[${entry.index}]`, message: "not a JSON object; skipped" });
      return false;
    })
    .sort((a, b) => (epochMs(a.observation.startTime) ?? Infinity) - (epochMs(b.observation.startTime) ?? Infinity) || a.index - b.index)
    .map((entry) => entry.observation);

  const steps: ExternalStep[] = [];
  const calls: ExternalCall[] = [];
  const unknown: RawRecord[] = [];
  let pending: { text: string; call: ExternalCall } | null = null;
  let lastFinal: { text: string; call: ExternalCall; startedAt: string | null; id: string | null } | null = null;
  for (const observation of observations) {
    const type = str(observation.type) ?? "UNKNOWN";
    const tool = toolNameOf(observation);
    if (type === "GENERATION") {
      const call = callOf(observation, null);
      calls.push(call);
      const turn = modelTurn(observation.output);
      pending = { text: turn.text, call };
      lastFinal = !turn.asksForTools && turn.text ? { text: turn.text, call, startedAt: isoTime(observation.startTime), id: str(observation.id) } : null;
    } else if (tool) {
      if (pending) pending.call.stepIndex ??= steps.length;
      const output = asText(observation.output);
      const failed = observation.level === "ERROR" ? str(observation.statusMessage) : null;
      steps.push({
        thought: pending?.text || null,
        action: { tool, input: asText(observation.input ?? {}) ?? "{}" },
        observation: output ?? (failed ? `Error: ${failed}` : null),
        answer: null,
        startedAt: isoTime(observation.startTime),
        sourceId: str(observation.id),
      });
      pending = pending ? { text: "", call: pending.call } : null;
      lastFinal = null;
    } else {
      unknown.push({ kind: `observation:${type}`, name: str(observation.name) ?? type, data: observation });
    }
  }
  if (lastFinal) {
    lastFinal.call.stepIndex = steps.length;
    steps.push({ thought: null, action: null, observation: null, answer: lastFinal.text, startedAt: lastFinal.startedAt, sourceId: lastFinal.id });
  }

  const verdict = scoreVerdict(arr(trace.scores).filter(isObject), options, (note) => problems.push({ where: `trace ${traceId}`, message: note }));
  const input = inputTextOf(trace.input);
  const metadata = isObject(trace.metadata) ? trace.metadata : {};
  const ends = observations.map((observation) => isoTime(observation.endTime)).filter((time): time is string => time !== null).sort();
  const starts = observations.map((observation) => isoTime(observation.startTime)).filter((time): time is string => time !== null).sort();
  return {
    format: "langfuse",
    traceId,
    title: str(trace.name) ?? `Langfuse trace ${traceId}`,
    taskId: str(metadata.datasetItemId) ?? str(metadata.dataset_item_id) ?? inputTaskId(input),
    input,
    target: asText(metadata.expected_output ?? metadata.expectedOutput ?? null),
    output: outputTextOf(trace.output),
    steps,
    calls,
    verdict,
    model: calls[0]?.model ?? null,
    unknown,
    startedAt: isoTime(trace.timestamp) ?? starts[0] ?? null,
    endedAt: ends[ends.length - 1] ?? null,
  };
}

/** The verdict from `scores`: the named score, else trace-level scores first, the first that reads. */
function scoreVerdict(scores: Obj[], options: LangfuseParseOptions, note: (text: string) => void): ExternalVerdict | null {
  const passLabels = options.passLabels ? new Set(options.passLabels.map((label) => label.toLowerCase())) : null;
  const read = (score: Obj): ReadVerdict => {
    const scoreName = str(score.name) ?? "score";
    const label = { name: scoreName, source: `Langfuse score \`${scoreName}\``, explanation: str(score.comment) };
    const dataType = str(score.dataType) ?? (typeof score.stringValue === "string" && num(score.value) === null ? "CATEGORICAL" : "NUMERIC");
    if (dataType === "TEXT" || dataType === "CORRECTION") return { verdict: null, note: null };
    if (dataType === "BOOLEAN") {
      const read = verdictFromValue(num(score.value) !== null ? num(score.value) === 1 : String(score.stringValue).toLowerCase() === "true", label);
      return { ...read, verdict: read.verdict && { ...read.verdict, raw: score.stringValue ?? score.value } };
    }
    if (dataType === "CATEGORICAL") {
      const value = str(score.stringValue) ?? asText(score.value) ?? "";
      if (passLabels) {
        const passed = passLabels.has(value.toLowerCase());
        return { verdict: { passed, score: passed ? 1 : 0, name: scoreName, source: label.source, explanation: label.explanation ?? "", raw: value }, note: null };
      }
      return verdictFromValue(value, label);
    }
    return verdictFromValue(score.value, label, { passThreshold: options.passThreshold });
  };
  const traceLevel = (score: Obj) => (str(score.observationId) ? 1 : 0);
  const ordered = [...scores].sort((a, b) => traceLevel(a) - traceLevel(b));
  const candidates = options.scoreName ? ordered.filter((score) => score.name === options.scoreName) : ordered;
  if (options.scoreName && candidates.length === 0 && scores.length > 0) note(`no score \`${options.scoreName}\` on this trace; no verdict`);
  for (const score of candidates) {
    const { verdict, note: text } = read(score);
    if (text) note(text);
    if (verdict) return verdict;
  }
  return null;
}
