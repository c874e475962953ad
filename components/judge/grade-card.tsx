"use client";

import Link from "next/link";
import { useState } from "react";
import type { GradeRequest, JudgedTrial } from "@/lib/domain/judge-grades";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { JudgeOpinionBadge } from "@/components/inspector/judge-evaluation-view";

type Verdict = "pass" | "fail";

/**
 * One judged trial to grade: the task and the answer; the person picks pass or fail (and, optionally,
 * pass/fail per criterion, with a note). The judge's verdict and scores stay hidden until the trial is
 * graded (blind grading), then show beside the person's grade.
 */
export function GradeCard({ trial, onGrade, saving }: { trial: JudgedTrial; onGrade: (grade: GradeRequest) => void; saving: boolean }) {
  const [criteria, setCriteria] = useState<Record<string, Verdict>>(trial.grade?.criteria ?? {});
  const [note, setNote] = useState(trial.grade?.note ?? "");
  const graded = trial.grade !== null;
  const submit = (verdict: Verdict) =>
    onGrade({ runId: trial.runId, branchId: trial.branchId, trial: trial.trial, verdict, criteria: Object.keys(criteria).length > 0 ? criteria : null, note });
  const headingId = `grade-${trial.runId}-${trial.branchId}-${trial.trial}`;
  return (
    <article
      aria-labelledby={headingId}
      className="space-y-2 rounded-lg border border-slate-200 bg-white p-3"
      data-testid="grade-card"
      data-graded={graded}
      data-run-id={trial.runId}
      data-trial={trial.trial}
    >
      <header className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 id={headingId} className="text-sm font-semibold text-slate-900">
          {trial.taskTitle} <span className="font-normal text-slate-500">· trial {trial.trial}</span>
        </h3>
        <Link href={`/runs/${encodeURIComponent(trial.runId)}`} className="text-xs text-sky-800 underline">
          open run
        </Link>
      </header>
      <details className="text-xs text-slate-700">
        <summary className="cursor-pointer text-slate-600">Task prompt</summary>
        <pre className="mt-1 whitespace-pre-wrap font-sans">{trial.prompt}</pre>
      </details>
      <div>
        <p className="text-xs font-medium text-slate-600">Answer</p>
        <pre tabIndex={0} className="mt-0.5 max-h-48 overflow-y-auto whitespace-pre-wrap rounded bg-slate-50 p-2 font-sans text-sm text-slate-900" data-testid="grade-answer">
          {trial.answer || "(empty)"}
        </pre>
      </div>
      <details className="text-xs">
        <summary className="cursor-pointer text-slate-600">Grade per criterion (optional)</summary>
        <ul className="mt-1 space-y-1">
          {trial.criteria.map((criterion) => (
            <li key={criterion.id} className="flex flex-wrap items-center gap-2">
              <span className="min-w-0 flex-1 text-slate-800">
                <strong>{criterion.id}</strong> — {criterion.description}
              </span>
              {(["pass", "fail"] as const).map((value) => (
                <label key={value} className="flex items-center gap-1">
                  <input
                    type="radio"
                    name={`${headingId}-${criterion.id}`}
                    checked={criteria[criterion.id] === value}
                    onChange={() => setCriteria((current) => ({ ...current, [criterion.id]: value }))}
                  />
                  {value}
                </label>
              ))}
            </li>
          ))}
        </ul>
      </details>
      <label className="block text-xs text-slate-600">
        Note (optional)
        <input value={note} onChange={(event) => setNote(event.target.value)} maxLength={2000} className="mt-0.5 block w-full rounded border border-slate-300 px-2 py-1 text-sm text-slate-900" />
      </label>
      <div className="flex flex-wrap items-center gap-2">
        <span className="text-xs text-slate-600">Your verdict:</span>
        <Button size="sm" variant={trial.grade?.verdict === "pass" ? "primary" : "secondary"} disabled={saving} onClick={() => submit("pass")} data-testid="grade-pass">
          Pass
        </Button>
        <Button size="sm" variant={trial.grade?.verdict === "fail" ? "primary" : "secondary"} disabled={saving} onClick={() => submit("fail")} data-testid="grade-fail">
          Fail
        </Button>
        {graded ? (
          <span className="ml-auto flex flex-wrap items-center gap-2 text-xs" data-testid="grade-judge">
            <span>
              Judge: <strong>{trial.judgeVerdict}</strong> ({trial.weightedScore.toFixed(2)} vs {trial.threshold.toFixed(2)})
            </span>
            <Badge tone={trial.grade?.verdict === trial.judgeVerdict ? "green" : "red"} data-testid="grade-agrees">
              {trial.grade?.verdict === trial.judgeVerdict ? "agrees" : "disagrees"}
            </Badge>
            <JudgeOpinionBadge />
          </span>
        ) : (
          <span className="ml-auto text-xs text-slate-500">The judge&apos;s verdict shows after you grade.</span>
        )}
      </div>
    </article>
  );
}
