"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import type { GradeRequest } from "@/lib/domain/judge-grades";
import { judgeGradeKeys, judgeGradesQuery, postGrade } from "@/lib/query/judge-grade-queries";
import { EmptyState, Notice } from "@/components/ui/notice";
import { Spinner } from "@/components/ui/spinner";
import { AgreementSummary } from "./agreement-summary";
import { GradeCard } from "./grade-card";

/**
 * The judge-agreement view: a person grades a sample of trials the LLM judge
 * scored (open tasks), and sees how often they agree — percent agreement and Cohen's kappa with the
 * confusion table. Ungraded trials come first; the judge's verdict shows only after grading.
 */
export function JudgeAgreementView() {
  const client = useQueryClient();
  const overview = useQuery(judgeGradesQuery());
  const grade = useMutation({
    mutationFn: (request: GradeRequest) => postGrade(request),
    onSuccess: () => client.invalidateQueries({ queryKey: judgeGradeKeys.all }),
  });
  return (
    <main className="mx-auto w-full max-w-5xl flex-1 space-y-4 px-4 py-6" data-testid="judge-agreement">
      <header className="space-y-1">
        <h1 className="text-lg font-semibold text-slate-900">Judge agreement</h1>
        <p className="max-w-3xl text-xs leading-relaxed text-slate-600">
          On open tasks the Evaluator is an LLM judge scoring a rubric — a model&apos;s opinion, not an oracle. Grade some of its trials yourself to see how far to
          trust it: agreement is the share of trials where your verdict equals the judge&apos;s, and Cohen&apos;s κ corrects it for agreement by chance.
        </p>
      </header>
      {grade.error ? (
        <Notice tone="error" title="The grade was not saved">
          {grade.error.message} Try again; your other grades are kept.
        </Notice>
      ) : null}
      {overview.isPending ? (
        <p className="flex items-center gap-2 text-sm text-slate-600">
          <Spinner className="size-4" /> Loading judged trials…
        </p>
      ) : overview.error ? (
        <Notice tone="error" title="Could not load the judged trials">
          {overview.error.message} Reload the page to try again.
        </Notice>
      ) : (
        <>
          <AgreementSummary data={overview.data} />
          {overview.data.trials.length === 0 ? (
            <EmptyState title="No judged trials yet" action={<Link href="/" className="text-sm text-sky-800 underline">Start a run</Link>}>
              Run an open task (family “Open tasks (LLM judge)”) with any model — the demo model works offline — and its judged trials appear here to grade.
            </EmptyState>
          ) : (
            <section aria-label="Judged trials to grade" className="space-y-3">
              <p className="text-xs text-slate-600">
                {overview.data.totalJudged} judged trial{overview.data.totalJudged === 1 ? "" : "s"}
                {overview.data.totalJudged > overview.data.trials.length ? `, the newest ${overview.data.trials.length} shown` : ""} · {overview.data.graded} graded
              </p>
              {overview.data.trials.map((trial) => (
                <GradeCard key={`${trial.runId}:${trial.branchId}:${trial.trial}:${trial.grade?.gradedAt ?? ""}`} trial={trial} saving={grade.isPending} onGrade={(request) => grade.mutate(request)} />
              ))}
            </section>
          )}
        </>
      )}
    </main>
  );
}
