import type { RunEvent } from "@/lib/domain/events";
import { lessonEventKinds, type CursorSelector, type LessonEventKind, type LessonQuestion, type NodeSelector } from "./lesson-schema";

/**
 * What a run's log offers a lesson author (the authoring page's selects): the positions a step's
 * cursor can name, the nodes shown at a cursor, the trials a question or a practice can be about.
 * Only what the log has is offered, and every selector offered resolves to the event it was made
 * from (resolve-lesson.ts finds the first event of a kind, so later duplicates are left out). Pure.
 */

/** One position a cursor can name: the selector (edge `after`), the event's index, and words for it. */
export interface LogPosition {
  selector: CursorSelector;
  /** Index of the event in the log (the cursor after it is `index + 1`). */
  index: number;
  label: string;
}

/** Lesson event kind of each event type a lesson can point at (resolve-lesson.ts's table, reversed). */
const KIND_OF: Partial<Record<RunEvent["type"], LessonEventKind>> = {
  "run-start": "run-start",
  "trial-start": "trial-start",
  "step-thought": "thought",
  "step-action": "action",
  "step-observation": "observation",
  "evaluation-end": "evaluation",
  "trial-end": "trial-end",
  "reflection-end": "reflection",
  "run-end": "run-end",
  "tree-select": "tree-select",
  "tree-node": "tree-expansion",
  "tree-value": "tree-value",
  "tree-follow": "tree-follow",
  "tree-backprop": "tree-backprop",
};

const STEPPED = new Set<LessonEventKind>(["thought", "action", "observation"]);

function numberField(event: RunEvent, field: "trial" | "step"): number | null {
  const data: unknown = event.data;
  if (typeof data !== "object" || data === null || !(field in data)) return null;
  const value = (data as Record<string, unknown>)[field];
  return typeof value === "number" ? value : null;
}

function excerpt(event: RunEvent): string {
  const data: unknown = event.data;
  const text = typeof data === "object" && data !== null && "text" in data && typeof data.text === "string" ? data.text : null;
  if (event.type === "evaluation-end") return event.data.verdict.toUpperCase();
  if (event.type === "run-end") return event.data.outcome;
  if (!text) return "";
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > 60 ? `${flat.slice(0, 59)}…` : flat;
}

/** Words for a selector: `trial 1 · action 2: Search[x]`. */
export function describePosition(selector: Pick<CursorSelector, "event" | "trial" | "step">, detail = ""): string {
  const where = [selector.trial !== undefined ? `trial ${selector.trial}` : null, `${selector.event}${typeof selector.step === "number" ? ` ${selector.step}` : ""}`].filter(Boolean).join(" · ");
  return detail ? `${where}: ${detail}` : where;
}

/** Every position of the log a cursor can name, in log order (first event of each kind, trial and step). */
export function logPositions(events: readonly RunEvent[]): LogPosition[] {
  const positions: LogPosition[] = [];
  const seen = new Set<string>();
  events.forEach((event, index) => {
    const kind = KIND_OF[event.type];
    if (!kind) return;
    const runLevel = kind === "run-start" || kind === "run-end";
    const trial = numberField(event, "trial");
    if (!runLevel && trial === null) return;
    const step = STEPPED.has(kind) ? numberField(event, "step") : null;
    if (STEPPED.has(kind) && step === null) return;
    const selector: CursorSelector = { event: kind, edge: "after", ...(runLevel ? {} : { trial: trial ?? undefined }), ...(step !== null ? { step } : {}) };
    // Only the first event of a kind, trial and step can be named (findLessonEvent finds the first).
    const key = positionKey(selector);
    if (seen.has(key)) return;
    seen.add(key);
    positions.push({ selector, index, label: describePosition(selector, excerpt(event)) });
  });
  return positions;
}

/** The position whose cursor (after it) is closest at or before `cursor` (events shown): where "add a step at the run's cursor" lands. */
export function positionAtCursor(positions: readonly LogPosition[], cursor: number): LogPosition | null {
  let best: LogPosition | null = null;
  for (const position of positions) if (position.index + 1 <= cursor) best = position;
  return best ?? positions[0] ?? null;
}

/** The key of a selector without its edge, to match it against {@link logPositions}. */
export function positionKey(selector: Pick<CursorSelector, "event" | "trial" | "step">): string {
  return `${selector.event}|${selector.trial ?? ""}|${selector.step ?? ""}`;
}

/** Node kinds a spotlight can name, with the event kind that draws each. */
const NODE_KINDS: ReadonlyArray<[NodeSelector["kind"], LessonEventKind]> = [
  ["trial", "trial-start"],
  ["thought", "thought"],
  ["action", "action"],
  ["observation", "observation"],
  ["evaluation", "evaluation"],
  ["reflection", "reflection"],
];

/** The nodes drawn once `cursor` events are shown, as spotlight selectors with words, in log order. */
export function nodesAtCursor(positions: readonly LogPosition[], cursor: number): Array<{ selector: NodeSelector; label: string }> {
  const nodes: Array<{ selector: NodeSelector; label: string }> = [];
  for (const position of positions) {
    if (position.index >= cursor || position.selector.trial === undefined) continue;
    const kind = NODE_KINDS.find(([, event]) => event === position.selector.event)?.[0];
    if (!kind) continue;
    const selector: NodeSelector = { kind, trial: position.selector.trial, ...(typeof position.selector.step === "number" ? { step: position.selector.step } : {}) };
    nodes.push({ selector, label: position.label.replace(/^trial (\d+) · trial-start/, "trial $1 (header)") });
  }
  return nodes;
}

/** Trials whose Evaluator verdict was fail: where a practice may be set. */
export function failedTrialsOf(events: readonly RunEvent[]): number[] {
  const failed = new Set<number>();
  for (const event of events) if (event.type === "evaluation-end" && event.data.verdict === "fail") failed.add(event.data.trial);
  return [...failed].sort((a, b) => a - b);
}

/** What each of the four question kinds can be about in this log (empty: the kind is not offered). */
export interface QuestionTargets {
  /** Trials with an evaluation; `hidden` when it has hidden tests too. */
  verdict: Array<{ trial: number; hidden: boolean }>;
  /** Logged actions by trial and step. */
  nextAction: Array<{ trial: number; step: number; text: string }>;
  /** Trials ≥ 2 whose first action and the previous trial's are both logged. */
  firstAction: number[];
  /** True once the run has ended (the curve needs the whole run). */
  curve: boolean;
}

/** The targets of {@link QuestionTargets} in `events`. */
export function questionTargets(events: readonly RunEvent[]): QuestionTargets {
  const verdict: QuestionTargets["verdict"] = [];
  const nextAction: QuestionTargets["nextAction"] = [];
  const firsts = new Set<number>();
  for (const event of events) {
    if (event.type === "evaluation-end" && !verdict.some((entry) => entry.trial === event.data.trial)) verdict.push({ trial: event.data.trial, hidden: Boolean(event.data.hiddenTests) });
    if (event.type === "step-action" && !nextAction.some((entry) => entry.trial === event.data.trial && entry.step === event.data.step)) {
      nextAction.push({ trial: event.data.trial, step: event.data.step, text: event.data.text.trim() });
      if (event.data.step === 1) firsts.add(event.data.trial);
    }
  }
  const firstAction = [...firsts].filter((trial) => trial >= 2 && firsts.has(trial - 1)).sort((a, b) => a - b);
  return { verdict, nextAction, firstAction, curve: events.some((event) => event.type === "run-end") };
}

/** The cursor that asks `question` just before its answer shows (the step's cursor for a new question). */
export function cursorBeforeAnswer(question: LessonQuestion): CursorSelector {
  switch (question.kind) {
    case "evaluator-verdict":
      return { event: "evaluation", trial: question.trial, edge: "before" };
    case "next-action":
      return { event: "action", trial: question.trial, step: question.step, edge: "before" };
    case "reflection-changes-first-action":
      return { event: "action", trial: question.trial, step: 1, edge: "before" };
    case "curve":
      return { event: "run-end", edge: "before" };
  }
}

/** Every lesson event kind, for a select's order. */
export const EVENT_KIND_ORDER: readonly LessonEventKind[] = lessonEventKinds;
