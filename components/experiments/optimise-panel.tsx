"use client";

import Link from "next/link";
import { useEffect, useId, useState, type FormEvent } from "react";
import { useQuery } from "@tanstack/react-query";
import { parseTokenBudgetField } from "@/lib/domain/optimiser/budget-field";
import { optimisationPhase, type OptimisationCandidate, type OptimisationRecord, type OptimisedRole } from "@/lib/domain/optimiser/types";
import type { Strategy } from "@/lib/domain/config";
import { strategyBehaviour } from "@/lib/domain/strategies";
import type { LineageRate } from "@/lib/domain/template-lineage";
import { pValueText } from "@/lib/domain/stats/p-value";
import { optimisationListQuery, optimisationsOfExperiment, useResumeOptimisation, useStartOptimisation } from "@/lib/query/optimisation-queries";
import { templateHref } from "@/lib/query/template-queries";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Notice } from "@/components/ui/notice";

const percent = (value: number) => `${Math.round(value * 100)} %`;
const rateText = (rate: LineageRate | null) => (rate ? `${percent(rate.rate)} [${percent(rate.interval[0])}, ${percent(rate.interval[1])}]` : "—");
const STATUS_TONE = { running: "sky", done: "green", "budget-spent": "amber", "no-candidate": "amber", failed: "red", interrupted: "amber" } as const;

/** An arm of the experiment as the form needs it. */
export interface OptimiseArm {
  label: string;
  strategy: Strategy;
}

/** The arm the form picks first for a role: for the Self-Reflection, the first arm whose strategy writes reflections; else the first arm. */
export function defaultArmFor(arms: readonly OptimiseArm[], role: OptimisedRole): string {
  const reflecting = role === "reflector" ? arms.find((arm) => strategyBehaviour(arm.strategy).reflectsAfterFailure) : undefined;
  return (reflecting ?? arms[0])?.label ?? "";
}

/**
 * "Optimise a template" on an experiment's page (docs/optimiser.md): start a reflective optimisation
 * fed by this experiment's failed trials, and follow the newest one — its candidates with their
 * parents, train and held-out scores with intervals, p against the parent, and Resume when the
 * budget stopped it, it failed, or its process was interrupted (lease expired). The token budget
 * must be a whole number (Optimise stays disabled with an inline error otherwise); the arm select
 * defaults to the first arm whose strategy reflects for the Self-Reflection. The demo model's
 * answers are labelled a scripted stand-in.
 */
export function OptimisePanel({ experimentId, usesDemo, arms = [] }: { experimentId: string; usesDemo: boolean; arms?: readonly OptimiseArm[] }) {
  const list = useQuery(optimisationListQuery());
  const start = useStartOptimisation();
  const ids = useId();
  const [role, setRole] = useState<OptimisedRole>("reflector");
  const [arm, setArm] = useState(() => defaultArmFor(arms, "reflector"));
  const [rounds, setRounds] = useState(2);
  const [candidates, setCandidates] = useState(2);
  const [heldOut, setHeldOut] = useState(0.3);
  const [budgetTokens, setBudgetTokens] = useState("");
  const [now, setNow] = useState(() => Date.now());
  const latest = optimisationsOfExperiment(list.data ?? [], experimentId)[0] ?? null;
  const budget = parseTokenBudgetField(budgetTokens);
  const latestPhase = latest ? optimisationPhase(latest, now) : null;
  // A lease expires without any new data arriving: re-read the clock so "running" turns "interrupted".
  useEffect(() => {
    if (latest?.status !== "running") return;
    const timer = setInterval(() => setNow(Date.now()), 2_000);
    return () => clearInterval(timer);
  }, [latest?.status]);

  const chooseRole = (next: OptimisedRole) => {
    setRole(next);
    setArm(defaultArmFor(arms, next));
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!budget.ok) return;
    start.mutate({ experimentId, role, ...(arm !== "" ? { arm } : {}), rounds, candidatesPerRound: candidates, trainFraction: 1 - heldOut, budget: budget.tokens === null ? null : { tokens: budget.tokens } });
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
          <select id={`${ids}-role`} className={field} value={role} onChange={(event) => chooseRole(event.target.value as OptimisedRole)}>
            <option value="reflector">Self-Reflection</option>
            <option value="actor">Actor</option>
          </select>
        </label>
        {arms.length > 0 ? (
          <label className="flex flex-col gap-1" htmlFor={`${ids}-arm`}>
            Arm
            <select id={`${ids}-arm`} className={field} value={arm} onChange={(event) => setArm(event.target.value)} data-testid="optimise-arm">
              {arms.map((option) => (
                <option key={option.label} value={option.label} disabled={role === "reflector" && !strategyBehaviour(option.strategy).reflectsAfterFailure}>
                  {option.label} ({option.strategy})
                </option>
              ))}
            </select>
          </label>
        ) : null}
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
          {/* Text, not type="number": a number input reports "" for "abc", which would read as "no limit". */}
          <input
            id={`${ids}-budget`}
            type="text"
            inputMode="numeric"
            pattern="[0-9]*"
            className={`${field} w-32 ${budget.ok ? "" : "border-red-500"}`}
            value={budgetTokens}
            placeholder="no limit"
            aria-invalid={!budget.ok}
            aria-describedby={budget.ok ? undefined : `${ids}-budget-error`}
            onChange={(event) => setBudgetTokens(event.target.value)}
            data-testid="optimise-budget"
          />
        </label>
        <Button type="submit" variant="primary" disabled={start.isPending || latestPhase === "running" || !budget.ok} data-testid="optimise-start">
          Optimise
        </Button>
        {budget.ok ? null : (
          <p id={`${ids}-budget-error`} role="alert" className="basis-full text-xs text-red-800" data-testid="optimise-budget-error">
            {budget.error}
          </p>
        )}
      </form>
      {start.error ? (
        <Notice tone="error" data-testid="optimise-error">
          {start.error.message}
        </Notice>
      ) : null}
      {latest ? <OptimisationView record={latest} now={now} /> : null}
    </div>
  );
}

/** One optimisation: its status, spend and candidates; Resume when it stopped. */
export function OptimisationView({ record, now }: { record: OptimisationRecord; now?: number }) {
  const resume = useResumeOptimisation(record.id);
  const [mountedAt] = useState(() => Date.now());
  const phase = optimisationPhase(record, now ?? mountedAt);
  return (
    <div className="space-y-2" data-testid="optimisation" data-status={phase}>
      <p className="flex flex-wrap items-center gap-2 text-xs text-slate-700">
        <Badge tone={STATUS_TONE[phase]}>{phase}</Badge>
        <code className="font-mono">{record.id}</code> · {record.request.role} of arm <span data-testid="optimisation-arm">&ldquo;{record.request.arm}&rdquo;</span> ·{" "}
        {record.split.train.length} train / {record.split.heldOut.length} held-out tasks ·{" "}
        {record.spend.tokens.toLocaleString("en-US")} tokens · candidates in{" "}
        <Link href={templateHref(record.request.targetTemplateId)} className="text-sky-800 hover:underline" data-testid="optimisation-template">
          {record.request.targetTemplateId}
        </Link>
        {phase === "budget-spent" ? (
          <Button size="sm" onClick={() => resume.mutate({ budget: null })} disabled={resume.isPending} data-testid="optimisation-resume">
            Resume without a limit
          </Button>
        ) : phase === "failed" || phase === "interrupted" ? (
          <Button size="sm" onClick={() => resume.mutate({})} disabled={resume.isPending} data-testid="optimisation-resume">
            Resume
          </Button>
        ) : null}
      </p>
      {phase === "interrupted" ? (
        <p className="text-xs text-slate-600" data-testid="optimisation-interrupted">
          The process working on it stopped before it finished (its lease expired). Resume continues where it stopped; what was done is kept.
        </p>
      ) : null}
      {record.detail ? <p className="text-xs text-slate-600">{record.detail}</p> : null}
      {resume.error ? (
        <Notice tone="error" data-testid="optimisation-resume-error">
          {resume.error.message}
        </Notice>
      ) : null}
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
        {candidate.proposedAgain ? <span className="ml-1 font-sans text-slate-500" title="The proposal equals a version saved before; it was evaluated again here">(proposed again)</span> : null}
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
