import Link from "next/link";
import type { ReflectionListItem, TrialGlimpse } from "@/lib/domain/reflection-outcomes";
import { Badge } from "@/components/ui/badge";
import { cn } from "@/lib/utils/cn";
import { runNodeHref } from "./focus-node-from-url";

const OUTCOME_WORD: Record<NonNullable<TrialGlimpse["outcome"]>, string> = { success: "succeeded", failure: "failed", halted: "was halted" };

/** "Trial 2 failed · 4 steps · Finish[1986] · Answer is INCORRECT". */
function Glimpse({ glimpse, testId }: { glimpse: TrialGlimpse; testId: string }) {
  return (
    <div className="text-xs text-slate-700" data-testid={testId} data-trial={glimpse.trial} data-outcome={glimpse.outcome ?? "running"}>
      <p>
        <strong className={cn(glimpse.outcome === "success" ? "text-green-800" : glimpse.outcome === null ? "text-slate-700" : "text-red-800")}>
          Trial {glimpse.trial} {glimpse.outcome ? OUTCOME_WORD[glimpse.outcome] : "has not ended"}
        </strong>
        {glimpse.steps > 0 ? ` · ${glimpse.steps} ${glimpse.steps === 1 ? "step" : "steps"}` : ""}
        {glimpse.answer !== null ? (
          <>
            {" "}
            · answer <q className="font-medium">{glimpse.answer}</q>
          </>
        ) : null}
        {glimpse.feedback ? ` · ${glimpse.feedback}` : ""}
        {glimpse.endReason && glimpse.outcome !== "success" && glimpse.endReason !== glimpse.feedback ? ` · ${glimpse.endReason}` : ""}
      </p>
      {glimpse.lastActions.length > 0 ? (
        <p className="mt-0.5 truncate font-mono text-[11px] text-slate-500" title={glimpse.lastActions.join("\n")}>
          last {glimpse.lastActions.length === 1 ? "action" : "actions"}: {glimpse.lastActions.join(" → ")}
        </p>
      ) : null}
    </div>
  );
}

const VERDICT: Record<ReflectionListItem["verdict"], { label: string; tone: "green" | "red" | "neutral" }> = {
  helped: { label: "Worked: the next trial succeeded", tone: "green" },
  "did-not-help": { label: "Did not help: the next trial failed too", tone: "red" },
  "no-next-trial": { label: "No next trial", tone: "neutral" },
};

/**
 * One reflection: the run, the failed trial it was written after (a glimpse),
 * the reflection's text as the next trial's Actor saw it, and what the next
 * trial did; "Open at this reflection" opens the run with its reflection node
 * selected.
 */
export function ReflectionCard({ item }: { item: ReflectionListItem }) {
  const verdict = VERDICT[item.verdict];
  return (
    <li className="space-y-2 rounded-lg border border-slate-200 bg-white p-3" data-testid="reflection-item" data-verdict={item.verdict} data-run-id={item.runId}>
      <div className="flex flex-wrap items-center gap-2">
        <Badge tone={verdict.tone} data-testid="reflection-verdict">
          {verdict.label}
        </Badge>
        {item.recordedSource ? (
          <Badge tone="amber" data-testid="reflection-recorded" title={`Imported from ${item.recordedSource}`}>
            Recorded by the authors
          </Badge>
        ) : null}
        {item.arm ? <Badge tone="outline">{item.arm}</Badge> : null}
        <span className="ml-auto text-[11px] text-slate-500">task {item.taskId}</span>
      </div>
      <p className="line-clamp-2 text-sm font-medium text-slate-900" title={item.runTitle} data-testid="reflection-run-title">
        {item.runTitle}
      </p>
      <Glimpse glimpse={item.failed} testId="reflection-failed-trial" />
      <blockquote className="whitespace-pre-wrap border-l-4 border-amber-400 bg-amber-50/60 py-1.5 pl-3 pr-2 text-sm leading-snug text-slate-900" data-testid="reflection-text">
        {item.text.trim()}
      </blockquote>
      {item.edited ? <p className="text-[11px] text-slate-500">Edited by a person; the model wrote: “{item.originalText.trim()}”</p> : null}
      {item.next ? <Glimpse glimpse={item.next} testId="reflection-next-trial" /> : null}
      {item.next && !item.inNextMemory ? <p className="text-[11px] text-amber-800">This reflection was not in the next trial&apos;s memory (evicted by Ω or removed by an edit).</p> : null}
      <p className="text-right">
        <Link href={runNodeHref(item.runId, item.reflectionEventId)} className="text-xs font-medium text-sky-800 hover:underline" data-testid="open-reflection">
          Open the run at this reflection →
        </Link>
      </p>
    </li>
  );
}
