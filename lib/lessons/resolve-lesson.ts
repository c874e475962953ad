import type { RunEvent } from "@/lib/domain/events";
import type { CursorSelector, LessonEventKind, NodeSelector } from "./lesson-schema";

/**
 * Resolves a lesson's named positions (lib/lessons/lesson-schema.ts) on a run's log:
 * a cursor selector to a cursor (events shown, lib/graph/replay-cursor.ts) and a node
 * selector to a graph node id (the event's id, lib/graph/derive-run-graph.ts). Pure.
 */

const EVENT_TYPE: Record<LessonEventKind, RunEvent["type"]> = {
  "run-start": "run-start",
  "trial-start": "trial-start",
  thought: "step-thought",
  action: "step-action",
  observation: "step-observation",
  evaluation: "evaluation-end",
  "trial-end": "trial-end",
  reflection: "reflection-end",
  "run-end": "run-end",
  "tree-select": "tree-select",
  "tree-expansion": "tree-node",
  "tree-value": "tree-value",
  "tree-follow": "tree-follow",
  "tree-backprop": "tree-backprop",
};

const NODE_EVENT: Record<NodeSelector["kind"], LessonEventKind> = {
  trial: "trial-start",
  thought: "thought",
  action: "action",
  observation: "observation",
  evaluation: "evaluation",
  reflection: "reflection",
};

/** A position or node the lesson names that the run does not have, in words a lesson author can act on. */
export class LessonResolveError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "LessonResolveError";
  }
}

function trialOf(event: RunEvent): number | null {
  const data: unknown = event.data;
  return typeof data === "object" && data !== null && "trial" in data && typeof data.trial === "number" ? data.trial : null;
}

function stepOf(event: RunEvent): number | null {
  const data: unknown = event.data;
  return typeof data === "object" && data !== null && "step" in data && typeof data.step === "number" ? data.step : null;
}

function describe(target: { event: LessonEventKind; trial?: number; step?: number | "last" }): string {
  return [target.event, target.trial !== undefined ? `trial ${target.trial}` : null, target.step !== undefined ? `step ${target.step}` : null].filter(Boolean).join(", ");
}

/** Indices of events by `type|trial|step`, `type|trial|` and `type||`: one pass, then every lookup is a map read. */
interface EventIndex {
  length: number;
  byKey: Map<string, number[]>;
}

/** Index per log array; rebuilt when the array's length changed (a log that grew in place). */
const indexes = new WeakMap<readonly RunEvent[], EventIndex>();

function indexOf(events: readonly RunEvent[]): EventIndex {
  const cached = indexes.get(events);
  if (cached && cached.length === events.length) return cached;
  const byKey = new Map<string, number[]>();
  const add = (key: string, index: number) => {
    const list = byKey.get(key);
    if (list) list.push(index);
    else byKey.set(key, [index]);
  };
  events.forEach((event, index) => {
    const trial = trialOf(event);
    const step = stepOf(event);
    add(`${event.type}||`, index);
    if (trial !== null) add(`${event.type}|${trial}|`, index);
    if (step !== null) add(`${event.type}|${trial ?? ""}|${step}`, index);
  });
  const built = { length: events.length, byKey };
  indexes.set(events, built);
  return built;
}

/**
 * Index in `events` of the first event of `event` kind in `trial` (and `step`; `last` = the
 * trial's last such step), or -1. Lookups go through an index of the log built once per array.
 */
export function findLessonEvent(events: readonly RunEvent[], target: { event: LessonEventKind; trial?: number; step?: number | "last" }): number {
  const type = EVENT_TYPE[target.event];
  const trial = target.trial !== undefined ? String(target.trial) : "";
  const key = typeof target.step === "number" ? `${type}|${trial}|${target.step}` : `${type}|${trial}|`;
  const matches = indexOf(events).byKey.get(key);
  if (!matches || matches.length === 0) return -1;
  return target.step === "last" ? (matches.at(-1) ?? -1) : (matches[0] ?? -1);
}

/**
 * The cursor a selector names: the number of events shown just `after` the event
 * (its index + 1) or just `before` it (its index).
 * @throws LessonResolveError when the run has no such event.
 */
export function resolveCursor(events: readonly RunEvent[], selector: CursorSelector): number {
  const index = findLessonEvent(events, selector);
  if (index === -1) throw new LessonResolveError(`The run has no ${describe(selector)} event (it has ${events.length} events). Point the step at an event the run records.`);
  return selector.edge === "before" ? index : index + 1;
}

/**
 * The graph node id a selector names (the id of its event).
 * @throws LessonResolveError when the run has no such node.
 */
export function resolveNode(events: readonly RunEvent[], selector: NodeSelector): string {
  const target = { event: NODE_EVENT[selector.kind], trial: selector.trial, step: selector.step };
  const index = findLessonEvent(events, target);
  const event = events[index];
  if (!event) throw new LessonResolveError(`The run has no ${selector.kind} node in ${describe(target).replace(/^[^,]+, /, "")}.`);
  return event.id;
}

/** {@link resolveNode} for a list, skipping (not throwing on) nodes the shown prefix does not hold yet. */
export function resolveSpotlight(events: readonly RunEvent[], selectors: readonly NodeSelector[]): string[] {
  const ids: string[] = [];
  for (const selector of selectors) {
    try {
      ids.push(resolveNode(events, selector));
    } catch (error) {
      if (!(error instanceof LessonResolveError)) throw error;
    }
  }
  return ids;
}
