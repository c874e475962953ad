import Link from "next/link";
import type { ClassFork } from "@/lib/domain/class-session";
import { cn } from "@/lib/utils/cn";

const STATUS: Record<ClassFork["status"], { label: string; tone: string }> = {
  running: { label: "running…", tone: "border-sky-300 bg-sky-50 text-sky-900" },
  succeeded: { label: "succeeded", tone: "border-green-300 bg-green-50 text-green-900" },
  failed: { label: "failed", tone: "border-red-300 bg-red-50 text-red-900" },
};

/**
 * The class's forks side by side (as many columns as the space it is given holds: one on a phone,
 * up to four on a projector): for each picked reflection (shown as text, never Markdown),
 * trial N+1's status and outcome and the key facts the demo matched in it. `runId` given (the
 * teacher's console): each card links to its branch on the run page. `highlight`: the group id
 * of the student's own reflection (their card says so).
 */
export function ClassForks({ forks, large, runId, highlight }: { forks: readonly ClassFork[]; large: boolean; runId?: string; highlight?: string | null }) {
  if (forks.length === 0) return null;
  return (
    <section aria-label="Trial runs with the class's reflections" className="mt-4" data-testid="class-forks">
      <h3 className={cn("font-semibold text-slate-900", large ? "text-2xl" : "text-lg")}>Trial runs with the class&apos;s reflections</h3>
      <ul className="mt-2 grid grid-cols-[repeat(auto-fit,minmax(12rem,1fr))] gap-3">
        {forks.map((fork) => {
          const status = STATUS[fork.status];
          return (
            <li key={fork.branchId} className="flex flex-col gap-2 rounded-lg border border-slate-200 bg-white p-3" data-testid="class-fork" data-status={fork.status} data-group-id={fork.groupId}>
              <p className={cn("flex flex-wrap items-center gap-2", large ? "text-xl" : "text-base")}>
                <span className="font-semibold text-slate-900">Trial {fork.trial}</span>
                <span className={cn("rounded border px-2 py-0.5 font-medium", status.tone)} data-testid="class-fork-status">
                  {status.label}
                </span>
                {highlight === fork.groupId ? <span className="font-medium text-violet-800">your group&apos;s reflection</span> : null}
              </p>
              <blockquote className={cn("whitespace-pre-wrap break-words border-l-4 border-slate-300 pl-2 text-slate-800", large ? "text-xl" : "text-base")}>{fork.text}</blockquote>
              <p className={cn("text-slate-700", large ? "text-lg" : "text-base")} data-testid="class-fork-facts">
                {fork.matchedFacts.length > 0 ? `It named: ${fork.matchedFacts.join("; ")}` : fork.status === "running" ? "Trial running…" : "It named none of the task's key facts."}
              </p>
              {runId ? (
                <Link href={`/runs/${encodeURIComponent(runId)}?branch=${encodeURIComponent(fork.branchId)}`} className="text-base text-sky-700 underline">
                  Open this branch
                </Link>
              ) : null}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
