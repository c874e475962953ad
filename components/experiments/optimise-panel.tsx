"use client";

import Link from "next/link";
import { useId, useState, type FormEvent } from "react";
import { useQuery } from "@tanstack/react-query";
import type { OptimisationCandidate, OptimisationRecord, OptimisedRole } from "@/lib/domain/optimiser/types";
import type { LineageRate } from "@/lib/domain/template-lineage";
import { pValueText } from "@/lib/domain/stats/p-value";
import { optimisationListQuery, optimisationsOfExperiment, useResumeOptimisation, useStartOptimisation } from "@/lib/query/optimisation-queries";
import { templateHref } from "@/lib/query/template-queries";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Notice } from "@/components/ui/notice";

const percent = (value: number) => `${Math.round(value * 100)} %`;
const rateText = (rate: LineageRate | null) => (rate ? `${percent(rate.rate)} [${percent(rate.interval[0])}, ${percent(rate.interval[1])}]` : "—");
const STATUS_TONE = { running: "sky", done: "green", "budget-spent": "amber", failed: "red" } as const;

/**
 * "Optimise a template" on an experiment's page (docs/optimiser.md): start a reflective optimisation
 * fed by this experiment's failed trials, and follow the newest one — its candidates with their
 * parents, train and held-out scores with intervals, p against the parent, and Resume when the
 * budget stopped it. The demo model's answers are labelled a scripted stand-in.
 */
export function OptimisePanel({ experimentId, usesDemo }: { experimentId: string; usesDemo: boolean }) {
  const list = useQuery(optimisationListQuery());
  const start = useStartOptimisation();
  const ids = useId();
  const [role, setRole] = useState<OptimisedRole>("reflector");
  const [rounds, setRounds] = useState(2);
  const [candidates, setCandidates] = useState(2);
  const [heldOut, setHeldOut] = useState(0.3);
  const [budgetTokens, setBudgetTokens] = useState("");
  const latest = optimisationsOfExperiment(list.data ?? [], experimentId)[0] ?? null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const tokens = Number(budgetTokens);
    start.mutate({ experimentId, role, rounds, candidatesPerRound: candidates, trainFraction: 1 - heldOut, budget: budgetTokens.trim() !== "" && tokens > 0 ? { tokens: Math.round(tokens) } : null });
  };
  const field = "h-8 rounded-md border border-slate-300 bg-white px-2 text-sm text-slate-900";

  return (
    <div className="space-y-3" data-testid="optimise-panel">
      <p className="text-xs text-slate-600">
        A model reads this experiment&apos;s failed trials (trajectories, the Evaluator&apos;s feedback, the reflections) with the optimiser meta-prompt and proposes
        new versions of a template. Each is run on the train tasks, the Pareto front is kept, and the front is tested against its parents on held-out tasks.{" "}
        <Link href="/templates" className="text-sky-800 hover:underline">
          The meta-prompt is a template too
        </Link>
        .
      </p>
      {usesDemo ? (
        <Notice tone="info" data-testid="optimise-demo-notice">
          The demo model is a scripted stand-in: it answers the meta-prompt by adding the key facts the failed trials missed (and, for vague reflections, an
          instruction to name the failing step and the next action). Task-specific facts help only the train tasks; the held-out test shows it.
        </Notice>
      ) : null}
      <form onSubmit={submit} className="flex flex-wrap items-end gap-3 text-xs text-slate-700">
        <label className="flex flex-col gap-1" htmlFor={`${ids}-role`}>
          Template
          <select id={`${ids}-role`} className={field} value={role} onChange={(event) => setRole(event.target.value as OptimisedRole)}>
            <option value="reflector">Self-Reflection</option>
            <option value="actor">Actor</option>
          </select>
        </label>
        <label className="flex flex-col gap-1" htmlFor={`${ids}-rounds`}>
          Rounds
          <input id={`${ids}-rounds`} type="number" min={1} max={10} className={`${field} w-20`} value={rounds} onChange={(event) => setRounds(Number(event.target.value))} />
        </label>
        <label className="flex flex-col gap-1" htmlFor={`${ids}-candidates`}>
          Candidates per round
          <input id={`${ids}-candidates`} type="number" min={1} max={8} className={`${field} w-20`} value={candidates} onChange={(event) => setCandidates(Number(event.target.value))} />
        </label>
        <label className="flex flex-col gap-1" htmlFor={`${ids}-held-out`}>
          Held-out share
          <input id={`${ids}-held-out`} type="number" min={0.05} max={0.95} step={0.05} className={`${field} w-24`} value={heldOut} onChange={(event) => setHeldOut(Number(event.target.value))} />
        </label>
        <label className="flex flex-col gap-1" htmlFor={`${ids}-budget`}>
          Token budget (optional)
          <input id={`${ids}-budget`} inputMode="numeric" className={`${field} w-32`} value={budgetTokens} placeholder="no limit" onChange={(event) => setBudgetTokens(event.target.value)} />
        </label>
        <Button type="submit" variant="primary" disabled={start.isPending || latest?.status === "running"} data-testid="optimise-start">
          Optimise
        </Button>
      </form>
      {start.error ? (
        <Notice tone="error" data-testid="optimise-error">
          {start.error.message}
        </Notice>
      ) : null}
      {latest ? <OptimisationView record={latest} /> : null}
    </div>
  );
}

/** One optimisation: its status, spend and candidates; Resume when it stopped. */
export function OptimisationView({ record }: { record: OptimisationRecord }) {
  const resume = useResumeOptimisation(record.id);
  return (
    <div className="space-y-2" data-testid="optimisation" data-status={record.status}>
      <p className="flex flex-wrap items-center gap-2 text-xs text-slate-700">
        <Badge tone={STATUS_TONE[record.status]}>{record.status}</Badge>
        <code className="font-mono">{record.id}</code> · {record.request.role} · {record.split.train.length} train / {record.split.heldOut.length} held-out tasks ·{" "}
        {record.spend.tokens.toLocaleString("en-US")} tokens · candidates in{" "}
        <Link href={templateHref(record.request.targetTemplateId)} className="text-sky-800 hover:underline" data-testid="optimisation-template">
          {record.request.targetTemplateId}
        </Link>
        {record.status === "budget-spent" || record.status === "failed" ? (
          <Button size="sm" onClick={() => resume.mutate({ budget: null })} disabled={resume.isPending} data-testid="optimisation-resume">
            Resume without a limit
          </Button>
        ) : null}
      </p>
      {record.detail ? <p className="text-xs text-slate-600">{record.detail}</p> : null}
      <div className="overflow-x-auto" tabIndex={0} role="region" aria-label="Candidates (scroll sideways on a narrow screen)">
        <table className="w-full text-left text-xs" data-testid="optimisation-candidates">
          <thead className="text-slate-600">
            <tr>
              <th className="py-1 pr-3 font-medium">Round</th>
              <th className="py-1 pr-3 font-medium">Version ← parent</th>
              <th className="py-1 pr-3 font-medium">Train</th>
              <th className="py-1 pr-3 font-medium">Held-out vs parent</th>
              <th className="py-1 font-medium">Front</th>
            </tr>
          </thead>
          <tbody>
            {record.candidates.map((candidate) => (
              <CandidateRow key={candidate.key} candidate={candidate} />
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

function CandidateRow({ candidate }: { candidate: OptimisationCandidate }) {
  return (
    <tr className="border-t border-slate-200 align-top text-slate-800" data-testid="optimisation-candidate" data-version-id={candidate.versionId ?? ""}>
      <td className="py-1 pr-3">{candidate.round === 0 ? "start" : candidate.round}</td>
      <td className="py-1 pr-3 font-mono">
        {candidate.versionId ?? "—"} <span className="text-slate-500">← {candidate.parentId ?? "—"}</span>
      </td>
      {candidate.status === "failed" ? (
        <td className="py-1 pr-3 text-red-800" colSpan={3}>
          {candidate.error}
        </td>
      ) : (
        <>
          <td className="py-1 pr-3">{candidate.status === "proposed" ? "evaluating…" : rateText(candidate.train)}</td>
          <td className="py-1 pr-3">
            {rateText(candidate.heldOut)}
            {candidate.pVsParent !== null ? ` vs ${rateText(candidate.parentHeldOut)}, ${pValueText(candidate.pVsParent)}` : ""}
          </td>
          <td className="py-1">{candidate.onFront ? "yes" : ""}</td>
        </>
      )}
    </tr>
  );
}
