"use client";

import { useQuery } from "@tanstack/react-query";
import { diffWords } from "diff";
import Link from "next/link";
import type { AbResult } from "@/lib/domain/template-library";
import { isNotFound } from "@/lib/query";
import { pairedTestSentence, solvedText, TEMPLATE_ROLE_NAME } from "@/lib/query/template-library-view";
import { abResultQuery, templateVersionQuery } from "@/lib/query/template-queries";
import { WordDiff, WordDiffKey } from "@/components/compare/word-diff";
import { ArmSwatch } from "@/components/experiments/labels";
import { PageSection } from "@/components/ui/page-section";
import { Notice } from "@/components/ui/notice";

/** The template version an arm used, linked to its template's page. */
function VersionLink({ versionId }: { versionId: string }) {
  const version = useQuery(templateVersionQuery(versionId));
  if (!version.data) return <code className="font-mono text-[11px]">{versionId}</code>;
  const { template, version: v } = version.data;
  return (
    <Link href={`/templates/${encodeURIComponent(template.id)}`} className="text-sky-800 hover:underline" data-testid="ab-version-link">
      {template.name} v{v.number}
    </Link>
  );
}

/** One task where the arms differ: each arm's outcome and its reflections, side by side, with a word diff of the last ones. */
function DifferingTask({ task, result, title }: { task: AbResult["differingTasks"][number]; result: AbResult; title: string | undefined }) {
  const lastA = task.a.reflections.at(-1) ?? "";
  const lastB = task.b.reflections.at(-1) ?? "";
  return (
    <li className="space-y-2 px-4 py-3" data-testid="ab-differing-task" data-task-id={task.taskId}>
      <p className="text-sm">
        <span className="font-mono text-xs text-slate-500">{task.taskId}</span> {title ? <span className="text-slate-900">{title}</span> : null}
      </p>
      <div className="grid gap-3 md:grid-cols-2">
        {(
          [
            [result.armA, task.a, 0],
            [result.armB, task.b, 1],
          ] as const
        ).map(([arm, outcome, index]) => (
          <div key={arm.label} className="space-y-1 rounded-md border border-slate-200 p-2" data-testid="ab-arm-outcome" data-arm={arm.label} data-solved-at={outcome.solvedAtTrial ?? ""}>
            <p className="flex items-center gap-2 text-xs">
              <ArmSwatch index={index} />
              <strong className="text-slate-900">{arm.label}</strong>
              <span className={outcome.solvedAtTrial === null ? "text-red-800" : "text-green-800"}>{solvedText(outcome.solvedAtTrial)}</span>
              <Link href={`/runs/${encodeURIComponent(outcome.runId)}`} className="ml-auto text-sky-800 hover:underline">
                Open run
              </Link>
            </p>
            {outcome.reflections.length === 0 ? (
              <p className="text-[11px] text-slate-500">No reflection (solved before any was needed, or the strategy writes none).</p>
            ) : (
              <ol className="space-y-1 text-xs text-slate-800">
                {outcome.reflections.map((text, at) => (
                  <li key={at} className="rounded bg-amber-50 px-2 py-1" data-testid="ab-reflection">
                    <span className="mr-1 text-[11px] font-medium text-amber-900">After trial {at + 1}:</span>
                    {text}
                  </li>
                ))}
              </ol>
            )}
          </div>
        ))}
      </div>
      {lastA && lastB ? (
        <details className="text-xs">
          <summary className="cursor-pointer select-none text-slate-600">Word diff of the last reflections ({result.armA.label} → {result.armB.label})</summary>
          <div className="mt-1 space-y-1">
            <WordDiffKey />
            <p className="rounded border border-slate-200 p-2">
              <WordDiff changes={diffWords(lastA, lastB)} />
            </p>
          </div>
        </details>
      ) : null}
    </li>
  );
}

/**
 * The A/B part of an experiment's results page, for experiments created by
 * "Compare versions": which version each arm used, the paired test over tasks
 * with its sample size (so one task's difference is not read as a win), and
 * every task where the arms differ with their reflections side by side.
 * Renders nothing for other experiments (`GET /api/experiments/:id/ab` → 404).
 */
export function AbResultSection({
  experimentId,
  running,
  done,
  titles,
}: {
  experimentId: string;
  running: boolean;
  /** Runs of the experiment ended so far (the read-out is fetched again whenever it grows). */
  done: number;
  titles: ReadonlyMap<string, string>;
}) {
  const query = useQuery(abResultQuery(experimentId, done));
  if (query.isPending || isNotFound(query.error)) return null;
  if (query.error || !query.data) {
    return <Notice tone="error">Could not load the A/B comparison: {query.error?.message ?? "no answer"} Reload the page to try again.</Notice>;
  }
  const result = query.data;
  const test = result.pairedTest;
  return (
    <PageSection title={`A/B: ${TEMPLATE_ROLE_NAME[result.role]} template versions`} id="ab-heading">
      <div className="space-y-3" data-testid="ab-result">
        <ul className="flex flex-wrap gap-x-6 gap-y-1 text-xs text-slate-700">
          {[result.armA, result.armB].map((arm, index) => (
            <li key={arm.label} className="flex items-center gap-2" data-testid="ab-arm" data-version-id={arm.versionId}>
              <ArmSwatch index={index} />
              <strong className="text-slate-900">{arm.label}</strong> uses <VersionLink versionId={arm.versionId} />
            </li>
          ))}
        </ul>
        <p className="rounded-md border border-slate-200 bg-slate-50 px-3 py-2 text-sm text-slate-900" data-testid="ab-paired-test" data-n={test.n} data-p={test.pValue}>
          <strong>Paired test over tasks:</strong> {pairedTestSentence(test, { a: result.armA.label, b: result.armB.label })}
          <span className="mt-0.5 block text-[11px] text-slate-600">
            {test.method}. Only tasks one arm solved and the other did not count; with few such tasks no difference can be told from chance.
            {running ? " The experiment is still running: these figures grow as runs end." : ""}
          </span>
        </p>
        {result.differingTasks.length === 0 ? (
          <p className="text-xs text-slate-600" data-testid="ab-no-differences">
            No task differs between the arms{running ? " yet" : ""}: both solved (or failed) the same tasks at the same trials.
          </p>
        ) : (
          <>
            <p className="text-xs text-slate-600">
              {result.differingTasks.length} {result.differingTasks.length === 1 ? "task differs" : "tasks differ"} (solved by one arm only, or at different trials):
            </p>
            <ul className="divide-y divide-slate-100 rounded-md border border-slate-200" data-testid="ab-differing-tasks">
              {result.differingTasks.map((task) => (
                <DifferingTask key={task.taskId} task={task} result={result} title={titles.get(task.taskId)} />
              ))}
            </ul>
          </>
        )}
      </div>
    </PageSection>
  );
}
