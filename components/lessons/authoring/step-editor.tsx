"use client";

import { useMemo, type KeyboardEvent } from "react";
import type { RunEvent } from "@/lib/domain/events";
import type { DraftIssue } from "@/lib/lessons/lesson-draft";
import type { LessonStep, NodeSelector } from "@/lib/lessons/lesson-schema";
import { cursorBeforeAnswer, nodesAtCursor, positionAtCursor, type LogPosition, type QuestionTargets } from "@/lib/lessons/log-positions";
import { LessonResolveError, resolveCursor } from "@/lib/lessons/resolve-lesson";
import { Button } from "@/components/ui/button";
import { LessonMarkdown } from "../lesson-markdown";
import { CursorPicker } from "./cursor-picker";
import { FieldIssues } from "./field-issues";
import { CONTROL, LABEL, SELECT } from "./field-styles";
import { newQuestion, offeredKinds, QuestionEditor } from "./question-editor";

const sameNode = (a: NodeSelector, b: NodeSelector) => a.kind === b.kind && a.trial === b.trial && a.step === b.step;

function cursorOf(events: readonly RunEvent[], step: LessonStep): number | null {
  try {
    return resolveCursor(events, step.cursor);
  } catch (error) {
    if (error instanceof LessonResolveError) return null;
    throw error;
  }
}

/**
 * One step of the lesson being written: title, narration (Markdown, with a live preview), the
 * cursor (selects from the log, or the run's cursor), the nodes to spotlight (those drawn at that
 * cursor), an optional question (answer derived from the log) and an optional practice (failed
 * trials only). Move up / Move down (or Alt+↑ / Alt+↓ inside the step) reorder; Delete removes it.
 */
export function StepEditor({
  step,
  index,
  count,
  events,
  positions,
  targets,
  failedTrials,
  runCursor,
  issues,
  onChange,
  onMove,
  onDelete,
}: {
  step: LessonStep;
  index: number;
  count: number;
  events: readonly RunEvent[];
  positions: readonly LogPosition[];
  targets: QuestionTargets;
  failedTrials: readonly number[];
  /** The run page's replay cursor the page was opened with, or null. */
  runCursor: number | null;
  issues: (key: string) => DraftIssue[];
  onChange: (next: LessonStep) => void;
  onMove: (delta: -1 | 1) => void;
  onDelete: () => void;
}) {
  const testId = `step-${index + 1}`;
  const cursor = cursorOf(events, step);
  const nodes = useMemo(() => (cursor === null ? [] : nodesAtCursor(positions, cursor)), [positions, cursor]);
  const kinds = offeredKinds(targets);
  const key = `steps.${index}`;
  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (!event.altKey || (event.key !== "ArrowUp" && event.key !== "ArrowDown")) return;
    event.preventDefault();
    onMove(event.key === "ArrowUp" ? -1 : 1);
  };
  const toggleNode = (selector: NodeSelector, on: boolean) =>
    onChange({ ...step, spotlight: on ? [...step.spotlight.filter((entry) => !sameNode(entry, selector)), selector].slice(0, 8) : step.spotlight.filter((entry) => !sameNode(entry, selector)) });
  const hidden = step.spotlight.filter((selector) => !nodes.some((node) => sameNode(node.selector, selector)));
  return (
    <li className="rounded-lg border border-slate-200 bg-white p-3" data-testid="authoring-step" data-step-title={step.title} onKeyDown={onKeyDown} aria-label={`Step ${index + 1} of ${count}`}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 className="text-sm font-semibold text-slate-900">
          Step {index + 1} of {count}
        </h3>
        <div className="flex gap-1" role="group" aria-label={`Reorder or delete step ${index + 1} (Alt+↑ / Alt+↓ move it)`}>
          <Button size="sm" variant="ghost" onClick={() => onMove(-1)} disabled={index === 0} data-testid={`${testId}-up`} aria-keyshortcuts="Alt+ArrowUp">
            Move up
          </Button>
          <Button size="sm" variant="ghost" onClick={() => onMove(1)} disabled={index === count - 1} data-testid={`${testId}-down`} aria-keyshortcuts="Alt+ArrowDown">
            Move down
          </Button>
          <Button size="sm" variant="danger" onClick={onDelete} data-testid={`${testId}-delete`}>
            Delete step
          </Button>
        </div>
      </div>
      <div className="mt-2 space-y-3">
        <label className="flex flex-col gap-0.5">
          <span className={LABEL}>Title</span>
          <input className={SELECT} value={step.title} maxLength={120} data-testid={`${testId}-title`} onChange={(event) => onChange({ ...step, title: event.target.value })} />
          <FieldIssues issues={issues(`${key}.title`)} />
        </label>
        <div className="grid gap-2 md:grid-cols-2">
          <label className="flex flex-col gap-0.5">
            <span className={LABEL}>Narration (Markdown)</span>
            <textarea className={`${CONTROL} min-h-28 py-1`} rows={5} maxLength={4000} value={step.narration} data-testid={`${testId}-narration`} onChange={(event) => onChange({ ...step, narration: event.target.value })} />
          </label>
          <div className="flex flex-col gap-0.5">
            <span className={LABEL}>Preview</span>
            <div className="min-h-28 rounded-md border border-dashed border-slate-300 p-2 text-sm" data-testid={`${testId}-preview`}>
              {step.narration.trim() ? <LessonMarkdown text={step.narration} /> : <p className="text-slate-500">What the class reads at this step: write it on the left.</p>}
            </div>
          </div>
        </div>
        <FieldIssues issues={issues(`${key}.narration`)} />
        <div>
          <CursorPicker value={step.cursor} positions={positions} onChange={(next) => onChange({ ...step, cursor: next })} testId={`${testId}-cursor`} />
          {runCursor !== null ? (
            <Button
              size="sm"
              variant="ghost"
              className="mt-1"
              onClick={() => {
                const position = positionAtCursor(positions, runCursor);
                if (position) onChange({ ...step, cursor: { ...position.selector } });
              }}
            >
              Use the run&apos;s cursor (event {runCursor})
            </Button>
          ) : null}
          <FieldIssues issues={issues(`${key}.cursor`)} />
        </div>
        <fieldset>
          <legend className={LABEL}>Spotlight (the first is selected; at most 8)</legend>
          {nodes.length === 0 ? (
            <p className="text-xs text-slate-600">No node is drawn at this cursor yet: move the cursor later to spotlight one.</p>
          ) : (
            <ul className="mt-1 grid max-h-40 gap-0.5 overflow-y-auto text-xs sm:grid-cols-2" data-testid={`${testId}-nodes`}>
              {nodes.map((node) => {
                const on = step.spotlight.some((entry) => sameNode(entry, node.selector));
                return (
                  <li key={`${node.selector.kind}:${node.selector.trial}:${String(node.selector.step ?? "")}`}>
                    <label className="flex items-start gap-1.5">
                      <input type="checkbox" checked={on} disabled={!on && step.spotlight.length >= 8} onChange={(event) => toggleNode(node.selector, event.target.checked)} />
                      <span>{node.label}</span>
                    </label>
                  </li>
                );
              })}
            </ul>
          )}
          {hidden.length > 0 ? <p className="text-xs text-amber-800">{hidden.length} spotlit node(s) are not drawn at this cursor yet (they light up once shown).</p> : null}
          <FieldIssues issues={issues(`${key}.spotlight`)} />
        </fieldset>
        {step.question ? (
          <div className="space-y-1">
            <QuestionEditor
              question={step.question}
              events={events}
              targets={targets}
              testId={`${testId}-question`}
              onChange={(question) => onChange({ ...step, question })}
              onAskBeforeAnswer={() => step.question && onChange({ ...step, cursor: cursorBeforeAnswer(step.question) })}
            />
            <FieldIssues issues={issues(`${key}.question`)} />
            <Button size="sm" variant="ghost" onClick={() => onChange({ ...step, question: undefined })}>
              Remove the question
            </Button>
          </div>
        ) : kinds.length > 0 ? (
          <label className="flex items-center gap-2">
            <span className={LABEL}>Add a question</span>
            <select
              className={SELECT}
              value=""
              data-testid={`${testId}-add-question`}
              onChange={(event) => {
                const kind = kinds.find((entry) => entry === event.target.value);
                if (!kind) return;
                const question = newQuestion(kind, targets);
                onChange({ ...step, question, cursor: cursorBeforeAnswer(question) });
              }}
            >
              <option value="">— pick a kind —</option>
              {kinds.map((kind) => (
                <option key={kind} value={kind}>
                  {kind}
                </option>
              ))}
            </select>
          </label>
        ) : null}
        <div className="flex flex-wrap items-center gap-2 text-xs">
          {failedTrials.length === 0 ? (
            <span className="text-slate-600">No trial of this run failed, so there is no reflection to practise.</span>
          ) : (
            <>
              <label className="flex items-center gap-1.5">
                <input type="checkbox" checked={step.practice !== undefined} data-testid={`${testId}-practice`} onChange={(event) => onChange({ ...step, practice: event.target.checked ? { trial: failedTrials[0] ?? 1 } : undefined })} />
                <span>Practice: learners write their own reflection on failed trial</span>
              </label>
              {step.practice ? (
                <select className={SELECT} value={step.practice.trial} aria-label="Failed trial to practise on" onChange={(event) => onChange({ ...step, practice: { trial: Number(event.target.value) } })}>
                  {failedTrials.map((trial) => (
                    <option key={trial} value={trial}>
                      Trial {trial}
                    </option>
                  ))}
                </select>
              ) : null}
            </>
          )}
          <FieldIssues issues={issues(`${key}.practice`)} />
        </div>
      </div>
    </li>
  );
}
