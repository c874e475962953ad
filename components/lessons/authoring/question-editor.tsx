"use client";

import { useMemo } from "react";
import type { RunEvent } from "@/lib/domain/events";
import type { LessonQuestion } from "@/lib/lessons/lesson-schema";
import { derivePrediction, type DerivedPrediction } from "@/lib/lessons/predictions";
import { LessonResolveError } from "@/lib/lessons/resolve-lesson";
import type { QuestionTargets } from "@/lib/lessons/log-positions";
import { Button } from "@/components/ui/button";
import { CONTROL, LABEL, SELECT } from "./field-styles";

type Kind = LessonQuestion["kind"];

const KIND_LABELS: Record<Kind, string> = {
  "evaluator-verdict": "Will the Evaluator pass this trial?",
  "next-action": "Which action comes next?",
  "reflection-changes-first-action": "Does the reflection change the first action?",
  curve: "In which trial will it first succeed?",
};

/** The kinds this log can ask, in the schema's order. */
export function offeredKinds(targets: QuestionTargets): Kind[] {
  const kinds: Kind[] = [];
  if (targets.verdict.length > 0) kinds.push("evaluator-verdict");
  if (targets.nextAction.length > 0) kinds.push("next-action");
  if (targets.firstAction.length > 0) kinds.push("reflection-changes-first-action");
  if (targets.curve) kinds.push("curve");
  return kinds;
}

/** A new question of `kind` at the log's first target of that kind (prompt and explanation to be written). */
export function newQuestion(kind: Kind, targets: QuestionTargets): LessonQuestion {
  const text = { prompt: "", explanation: "" };
  switch (kind) {
    case "evaluator-verdict":
      return { kind, trial: targets.verdict[0]?.trial ?? 1, tests: "internal", ...text };
    case "next-action": {
      const first = targets.nextAction[0];
      return { kind, trial: first?.trial ?? 1, step: first?.step ?? 1, distractors: [""], ...text };
    }
    case "reflection-changes-first-action":
      return { kind, trial: targets.firstAction[0] ?? 2, ...text };
    case "curve":
      return { kind, ...text };
  }
}

function derived(events: readonly RunEvent[], question: LessonQuestion): DerivedPrediction | string {
  try {
    return derivePrediction(events, question);
  } catch (error) {
    if (error instanceof LessonResolveError) return error.message;
    throw error;
  }
}

/**
 * A step's question: its kind and what it is about (selects offering only what the log has), the
 * prompt, the explanation and — for "which action comes next" — the wrong choices. The choices and
 * the right answer are DERIVED from the log (lib/lessons/predictions.ts) and shown read-only.
 */
export function QuestionEditor({
  question,
  events,
  targets,
  onChange,
  onAskBeforeAnswer,
  testId,
}: {
  question: LessonQuestion;
  events: readonly RunEvent[];
  targets: QuestionTargets;
  onChange: (next: LessonQuestion) => void;
  onAskBeforeAnswer: () => void;
  testId: string;
}) {
  const prediction = useMemo(() => derived(events, question), [events, question]);
  const kinds = offeredKinds(targets);
  return (
    <div className="space-y-2 rounded-md border border-violet-200 bg-violet-50/40 p-3" data-testid={testId}>
      <div className="flex flex-wrap items-end gap-2">
        <label className="flex flex-col gap-0.5">
          <span className={LABEL}>Question</span>
          <select className={SELECT} value={question.kind} data-testid={`${testId}-kind`} onChange={(event) => onChange(newQuestion(kinds.find((kind) => kind === event.target.value) ?? question.kind, targets))}>
            {kinds.map((kind) => (
              <option key={kind} value={kind}>
                {KIND_LABELS[kind]}
              </option>
            ))}
          </select>
        </label>
        {question.kind === "evaluator-verdict" ? (
          <>
            <label className="flex flex-col gap-0.5">
              <span className={LABEL}>Trial</span>
              <select className={SELECT} value={question.trial} data-testid={`${testId}-trial`} onChange={(event) => onChange({ ...question, trial: Number(event.target.value), tests: "internal" })}>
                {targets.verdict.map((entry) => (
                  <option key={entry.trial} value={entry.trial}>
                    Trial {entry.trial}
                  </option>
                ))}
              </select>
            </label>
            {targets.verdict.find((entry) => entry.trial === question.trial)?.hidden ? (
              <label className="flex flex-col gap-0.5">
                <span className={LABEL}>Tests</span>
                <select className={SELECT} value={question.tests} onChange={(event) => onChange({ ...question, tests: event.target.value === "hidden" ? "hidden" : "internal" })}>
                  <option value="internal">the Evaluator&apos;s (internal) tests</option>
                  <option value="hidden">the hidden tests</option>
                </select>
              </label>
            ) : null}
          </>
        ) : null}
        {question.kind === "next-action" ? (
          <label className="flex flex-col gap-0.5">
            <span className={LABEL}>Action</span>
            <select
              className={SELECT}
              value={`${question.trial}:${question.step}`}
              data-testid={`${testId}-action`}
              onChange={(event) => {
                const [trial, step] = event.target.value.split(":").map(Number);
                onChange({ ...question, trial: trial ?? question.trial, step: step ?? question.step });
              }}
            >
              {targets.nextAction.map((entry) => (
                <option key={`${entry.trial}:${entry.step}`} value={`${entry.trial}:${entry.step}`}>
                  Trial {entry.trial} · step {entry.step}
                </option>
              ))}
            </select>
          </label>
        ) : null}
        {question.kind === "reflection-changes-first-action" ? (
          <label className="flex flex-col gap-0.5">
            <span className={LABEL}>Trial</span>
            <select className={SELECT} value={question.trial} onChange={(event) => onChange({ ...question, trial: Number(event.target.value) })}>
              {targets.firstAction.map((trial) => (
                <option key={trial} value={trial}>
                  Trial {trial} (against trial {trial - 1})
                </option>
              ))}
            </select>
          </label>
        ) : null}
        <Button size="sm" onClick={onAskBeforeAnswer} data-testid={`${testId}-before`} title="Sets the step's cursor just before the event that answers the question">
          Ask just before the answer
        </Button>
      </div>
      <label className="flex flex-col gap-0.5">
        <span className={LABEL}>Prompt (Markdown)</span>
        <textarea className={`${CONTROL} py-1`} rows={2} maxLength={4000} value={question.prompt} data-testid={`${testId}-prompt`} onChange={(event) => onChange({ ...question, prompt: event.target.value })} />
      </label>
      {question.kind === "next-action" ? (
        <fieldset className="space-y-1">
          <legend className={LABEL}>Wrong choices (1 to 3; the right one comes from the log)</legend>
          {question.distractors.map((text, index) => (
            <div key={index} className="flex gap-1">
              <input
                className={`${SELECT} flex-1`}
                value={text}
                maxLength={300}
                aria-label={`Wrong choice ${index + 1}`}
                data-testid={`${testId}-distractor-${index + 1}`}
                onChange={(event) => onChange({ ...question, distractors: question.distractors.map((entry, position) => (position === index ? event.target.value : entry)) })}
              />
              {question.distractors.length > 1 ? (
                <Button size="sm" variant="ghost" aria-label={`Remove wrong choice ${index + 1}`} onClick={() => onChange({ ...question, distractors: question.distractors.filter((_, position) => position !== index) })}>
                  Remove
                </Button>
              ) : null}
            </div>
          ))}
          {question.distractors.length < 3 ? (
            <Button size="sm" variant="ghost" onClick={() => onChange({ ...question, distractors: [...question.distractors, ""] })}>
              Add a wrong choice
            </Button>
          ) : null}
        </fieldset>
      ) : null}
      <label className="flex flex-col gap-0.5">
        <span className={LABEL}>Explanation, shown after the answer (Markdown)</span>
        <textarea className={`${CONTROL} py-1`} rows={2} maxLength={4000} value={question.explanation} data-testid={`${testId}-explanation`} onChange={(event) => onChange({ ...question, explanation: event.target.value })} />
      </label>
      <div className="rounded border border-slate-200 bg-white p-2 text-xs" data-testid={`${testId}-derived`}>
        <p className="font-medium text-slate-800">From the log (read-only)</p>
        {typeof prediction === "string" ? (
          <p className="text-red-700" role="alert">
            {prediction}
          </p>
        ) : (
          <>
            <ul className="mt-1 space-y-0.5">
              {prediction.choices.map((choice) => (
                <li key={choice.id} data-correct={choice.id === prediction.answer || undefined} className={choice.id === prediction.answer ? "font-semibold text-green-800" : "text-slate-700"}>
                  {choice.id === prediction.answer ? "✓ " : "· "}
                  {choice.label}
                  {choice.id === prediction.answer ? " (the answer)" : ""}
                </li>
              ))}
            </ul>
            <p className="mt-1 text-slate-600" data-testid={`${testId}-fact`}>
              {prediction.fact} Revealed at event {prediction.revealCursor}.
            </p>
          </>
        )}
      </div>
    </div>
  );
}
