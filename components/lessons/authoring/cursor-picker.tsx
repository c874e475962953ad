"use client";

import { useId } from "react";
import type { CursorSelector } from "@/lib/lessons/lesson-schema";
import { positionKey, type LogPosition } from "@/lib/lessons/log-positions";
import { LABEL, SELECT } from "./field-styles";

const RUN_LEVEL = "run";

/**
 * A step's cursor picked from selects that offer only what the log has: the trial (or the run
 * itself), the moment (event kind) in it, the ReAct step for thought / action / observation, and
 * whether the graph stops just before or just after that event.
 */
export function CursorPicker({ value, positions, onChange, testId }: { value: CursorSelector; positions: readonly LogPosition[]; onChange: (next: CursorSelector) => void; testId: string }) {
  const id = useId();
  const trialOf = (position: LogPosition) => (position.selector.trial === undefined ? RUN_LEVEL : String(position.selector.trial));
  const trials = [...new Set(positions.map(trialOf))];
  const currentTrial = value.trial === undefined ? RUN_LEVEL : String(value.trial);
  const inTrial = positions.filter((position) => trialOf(position) === currentTrial);
  const kinds = [...new Set(inTrial.map((position) => position.selector.event))];
  const ofKind = inTrial.filter((position) => position.selector.event === value.event);
  const stepped = ofKind.some((position) => position.selector.step !== undefined);
  const found = positions.find((position) => positionKey(position.selector) === positionKey(value));
  const pick = (position: LogPosition | undefined) => {
    if (position) onChange({ ...position.selector, edge: value.edge });
  };
  return (
    <div className="flex flex-wrap items-end gap-2" data-testid={testId}>
      <label className="flex flex-col gap-0.5">
        <span className={LABEL}>Trial</span>
        <select
          id={`${id}-trial`}
          className={SELECT}
          value={currentTrial}
          data-testid={`${testId}-trial`}
          onChange={(event) => pick(positions.find((position) => trialOf(position) === event.target.value))}
        >
          {trials.includes(currentTrial) ? null : <option value={currentTrial}>{currentTrial} (not in the log)</option>}
          {trials.map((trial) => (
            <option key={trial} value={trial}>
              {trial === RUN_LEVEL ? "The run" : `Trial ${trial}`}
            </option>
          ))}
        </select>
      </label>
      <label className="flex flex-col gap-0.5">
        <span className={LABEL}>Moment</span>
        <select className={SELECT} value={value.event} data-testid={`${testId}-event`} onChange={(event) => pick(inTrial.find((position) => position.selector.event === event.target.value))}>
          {kinds.includes(value.event) ? null : <option value={value.event}>{value.event} (not in this trial)</option>}
          {kinds.map((kind) => (
            <option key={kind} value={kind}>
              {kind}
            </option>
          ))}
        </select>
      </label>
      {stepped ? (
        <label className="flex flex-col gap-0.5">
          <span className={LABEL}>Step</span>
          <select className={SELECT} value={String(value.step ?? "")} data-testid={`${testId}-step`} onChange={(event) => pick(ofKind.find((position) => String(position.selector.step) === event.target.value))}>
            {ofKind.some((position) => String(position.selector.step) === String(value.step ?? "")) ? null : <option value={String(value.step ?? "")}>{String(value.step ?? "—")} (not in the log)</option>}
            {ofKind.map((position) => (
              <option key={String(position.selector.step)} value={String(position.selector.step)}>
                {position.label}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      <label className="flex flex-col gap-0.5">
        <span className={LABEL}>Show</span>
        <select className={SELECT} value={value.edge} data-testid={`${testId}-edge`} onChange={(event) => onChange({ ...value, edge: event.target.value === "before" ? "before" : "after" })}>
          <option value="after">up to and including it</option>
          <option value="before">everything before it</option>
        </select>
      </label>
      <p className="basis-full text-[11px] text-slate-600" data-testid={`${testId}-where`}>
        {found ? `The graph ${value.edge === "before" ? "stops just before" : "shows up to"} ${found.label} (event ${found.index + 1}).` : "This position is not in the run's log: pick one from the lists."}
      </p>
    </div>
  );
}
