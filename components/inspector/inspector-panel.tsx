"use client";

// The inspector: one details view per node kind (thought, action, observation, evaluation,
// reflection, trial, call error). Code runs' views (code, test tables, both verdicts) live in
// code-views.tsx; "Fork here" in fork-here.tsx; the memory-in-prompt check in memory-in-prompt.tsx.
// Over 400 lines: it is the one switch over node kinds, kept together so every kind reads the same recorded facts the same way.

import type { ReactNode } from "react";
import type { RunState, StepView } from "@/lib/domain/fold-run";
import type { MemoryItem } from "@/lib/domain/events";
import { codeRunOf, type ForkPoint, type GraphNodeOf, type RunGraph, type RunGraphNode } from "@/lib/graph";
import { useRunUiStore } from "@/lib/store";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { formatCostTotal, formatInteger, formatTime } from "@/components/ui/format";
import { Notice } from "@/components/ui/notice";
import { ORACLE_EXPLANATION, OracleBadge } from "@/components/run-graph";
import { Facts, Section, TextBlock } from "./blocks";
import { CodeActionDetails, CodeObservationDetails, CodeVerdictDetails } from "./code-views";
import { ForkHere } from "./fork-here";
import { RawRecordsView } from "./raw-records-view";
import { QaEvaluationView } from "./qa-evaluation-view";
import { ReflectionWarning } from "./reflection-warning";
import { JUDGE_OPINION_LABEL, JudgeEvaluationView } from "./judge-evaluation-view";
import { ModelCallDetails, type ModelCall } from "./model-call-details";
import { AnnotationThread } from "./annotation-thread";
import { EditedMark, TrialChanges } from "./change-authors";

function stepOf(state: RunState, trial: number, step: number): StepView | undefined {
  return state.trials.find((candidate) => candidate.trial === trial)?.steps.find((candidate) => candidate.step === step);
}

function MemoryList({ items, muted = false, empty }: { items: readonly MemoryItem[]; muted?: boolean; empty: string }) {
  if (items.length === 0) return <p className="text-xs text-slate-500">{empty}</p>;
  return (
    <ol className="space-y-1.5">
      {items.map((item) => (
        <li key={item.id} className={`rounded-md border px-2 py-1.5 text-xs ${muted ? "border-slate-200 bg-slate-50 text-slate-500" : "border-amber-200 bg-amber-50 text-slate-800"}`}>
          <span className="mr-1 font-medium">{item.trial === null ? "hand-written" : `from trial ${item.trial}`}:</span>
          {item.text}
        </li>
      ))}
    </ol>
  );
}

function TrialDetails({ node, state }: { node: GraphNodeOf<"trial">; state: RunState }) {
  const trial = state.trials.find((candidate) => candidate.trial === node.data.trial);
  if (!trial) return null;
  const calls = trial.callIds.map((id) => state.calls[id]).filter((call): call is ModelCall => call !== undefined);
  const tokens = calls.reduce((sum, call) => sum + call.usage.inputTokens + call.usage.outputTokens, 0);
  const cost = calls.reduce((sum, call) => sum + (call.costUsd ?? 0), 0);
  const unpriced = calls.filter((call) => call.costUsd === null).length;
  const byRole = (role: string) => calls.filter((call) => call.role === role).length;
  return (
    <>
      <Facts
        rows={[
          ["Outcome", trial.outcome ?? (trial.cancelled ? "cancelled (the run was cancelled during this trial)" : "in progress")],
          ["Reason", trial.endReason ?? "—"],
          ["Steps", String(trial.steps.length)],
          ["Answer", trial.answer ?? "—"],
          ["Model calls", `${calls.length} (actor ${byRole("actor")}, reflector ${byRole("reflector")})`],
          ["Tokens", formatInteger(tokens)],
          ["Cost", <span key="c" data-testid="inspector-trial-cost">{formatCostTotal({ costUsd: cost, calls: calls.length, unpricedCalls: unpriced })}</span>],
        ]}
      />
      {node.data.memoryMissing ? (
        <Notice tone="warning" data-testid="trial-memory-missing" className="text-xs">
          This trial&apos;s first Actor prompt does not carry the memory it should. Open one of its Thought nodes to see the prompt and what is missing.
        </Notice>
      ) : null}
      <TrialChanges state={state} trial={trial.trial} />
      <Section title={`Memory in context (${trial.memory.length})`}>
        <MemoryList items={trial.memory} empty="No reflections: the Actor started this trial from scratch." />
      </Section>
      {trial.evicted.length > 0 ? (
        <Section title={`Evicted by the window (${trial.evicted.length})`}>
          <MemoryList items={trial.evicted} muted empty="" />
        </Section>
      ) : null}
    </>
  );
}

function NodeDetails({
  node,
  state,
  forkPoints,
  onForkHere,
}: {
  node: RunGraphNode;
  state: RunState;
  forkPoints?: ReadonlyMap<string, ForkPoint>;
  onForkHere?: (nodeId: string) => void;
}) {
  switch (node.type) {
    case "lane":
      return null;
    case "trial":
      return <TrialDetails node={node} state={state} />;
    case "thought": {
      const reasoning = stepOf(state, node.data.trial, node.data.step)?.thought?.reasoning ?? null;
      return (
        <>
          <Section title="Thought">
            <TextBlock testId="inspector-text">{node.data.text}</TextBlock>
            {reasoning ? (
              <details data-testid="inspector-reasoning" className="rounded-md border border-slate-200 bg-slate-50 px-2 py-1.5 text-xs text-slate-700">
                <summary className="cursor-pointer select-none font-medium">Reasoning block ({reasoning.length.toLocaleString()} characters) — never parsed for actions, never in later prompts</summary>
                <TextBlock mono>{reasoning}</TextBlock>
              </details>
            ) : null}
          </Section>
          <ModelCallDetails call={node.data.callId === null ? undefined : state.calls[node.data.callId]} state={state} byPerson={node.data.callId === null && !node.data.recordedByAuthors} />
        </>
      );
    }
    case "action": {
      const recorded = stepOf(state, node.data.trial, node.data.step)?.action ?? null;
      return (
        <>
          {node.data.code && !node.data.invalid ? (
            <CodeActionDetails node={node} />
          ) : (
            <Section title="Action" right={node.data.invalid ? <Badge tone="red">Invalid action</Badge> : null}>
              <TextBlock testId="inspector-text" mono>
                {node.data.text}
              </TextBlock>
              {node.data.invalid ? (
                <p data-testid="inspector-parse-error" className="rounded-md border border-red-200 bg-red-50 px-2 py-1.5 text-xs text-red-800">
                  {node.data.parseError ?? "The action could not be parsed."} The environment answers an invalid action with an observation; it still counts as a step.
                </p>
              ) : (
                <Facts rows={[["Parsed", <code key="p" className="font-mono">{node.data.display ?? `${node.data.actionType}[${node.data.argument}]`}</code>]]} />
              )}
              {recorded?.truncated ? (
                <p data-testid="inspector-truncated" className="rounded-md border border-amber-200 bg-amber-50 px-2 py-1.5 text-xs text-amber-900">
                  Truncated: the completion hit the token limit (finish reason <code>length</code>); the action above was read from what arrived.
                </p>
              ) : null}
              {recorded?.ignored ? (
                <div data-testid="inspector-ignored" className="space-y-1 text-xs text-slate-600">
                  <p className="font-medium">Ignored — the reader ran only the first well-formed action:</p>
                  <TextBlock mono>{recorded.ignored}</TextBlock>
                </div>
              ) : null}
            </Section>
          )}
          <ModelCallDetails call={node.data.callId === null ? undefined : state.calls[node.data.callId]} state={state} byPerson={node.data.callId === null && !node.data.recordedByAuthors} />
        </>
      );
    }
    case "observation": {
      if (node.data.code) return <CodeObservationDetails node={node} state={state} />;
      const worldState = state.trials
        .find((trial) => trial.trial === node.data.trial)
        ?.steps.find((step) => step.step === node.data.step)?.observation?.state;
      // An imported trace's raw records have their own block below.
      const { rawRecords: _raw, ...worldStateShown } = worldState ?? {};
      return (
        <>
          <Section title="Observation">
            <TextBlock testId="inspector-text">{node.data.text}</TextBlock>
          </Section>
          <Facts
            rows={[
              ["Episode done", node.data.done ? "yes" : "no"],
              ["Submitted answer", node.data.answer ?? "—"],
            ]}
          />
          {worldStateShown && Object.keys(worldStateShown).length > 0 ? (
            <Section title="Environment state after this step">
              <TextBlock mono>{JSON.stringify(worldStateShown, null, 2)}</TextBlock>
            </Section>
          ) : null}
          <RawRecordsView records={worldState?.rawRecords} />
        </>
      );
    }
    case "evaluation": {
      const evaluation = state.trials.find((trial) => trial.trial === node.data.trial)?.evaluation;
      return (
        <>
          {node.data.code ? (
            <CodeVerdictDetails node={node} state={state} language={codeRunOf(state)?.language ?? "python"} />
          ) : (
            <Section title="Verdict" right={node.data.oracle ? <OracleBadge /> : null}>
              <p className={`text-sm font-semibold ${node.data.verdict === "pass" ? "text-green-800" : "text-red-800"}`}>
                {node.data.verdict === "pass" ? "✓ Pass" : "✗ Fail"} · score {node.data.score}
              </p>
              <Facts
                rows={[
                  ["Evaluator", node.data.evaluatorKind],
                  [
                    "Signal",
                    node.data.oracle
                      ? `Oracle: ${ORACLE_EXPLANATION}.`
                      : node.data.evaluatorKind === "llm-judge"
                        ? `LLM judge: ${JUDGE_OPINION_LABEL}.`
                        : node.data.evaluatorKind === "trace-score"
                          ? `Score from the trace (${String(evaluation?.details.source ?? "its source")}): the outside agent's own judgement, as recorded — not checked here.`
                          : "Self-evaluation (no gold answer).",
                  ],
                ]}
              />
            </Section>
          )}
          <QaEvaluationView state={state} trial={node.data.trial} />
          <JudgeEvaluationView state={state} trial={node.data.trial} />
          {(evaluation?.judge?.callIds ?? []).map((callId, index, all) => (
            <ModelCallDetails key={callId} call={state.calls[callId]} state={state} title={all.length > 1 ? `Judge call ${index + 1} of ${all.length} (its prompt and answer)` : "Judge call (its prompt and answer)"} />
          ))}
          <Section title={node.data.code ? "Feedback the agent sees" : "Feedback"}>
            <TextBlock testId="inspector-text" mono={node.data.code !== undefined}>
              {node.data.feedback}
            </TextBlock>
          </Section>
          {evaluation && Object.keys(evaluation.details).length > 0 ? (
            <Section title="Details">
              <TextBlock mono>{JSON.stringify(evaluation.details, null, 2)}</TextBlock>
            </Section>
          ) : null}
          <ForkHere node={node} state={state} forkPoint={forkPoints?.get(node.id)} onForkHere={onForkHere} />
        </>
      );
    }
    case "reflection":
      return (
        <>
          <Section title="Reflection" right={<EditedMark edited={node.data.edited} editedBy={node.data.editedBy} />}>
            <TextBlock testId="inspector-text">{node.data.text}</TextBlock>
          </Section>
          {node.data.warning && !node.data.edited ? <ReflectionWarning warning={node.data.warning} /> : null}
          {node.data.edited ? (
            <Section title="Original (as the model wrote it)">
              <TextBlock testId="inspector-original">{node.data.originalText}</TextBlock>
            </Section>
          ) : null}
          <ForkHere node={node} state={state} forkPoint={forkPoints?.get(node.id)} onForkHere={onForkHere} />
          <Facts
            rows={[
              [
                "Next trial",
                node.data.inNextContext === null ? "not started yet" : node.data.inNextContext ? "in its context" : "not in its context (removed from memory or outside the window)",
              ],
            ]}
          />
          <ModelCallDetails call={state.calls[node.data.callId]} state={state} title="Self-reflection call" />
        </>
      );
    case "refinement":
      return (
        <>
          <Section title={`Feedback (round ${node.data.round})${node.data.stop ? " — nothing left to fix" : ""}`}>
            <TextBlock testId="inspector-text">{node.data.feedback}</TextBlock>
          </Section>
          {node.data.answer !== null ? (
            <Section title="Refined answer (the Evaluator judges the last one)">
              <TextBlock testId="inspector-refined-answer" mono={node.data.monospace}>
                {node.data.answer}
              </TextBlock>
            </Section>
          ) : null}
          <ModelCallDetails call={state.calls[node.data.feedbackCallId]} state={state} title="Feedback call" />
          {node.data.answerCallId !== null ? <ModelCallDetails call={state.calls[node.data.answerCallId]} state={state} title="Refine call" /> : null}
        </>
      );
    case "live-call":
      return (
        <>
          <Section title={node.data.ended ? "Streamed text (the call has returned; its events follow)" : "Streamed so far"}>
            <TextBlock testId="inspector-live-text" mono={node.data.monospace}>
              {`${node.data.joinedLate ? "… " : ""}${node.data.text}` || "(no text yet)"}
            </TextBlock>
          </Section>
          <Facts
            rows={[
              ["Role", node.data.role === "actor" ? "Actor" : "Self-reflection"],
              ["Started", formatTime(node.data.startedAt)],
            ]}
          />
          <p className="text-xs text-slate-500">
            The exact prompt, the final completion, tokens and cost appear on the step&apos;s nodes when the call ends. The streamed text is not stored.
          </p>
        </>
      );
    case "call-error": {
      const error = state.callErrors.find((candidate) => candidate.eventId === node.data.eventId);
      return (
        <Facts
          rows={[
            ["Role", node.data.role],
            ["Code", node.data.code],
            ["Message", node.data.message],
            ["Model", error?.modelId ?? "—"],
            ["Retryable", error ? (error.retryable ? "yes" : "no") : "—"],
            ["Attempts", error ? String(error.attempts) : "—"],
            // output-too-large: how much the model had sent when the call was stopped, against the limits.
            ...(error?.output
              ? ([["Reply size", `over the limit at ${error.output.bytes.toLocaleString("en-US")} bytes, ${error.output.tokens.toLocaleString("en-US")} tokens (limits ${error.output.limitBytes.toLocaleString("en-US")} bytes, ${error.output.limitTokens.toLocaleString("en-US")} tokens)`] as [string, string]])
              : []),
          ]}
        />
      );
    }
  }
}

const TITLES: Record<RunGraphNode["type"], string> = {
  lane: "Trial",
  trial: "Trial",
  thought: "Thought",
  action: "Action",
  observation: "Observation",
  evaluation: "Evaluation",
  reflection: "Self-reflection",
  refinement: "Self-Refine round",
  "call-error": "Model call error",
  "live-call": "Model call in flight",
};

function titleOf(node: RunGraphNode): string {
  const step = "step" in node.data && typeof node.data.step === "number" ? ` · step ${node.data.step}` : "";
  return `${TITLES[node.type]} — trial ${node.data.trial}${step}`;
}

/**
 * Details of the selected graph node. For Actor steps and reflections that
 * includes the exact prompt sent and the raw completion, the model, tokens,
 * latency, cost and whether the answer came live or from the replay cache.
 */
export function InspectorPanel({
  graph,
  state,
  forkPoints,
  onForkHere,
  practice,
  notes,
}: {
  graph: RunGraph;
  state: RunState;
  /** The checkpoint after each evaluation and reflection node (by node id), for "Fork here". */
  forkPoints?: ReadonlyMap<string, ForkPoint>;
  onForkHere?: (nodeId: string) => void;
  /** "Write your own reflection" for a failed trial (components/reflection-practice), shown under a failed trial's evaluation. */
  practice?: (trial: number) => ReactNode;
  /** The run and branch (null = root) whose people's notes the "Notes" section lists and adds to; no section without it. */
  notes?: { runId: string; branchId: string | null };
}) {
  const selectedNodeId = useRunUiStore((store) => store.selectedNodeId);
  const open = useRunUiStore((store) => store.inspectorOpen);
  const closeInspector = useRunUiStore((store) => store.closeInspector);
  const node = selectedNodeId ? graph.nodes.find((candidate) => candidate.id === selectedNodeId) : undefined;

  if (!open || !node) {
    return (
      <div data-testid="inspector-empty" className="px-4 py-3 text-xs text-slate-500">
        Select a node in the graph (click, or Tab to it and press Enter) to see its details: the exact prompt, the raw completion, tokens, latency and cost.
      </div>
    );
  }

  return (
    <section data-testid="inspector" data-kind={node.type} aria-label="Inspector" className="flex min-h-0 flex-1 flex-col">
      <header className="flex items-center justify-between gap-2 border-b border-slate-200 px-4 py-2">
        <h2 className="truncate text-sm font-semibold text-slate-900">{titleOf(node)}</h2>
        <Button variant="ghost" size="sm" onClick={closeInspector} aria-label="Close inspector" data-testid="inspector-close">
          ✕
        </Button>
      </header>
      {/* A size container: the prompt box sizes itself to this area's height (cqh). */}
      {/* Keyed by node: another node's details start at the top, not at the last one's scroll position. */}
      {/* A focusable scroll region: the details may hold no control to scroll them by keyboard. */}
      <div key={node.id} className="min-h-0 flex-1 space-y-4 overflow-y-auto px-4 py-3 [container-type:size]" tabIndex={0} role="region" aria-label="Details">
        <NodeDetails node={node} state={state} forkPoints={forkPoints} onForkHere={onForkHere} />
        {practice && node.type === "evaluation" && node.data.verdict === "fail" ? (
          <details className="rounded-md border border-amber-300" data-testid="practice-details">
            <summary className="cursor-pointer px-3 py-2 text-sm font-medium text-slate-900" data-testid="practice-open">
              Write your own reflection before seeing the model&apos;s
            </summary>
            <div className="px-2 pb-2">{practice(node.data.trial)}</div>
          </details>
        ) : null}
        {notes && node.type !== "lane" && node.type !== "live-call" ? <AnnotationThread runId={notes.runId} branchId={notes.branchId} eventId={node.id} nodeType={node.type} /> : null}
      </div>
    </section>
  );
}
