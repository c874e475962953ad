"use client";

/**
 * Graph nodes of code runs (paper §4, programming Reflexion): the code an
 * action wrote, the internal tests' result, and the two verdicts of a trial.
 * The views come from lib/graph/code-views.ts as the optional `code` field of
 * node data; step-nodes.tsx, outcome-nodes.tsx and trial-lane-node.tsx hand
 * over to these when it is set, so QA and household nodes are unchanged.
 *
 * Test ids (shared with the inspector, so scope them by `node-evaluation` or
 * `inspector`): `code-preview` (the lines of code on an action node),
 * `code-test-summary` (k/n on an observation node), `verdict-internal` and
 * `verdict-hidden` (each with `data-verdict`), `false-positive-flag`,
 * `code-trial-summary` (lane header).
 */

import { useId } from "react";
import {
  falsePositiveExplanation,
  type ActionNodeData,
  type CodeActionView,
  type CodeObservationView,
  type CodeTestStatusView,
  type CodeTrialView,
  type CodeVerdictView,
  type EvaluationNodeData,
  type HiddenVerdictView,
  type ObservationNodeData,
} from "@/lib/graph";
import { Badge } from "@/components/ui/badge";
import { cn } from "@/lib/utils/cn";
import { ActionMarkers, actionFrameProps, FlowHandles, NodeFrame, NodeLabel } from "./node-frame";

/** What a false positive means (internal suite not empty), for the tooltip and the inspector; see {@link falsePositiveExplanation}. */
export const FALSE_POSITIVE_EXPLANATION = falsePositiveExplanation(false);

/**
 * "False positive" badge (warning tone, text not colour alone) with an
 * explanation on hover and for screen readers; `vacuous` when the internal
 * suite was empty.
 */
export function FalsePositiveBadge({ className, vacuous = false }: { className?: string; vacuous?: boolean }) {
  const tooltipId = useId();
  return (
    <span className={cn("group/fp relative inline-flex", className)}>
      <Badge
        tone="amber"
        data-testid="false-positive-flag"
        data-vacuous={vacuous || undefined}
        aria-describedby={tooltipId}
        className="cursor-help border border-amber-500 bg-amber-200 font-semibold"
      >
        ⚠ False positive
      </Badge>
      <span
        id={tooltipId}
        role="tooltip"
        className="pointer-events-none invisible absolute bottom-full left-0 z-20 mb-1.5 w-60 rounded-md bg-slate-900 px-2 py-1.5 text-[11px] font-normal normal-case leading-snug tracking-normal text-white opacity-0 shadow-lg transition-opacity group-hover/fp:visible group-hover/fp:opacity-100"
      >
        {falsePositiveExplanation(vacuous)}
      </span>
    </span>
  );
}

/** ✓ / ✗ / ! / ⏱ per test status: the glyph says it, the colour only repeats it. */
export const STATUS_GLYPHS: Record<CodeTestStatusView, string> = { pass: "✓", fail: "✗", error: "!", timeout: "⏱" };

const STATUS_CLASSES: Record<CodeTestStatusView, string> = {
  pass: "border-green-300 bg-green-50 text-green-800",
  fail: "border-red-300 bg-red-50 text-red-800",
  error: "border-red-300 bg-red-50 text-red-800",
  timeout: "border-amber-300 bg-amber-50 text-amber-900",
};

/** Header and first lines of a `Write tests` / `Implement` action. */
export function CodeActionNode({ id, data, code }: { id: string; data: ActionNodeData; code: CodeActionView }) {
  const more = code.lines - code.preview.length;
  return (
    <NodeFrame {...actionFrameProps(id, data)} data-invalid="false" data-action-type={code.actionType}>
      <FlowHandles />
      <NodeLabel
        className="text-sky-800"
        right={
          <ActionMarkers data={data}>
            <span className="text-[10px] text-slate-500">
              {code.lines} {code.lines === 1 ? "line" : "lines"} · {code.language}
            </span>
          </ActionMarkers>
        }
      >
        {code.verb} · step {data.step}
      </NodeLabel>
      <pre
        data-testid="code-preview"
        className="mt-1 overflow-hidden rounded border border-slate-200 bg-slate-50 px-1.5 py-1 font-mono text-[11px] leading-[15px] text-slate-900"
      >
        {code.preview.map((line, index) => (
          <span key={index} className="block overflow-hidden text-ellipsis whitespace-pre">
            {line === "" ? "\u00a0" : line}
          </span>
        ))}
      </pre>
      {more > 0 ? <p className="mt-auto text-right text-[10px] leading-none text-slate-500">+{more} more {more === 1 ? "line" : "lines"}</p> : null}
    </NodeFrame>
  );
}

function StatusStrip({ statuses }: { statuses: readonly CodeTestStatusView[] }) {
  return (
    <ol className="flex flex-none gap-0.5" aria-hidden>
      {statuses.map((status, index) => (
        <li key={index} title={`internal ${index + 1}: ${status}`} className={cn("grid size-4 place-items-center rounded-sm border text-[9px] font-bold leading-none", STATUS_CLASSES[status])}>
          {STATUS_GLYPHS[status]}
        </li>
      ))}
    </ol>
  );
}

/** After `WriteTests`: how many tests were kept. After `Implement`: internal tests k/n passed, per-test marks, the first failure. */
export function CodeObservationNode({ id, data, code }: { id: string; data: ObservationNodeData; code: CodeObservationView }) {
  if (code.kind === "tests-written") {
    const dropped = code.written - code.kept;
    return (
      <NodeFrame id={id} kind="observation" trial={data.trial} data-step={data.step} data-done={data.done} data-code-kind={code.kind} data-kept={code.kept} data-written={code.written} className="border-slate-200 border-l-4 border-l-teal-600 bg-slate-50 px-3 py-2">
        <FlowHandles />
        <NodeLabel className="text-teal-800">Tests written · step {data.step}</NodeLabel>
        <p data-testid="code-test-summary" className="mt-1 text-sm font-semibold text-slate-900">
          kept {code.kept} of {code.written} {code.written === 1 ? "test" : "tests"}
        </p>
        {dropped > 0 ? (
          <p className="truncate text-[11px] text-amber-900" title={code.firstDropReason ?? undefined}>
            {dropped} dropped{code.firstDropReason ? `: ${code.firstDropReason}` : ""}
          </p>
        ) : (
          <p className="text-[11px] text-slate-500">none dropped</p>
        )}
      </NodeFrame>
    );
  }
  const pass = code.verdict === "pass";
  return (
    <NodeFrame
      id={id}
      kind="observation"
      trial={data.trial}
      data-step={data.step}
      data-done={data.done}
      data-code-kind={code.kind}
      data-verdict={code.verdict}
      data-passed={code.passed}
      data-total={code.total}
      className={cn("border-slate-200 border-l-4 bg-slate-50 px-3 py-2", pass ? "border-l-green-600" : "border-l-red-600")}
    >
      <FlowHandles />
      <NodeLabel className="text-teal-800" right={<Badge tone={pass ? "green" : "red"}>{pass ? "✓ pass" : "✗ fail"}</Badge>}>
        Internal tests · step {data.step}
      </NodeLabel>
      <p data-testid="code-test-summary" className={cn("mt-1 truncate text-sm font-semibold", pass ? "text-green-800" : "text-red-800")}>
        internal tests {code.passed}/{code.total} passed
      </p>
      <div className="mt-1 flex min-w-0 items-center gap-1.5">
        <StatusStrip statuses={code.statuses} />
        {code.firstFailure ? (
          <p className="min-w-0 truncate font-mono text-[11px] text-slate-700" title={code.firstFailure}>
            {code.firstFailure}
          </p>
        ) : (
          <p className="min-w-0 truncate text-[11px] text-slate-500">{code.total === 0 ? (pass ? "no internal tests: passed vacuously (older log)" : "no runnable internal test: untested, not passed") : "every internal test passed"}</p>
        )}
      </div>
    </NodeFrame>
  );
}

/** One verdict box: `Internal ✓ pass 3/3` / `Hidden ✗ fail (1/2)`. */
export function VerdictBox({
  which,
  verdict,
  passed,
  total,
  className,
}: {
  which: "internal" | "hidden";
  verdict: "pass" | "fail" | null;
  passed: number | null;
  total: number | null;
  className?: string;
}) {
  const label = which === "internal" ? "Internal" : "Hidden";
  const title =
    which === "internal"
      ? "The agent's own tests: the Evaluator's verdict, which decides whether the loop goes on"
      : "The benchmark's hidden tests: run for reporting only, never shown to the agent";
  return (
    <div
      data-testid={`verdict-${which}`}
      data-verdict={verdict ?? "none"}
      title={title}
      className={cn(
        "min-w-0 flex-1 rounded border px-1.5 py-1",
        which === "hidden" && "border-dashed",
        verdict === "pass" ? "border-green-400 bg-white" : verdict === "fail" ? "border-red-400 bg-white" : "border-slate-300 bg-white",
        className,
      )}
    >
      <p className="text-[10px] font-semibold text-slate-600">{label}: </p>
      <p className={cn("truncate text-xs font-semibold", verdict === "pass" ? "text-green-800" : verdict === "fail" ? "text-red-800" : "text-slate-500")}>
        {verdict === null ? "not run" : verdict === "pass" ? "✓ pass" : "✗ fail"}
        {passed !== null && total !== null ? <span className="font-normal text-slate-600"> ({passed}/{total})</span> : null}
      </p>
    </div>
  );
}

function hiddenBox(hidden: HiddenVerdictView | null) {
  return <VerdictBox which="hidden" verdict={hidden?.verdict ?? null} passed={hidden?.passed ?? null} total={hidden?.total ?? null} />;
}

/** The trial's verdicts side by side: the agent's own (internal) and the benchmark's (hidden), and the false-positive flag. */
export function CodeEvaluationNode({ id, data, code }: { id: string; data: EvaluationNodeData; code: CodeVerdictView }) {
  const pass = code.internal === "pass";
  return (
    <NodeFrame
      id={id}
      kind="evaluation"
      trial={data.trial}
      data-verdict={data.verdict}
      data-oracle={data.oracle}
      data-hidden-verdict={code.hidden?.verdict ?? "none"}
      data-false-positive={code.falsePositive}
      // visible overflow so the false-positive tooltip is not clipped
      className={cn(
        "overflow-visible border-2 px-3 py-2",
        code.falsePositive ? "border-amber-500 bg-amber-50" : pass ? "border-green-600 bg-green-50" : "border-red-600 bg-red-50",
      )}
    >
      <FlowHandles />
      <NodeLabel className={code.falsePositive ? "text-amber-900" : pass ? "text-green-800" : "text-red-800"}>Evaluation · {data.evaluatorKind}</NodeLabel>
      <div className="mt-1 flex gap-1.5">
        <VerdictBox which="internal" verdict={code.internal} passed={code.internalPassed} total={code.internalTotal} />
        {hiddenBox(code.hidden)}
      </div>
      {code.falsePositive ? (
        <div className="mt-1.5 flex min-w-0 items-center gap-1.5">
          <FalsePositiveBadge className="flex-none" vacuous={code.vacuous} />
          <p className="min-w-0 truncate text-[10px] font-medium text-amber-950">{code.vacuous ? "no tests: passed vacuously" : "wrong program"}</p>
        </div>
      ) : code.untested ? (
        <p data-testid="untested-flag" className="mt-1 line-clamp-2 text-[11px] font-medium leading-snug text-red-900">
          No runnable internal test: this implementation was not checked, so it does not count as passing.
        </p>
      ) : (
        <p className="mt-1 line-clamp-2 text-[11px] leading-snug text-slate-600">
          {code.hidden && code.hidden.verdict !== code.internal
            ? "The hidden tests disagree with the agent's own tests."
            : "The internal verdict drives the loop; hidden tests are for reporting only."}
        </p>
      )}
    </NodeFrame>
  );
}

const mark = (verdict: "pass" | "fail") => (verdict === "pass" ? "✓" : "✗");

/** Third line of a code trial's lane header: `internal ✓ · hidden ✗ 1/2 · false positive`. */
export function CodeTrialLine({ code }: { code: CodeTrialView }) {
  if (code.internal === null) {
    return (
      <p data-testid="code-trial-summary" data-internal="none" className="mt-1 truncate text-xs text-slate-400">
        tests: awaiting verdict
      </p>
    );
  }
  return (
    <p
      data-testid="code-trial-summary"
      data-internal={code.internal}
      data-hidden={code.hidden?.verdict ?? "none"}
      data-false-positive={code.falsePositive}
      className="mt-1 flex items-center gap-1 overflow-hidden whitespace-nowrap text-[11px]"
    >
      <span className={code.internal === "pass" ? "text-green-300" : "text-red-300"}>internal {mark(code.internal)}</span>
      <span aria-hidden className="text-slate-500">·</span>
      {code.hidden ? (
        <span className={code.hidden.verdict === "pass" ? "text-green-300" : "text-red-300"}>
          hidden {mark(code.hidden.verdict)} {code.hidden.passed}/{code.hidden.total}
        </span>
      ) : (
        <span className="text-slate-400">hidden not run</span>
      )}
      {code.falsePositive ? (
        <span className="ml-0.5 rounded bg-amber-300 px-1 text-[10px] font-semibold text-amber-950" title={falsePositiveExplanation(code.vacuous)}>
          ⚠ false positive
        </span>
      ) : null}
    </p>
  );
}
