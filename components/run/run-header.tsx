"use client";

import type { RunDetailResponse, RunStatus } from "@/lib/domain/api";
import { BudgetMeter } from "@/components/costs/budget-meter";
import type { RunState } from "@/lib/domain/fold-run";
import type { CallActivity } from "@/lib/domain/status";
import type { ReplayStep, ShownStatus } from "@/lib/domain/shown-status";
import type { ShownBranchSummary } from "@/components/replay/view-at-cursor";
import { stepBudget } from "@/lib/domain/next-step";
import { strategyBehaviour } from "@/lib/domain/strategies";
import { codeRunOf, codeTrialSummary, codeTrialView, type BranchTreeRow } from "@/lib/graph";
import type { StreamConnection } from "@/lib/query";
import { Badge } from "@/components/ui/badge";
import { strategyLabel } from "@/components/ui/strategy-labels";
import { formatCostTotal, formatElapsed, formatInteger } from "@/components/ui/format";
import { StatusPill } from "@/components/ui/status-pill";
import { useNow } from "@/components/ui/use-now";
import { cn } from "@/lib/utils/cn";
import { isRecordedBranch, NOT_RECORDED, ReadOnlyNote, RecordedBadge } from "@/components/provenance";
import { ShareRunMenu } from "@/components/bundles/share-run-menu";
import { FocusNodeFromUrl } from "@/components/reflections/focus-node-from-url";
import { BranchSwitcher } from "./branch-switcher";
import { RoleReadOnlyNote } from "@/components/auth/role-read-only-note";
import { RunControls } from "./run-controls";
import { callInFlightLabel, retryLabel, showsLiveDot, statusExplanation, trialChipLabel, trialChipState } from "./run-messages";
import { isDemoModel } from "@/lib/domain/model-id";
import { DemoModelBadge } from "@/components/ui/scripted-stand-in";
import { familyDescriptor } from "@/lib/environments/descriptors";

function ConnectionDot({ connection, status }: { connection: StreamConnection; status: ShownStatus | null }) {
  if (connection === "idle" || connection === "closed") return null;
  if (connection === "live" && !showsLiveDot(status)) return null;
  const label = connection === "live" ? "live" : connection === "connecting" ? "connecting…" : "reconnecting…";
  return (
    <span data-testid="stream-connection" data-connection={connection} className="inline-flex items-center gap-1 text-[11px] text-slate-500">
      <span aria-hidden className={cn("size-1.5 rounded-full", connection === "live" ? "bg-green-500" : "animate-pulse bg-amber-500")} />
      {label}
    </span>
  );
}

/**
 * The model call a worker is waiting on, and for how long: "Actor call · trial
 * 2 step 3 · 14 s", ticking each second (only this element re-renders).
 */
function CallInFlight({ call }: { call: CallActivity }) {
  const now = useNow(true);
  const started = Date.parse(call.startedAt);
  const elapsed = Number.isNaN(started) ? null : formatElapsed(now - started);
  return (
    <span
      data-testid="call-in-flight"
      data-role={call.role}
      data-trial={call.trial}
      data-step={call.step ?? undefined}
      className="inline-flex items-center gap-1 rounded-md bg-sky-50 px-1.5 py-0.5 text-[11px] text-sky-900 ring-1 ring-inset ring-sky-200"
      title="The model call in flight. Without output it gives up after REFLEXION_MODEL_TIMEOUT_S (default 120 s) and pauses the run; Cancel stops it now."
    >
      <span aria-hidden className="size-1.5 animate-pulse rounded-full bg-sky-500" />
      {callInFlightLabel(call)}
      {elapsed !== null ? (
        <>
          {" · "}
          <span data-testid="call-elapsed" className="tabular-nums">
            {elapsed}
          </span>
        </>
      ) : null}
      {call.retry ? (
        <span data-testid="call-retrying" className="text-amber-800" title={call.retry.message}>
          {" · "}
          {retryLabel(call.retry, now)}
        </span>
      ) : null}
    </span>
  );
}

/**
 * Trial n: success / failure / halted, one chip each. A trial without an outcome
 * says "running…" only while the run runs; else paused / interrupted / stopped.
 */
function TrialStrip({ state, status }: { state: RunState; status: ShownStatus | null }) {
  if (state.trials.length === 0) return <span className="text-xs text-slate-500">No trial yet.</span>;
  const maxTrials = state.config?.maxTrials;
  const codeRun = codeRunOf(state) !== null;
  return (
    <ol className="flex flex-wrap items-center gap-1.5" data-testid="trial-strip" aria-label="Trials">
      {state.trials.map((trial) => {
        const chip = trialChipState(trial.outcome, status);
        const code = codeRun ? codeTrialView(trial) : null;
        return (
          <li
            key={trial.trial}
            data-testid="trial-chip"
            data-trial={trial.trial}
            data-outcome={chip}
            className={cn(
              "inline-flex items-center gap-1 rounded-md border px-2 py-0.5 text-xs",
              // A false positive ended the loop on a wrong program: amber, not the green of a real success.
              chip === "success" && (code?.falsePositive ? "border-amber-400 bg-amber-50 text-amber-950" : "border-green-300 bg-green-50 text-green-900"),
              chip === "failure" && "border-red-300 bg-red-50 text-red-900",
              chip === "halted" && "border-amber-300 bg-amber-50 text-amber-950",
              chip === "running" && "border-sky-300 bg-sky-50 text-sky-900",
              chip === "replaying" && "border-violet-300 bg-violet-50 text-violet-900",
              (chip === "queued" || chip === "paused" || chip === "interrupted" || chip === "stopped" || chip === "out-of-budget" || chip === "unfinished") && "border-slate-300 bg-slate-50 text-slate-700",
            )}
          >
            <span className="font-medium">Trial {trial.trial}</span>
            <span>{chip === "success" && code?.falsePositive ? (code.vacuous ? "empty internal suite passed" : "internal tests passed") : trialChipLabel(chip)}</span>
            {code && code.internal !== null ? (
              <span
                data-testid="trial-chip-code"
                data-hidden={code.hidden?.verdict ?? "none"}
                data-false-positive={code.falsePositive}
                className={cn("text-[11px]", code.falsePositive ? "font-semibold text-amber-900" : "opacity-80")}
                title="Internal: the agent's own tests (they drive the loop). Hidden: the benchmark's tests, for reporting only."
              >
                · {codeTrialSummary(code)}
              </span>
            ) : null}
          </li>
        );
      })}
      {maxTrials ? <li className="text-[11px] text-slate-500">of at most {maxTrials}</li> : null}
    </ol>
  );
}

/**
 * The run's header: task, strategy, model (the demo model labelled as a
 * scripted stand-in), status (with a word on queued / pausing / cancelling /
 * interrupted) and the model call in flight with its running time, the branch
 * switcher, the controls (Pause / Step / Resume / Cancel, breakpoints), the
 * trial strip and the totals — all of the branch shown.
 */
export function RunHeader({
  runId,
  branch,
  branchRows,
  currentBranchId,
  onSelectBranch,
  detail,
  state,
  status,
  shownStatus = status,
  replay = null,
  activeCall = null,
  connection,
  readOnly = null,
}: {
  runId: string;
  /** The branch shown (null = root). */
  branch: string | null;
  branchRows: readonly BranchTreeRow<ShownBranchSummary>[];
  currentBranchId: string | null;
  onSelectBranch: (branchId: string) => void;
  detail: RunDetailResponse["run"] | undefined;
  state: RunState;
  status: RunStatus | null;
  /** The status the pill, explanation and trial chips show: `replaying` at a replay cursor (lib/domain/shown-status.ts); defaults to `status`. The controls keep `status`. */
  shownStatus?: ShownStatus | null;
  /** Where the replay cursor stands, in ReAct steps, while `shownStatus` is `replaying`: the pill says "Replaying (step k of n)". */
  replay?: ReplayStep | null;
  /** The model call a worker is waiting on (from the server's status), or null. */
  activeCall?: CallActivity | null;
  connection: StreamConnection;
  /** Why the signed-in person may not change this run (lib/domain/run-permissions.ts): the controls give way to "read-only: <reason>"; null when they may. */
  readOnly?: string | null;
}) {
  const config = state.config;
  const title = detail?.title ?? config?.taskId ?? "Run";
  const strategy = detail?.strategy ?? config?.strategy;
  // The Actor model in force on this branch (after any model settings-edit), not the one the run started with.
  const modelId = state.config?.models.actor.modelId ?? detail?.modelId;
  // When the roles use different models, each role's (Actor, Evaluator where it is a model, Self-Reflection).
  const models = state.config?.models;
  const roleModels: [string, string][] | null =
    models && (models.reflector.modelId !== models.actor.modelId || (models.evaluator !== undefined && models.evaluator.modelId !== models.actor.modelId))
      ? [
          ["Actor", models.actor.modelId],
          ...(models.evaluator ? ([["Evaluator", models.evaluator.modelId]] as [string, string][]) : []),
          ["Self-Reflection", models.reflector.modelId],
        ]
      : null;
  const behaviour = strategy ? strategyBehaviour(strategy) : null;
  const carriesMemory = behaviour !== null && (behaviour.reflectionsInPrompt || behaviour.includesLastAttempt);
  const effectiveStatus = status;
  const totals = state.totals;
  const fork = state.fork;
  const taskFamily = detail?.environment ?? config?.environment;
  const family = taskFamily ? familyDescriptor(taskFamily) : null;
  const codeTask = family?.step.actionIsCode ?? false;
  const parentRow = fork ? branchRows.find((row) => row.branch.id === fork.parentBranchId) : undefined;
  const explanation = statusExplanation(shownStatus);
  // A call is shown only while a worker executes the branch (a stale one is never left ticking on a paused run).
  const showCall = activeCall !== null && (effectiveStatus === "running" || effectiveStatus === "pausing" || effectiveStatus === "cancelling");
  // Imported from the authors' logs: the recorded branch is read-only (a fork of it runs live).
  const provenance = config?.provenance ?? null;
  const recorded = isRecordedBranch(provenance, fork, currentBranchId);
  // The published logs record no model calls: "—" (titled why) rather than "0 / $0" until a fork calls a model.
  const unrecorded = provenance !== null && totals.modelCalls === 0;

  return (
    <div className="flex-none border-b border-slate-200 bg-white">
      <div className="flex flex-wrap items-start justify-between gap-x-6 gap-y-2 px-4 pt-3">
        <div className="min-w-0 flex-1">
          <h1 data-testid="run-title" className="line-clamp-2 text-base font-semibold leading-snug text-slate-900" title={title}>
            {title}
          </h1>
          {detail?.setting ? (
            <details className="mt-0.5 text-xs text-slate-600" data-testid="run-setting">
              <summary className="cursor-pointer select-none text-slate-500">{family?.texts.settingTitle ?? "The room"}</summary>
              <p className={cn("mt-1 max-w-4xl whitespace-pre-wrap leading-snug", codeTask && "font-mono text-[11px] text-slate-800")}>{detail.setting}</p>
            </details>
          ) : null}
          <div className="mt-1 flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-slate-600">
            <RecordedBadge provenance={provenance} showModel forked={provenance !== null && !recorded} />
            {shownStatus ? <StatusPill status={shownStatus} replay={replay} /> : null}
            {showCall && activeCall ? <CallInFlight call={activeCall} /> : null}
            <ConnectionDot connection={connection} status={shownStatus} />
            {strategy ? (
              <Badge tone={carriesMemory ? "amber" : "neutral"} data-testid="run-strategy" data-strategy={strategy}>
                {strategyLabel(strategy, detail?.environment ?? config?.environment)}
              </Badge>
            ) : null}
            {modelId ? (
              <span className="inline-flex items-center gap-1.5">
                model <code data-testid="run-model" className="font-mono text-slate-800">{modelId}</code>
                {isDemoModel(modelId) ? <DemoModelBadge testId="demo-model-badge" /> : null}
              </span>
            ) : null}
            {roleModels ? (
              <span data-testid="run-role-models" className="inline-flex flex-wrap items-center gap-1.5 text-slate-600">
                {roleModels.map(([role, id]) => (
                  <span key={role} data-role={role}>
                    {role} <code className="font-mono text-slate-800">{id}</code>
                  </span>
                ))}
              </span>
            ) : null}
            {config ? (
              <span>
                Ω = {config.memoryWindow ?? "∞"} · ≤ {stepBudget(config)} steps per trial
              </span>
            ) : null}
            {config ? <span className="text-slate-500">task {config.taskId} ({config.taskSetName})</span> : null}
            {explanation ? (
              <span data-testid="status-explanation" data-status={effectiveStatus ?? undefined} className="basis-full text-[11px] text-slate-600">
                {explanation}
              </span>
            ) : null}
            {fork ? (
              <Badge tone="sky" data-testid="branch-origin" data-replay-mode={fork.replayMode} title="Events up to the fork point are shared with the parent branch">
                forked from {parentRow ? (parentRow.branch.parentBranchId === null ? "main" : `branch ${parentRow.number}`) : "its parent"} at seq {fork.forkSeq} · {fork.reason} ·{" "}
                {fork.replayMode === "recorded" ? "recorded replay (unchanged calls come from the cache)" : "live (every call goes to the model)"}
              </Badge>
            ) : null}
          </div>
        </div>

        <div className="flex flex-wrap items-start justify-end gap-3">
          <BranchSwitcher rows={branchRows} current={currentBranchId} onSelect={onSelectBranch} />
          {recorded && provenance ? (
            <ReadOnlyNote provenance={provenance} showNotes className="max-w-sm" />
          ) : readOnly ? (
            <RoleReadOnlyNote reason={readOnly} className="max-w-sm" />
          ) : (
            <RunControls key={branch ?? "root"} runId={runId} branch={branch} state={state} status={effectiveStatus} />
          )}
          <FocusNodeFromUrl state={state} />
          <ShareRunMenu runId={runId} bundled={provenance?.kind === "bundle"} />
        </div>
      </div>

      <div className="flex flex-wrap items-center justify-between gap-x-6 gap-y-2 px-4 pb-2.5 pt-2">
        <TrialStrip state={state} status={shownStatus} />
        <BudgetMeter state={state} live={effectiveStatus === "running"} />
        {unrecorded ? (
          <>
          <dl className="flex items-center gap-4 text-xs text-slate-600" data-testid="run-totals" data-unrecorded="true" title={`Calls, tokens and cost: ${NOT_RECORDED}.`}>
            {(["calls", "tokens", "cost"] as const).map((name) => (
              <div key={name} className="flex gap-1">
                <dt>{name}</dt>
                <dd className="font-medium text-slate-500" data-testid={`total-${name}`} title={NOT_RECORDED}>
                  —
                </dd>
              </div>
            ))}
          </dl>
          {/* Outside the list: a <dl> holds only name–value groups. */}
          <span className="sr-only">{NOT_RECORDED}</span>
          </>
        ) : (
          <dl className="flex items-center gap-4 text-xs text-slate-600" data-testid="run-totals">
            <div className="flex gap-1">
              <dt>calls</dt>
              <dd className="font-medium tabular-nums text-slate-900" data-testid="total-calls" data-live={totals.liveCalls} data-cached={totals.cachedCalls}>
                {formatInteger(totals.modelCalls)}
                {totals.cachedCalls > 0 ? <span className="font-normal text-slate-500"> ({totals.liveCalls} live, {totals.cachedCalls} from cache)</span> : null}
              </dd>
            </div>
            <div className="flex gap-1">
              <dt>tokens</dt>
              <dd className="font-medium tabular-nums text-slate-900" data-testid="total-tokens">
                {formatInteger(totals.inputTokens + totals.outputTokens)}
              </dd>
            </div>
            <div className="flex gap-1">
              <dt>cost</dt>
              <dd
                className="font-medium tabular-nums text-slate-900"
                data-testid="total-cost"
                data-unpriced-calls={totals.unpricedCalls}
                title={
                  totals.unpricedCalls > 0
                    ? `${totals.unpricedCalls} of ${totals.modelCalls} calls have no known price (the model is not in the server's price table); they are not counted.`
                    : undefined
                }
              >
                {formatCostTotal({ costUsd: totals.costUsd, calls: totals.modelCalls, unpricedCalls: totals.unpricedCalls })}
              </dd>
            </div>
          </dl>
        )}
      </div>
    </div>
  );
}
