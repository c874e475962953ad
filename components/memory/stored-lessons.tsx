"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { isDemoModel } from "@/lib/domain/model-id";
import { runLessonsQuery } from "@/lib/query/cost-queries";
import { Badge } from "@/components/ui/badge";
import { ScriptedStandIn } from "@/components/ui/scripted-stand-in";

/**
 * The lessons written on an imported trace (`reflect-traces`, the Agent traces page): they live in
 * memory stores, not in the run's log, so the memory panel lists them from `GET /api/runs/:id/lessons`
 * with the Evaluator, template and model each came from. Empty: how to write them.
 */
export function StoredLessons({ runId }: { runId: string }) {
  const lessons = useQuery(runLessonsQuery(runId));
  const entries = lessons.data?.entries ?? [];
  return (
    <section aria-labelledby="stored-lessons-heading" className="space-y-1.5" data-testid="stored-lessons">
      <h3 id="stored-lessons-heading" className="text-xs font-semibold uppercase tracking-wide text-slate-600">
        Lessons written on this trace · {entries.length}
      </h3>
      {lessons.isPending ? null : entries.length === 0 ? (
        <p className="text-xs text-slate-600">
          None yet. Reflect on this import&apos;s failures on <Link href="/traces" className="underline">Agent traces</Link> (or <code>cli reflect-traces</code>): each lesson is
          stored in a memory store your agent can read back.
        </p>
      ) : (
        <ul className="space-y-2">
          {entries.map((entry) => (
            <li key={entry.id} className="rounded-md border border-slate-200 p-2 text-sm text-slate-800" data-testid="stored-lesson">
              <p>{entry.text}</p>
              <p className="mt-1 flex flex-wrap items-center gap-1.5 text-[11px] text-slate-600">
                <span>
                  store <code>{entry.store}</code>
                </span>
                {entry.reflectedOn ? (
                  <>
                    <span>· {entry.reflectedOn.verdictSource}</span>
                    <span>
                      · {entry.reflectedOn.template.id} v{entry.reflectedOn.template.version} · <code>{entry.reflectedOn.model}</code>
                    </span>
                    {isDemoModel(entry.reflectedOn.model) ? <ScriptedStandIn /> : null}
                    {entry.reflectedOn.oracle ? <Badge tone="amber">oracle signal</Badge> : null}
                  </>
                ) : null}
              </p>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
