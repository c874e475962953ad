import type { EnvironmentId } from "@/lib/domain/config";
import { Badge } from "@/components/ui/badge";
import { armStyle } from "@/lib/graph/arm-palette";
import { isDemoModel } from "@/lib/domain/model-id";
import { ScriptedStandIn } from "@/components/ui/scripted-stand-in";

/** What a solved task means per family, as the paper reports it. */
export const METRIC_NAME: Record<EnvironmentId, string> = {
  qa: "EM",
  code: "pass@1",
  household: "Success",
  open: "Judged pass",
};

/** The evaluator behind the metric, in one sentence, honest about oracles (same wording as the run view). */
export const METRIC_EXPLANATION: Record<EnvironmentId, string> = {
  qa: "Exact match (EM) with the gold answer, HotpotQA normalisation. EM uses the gold answer — an oracle signal, not self-evaluation.",
  code: "pass@1: the run's last trial passes the dataset's hidden tests (reporting only, never shown to the agent); the loop itself is driven by the agent's own internal tests.",
  household: "The text world's own success check (the task's goal state reached) — not an oracle.",
  open: "A judge model's weighted rubric score reaches the task's pass threshold — a model's opinion, not an oracle.",
};

/** The family's full name, for headings. */
export const FAMILY_NAME: Record<EnvironmentId, string> = {
  qa: "Multi-hop QA (HotpotQA style)",
  code: "Code (HumanEval / MBPP style)",
  household: "Household (ALFWorld style)",
  open: "Open tasks (LLM judge)",
};

/** The "oracle" label next to QA's EM, with its explanation on hover and for screen readers. */
export function OracleLabel() {
  return (
    <Badge tone="violet" data-testid="experiment-oracle-badge" title="EM uses the gold answer — an oracle signal, not self-evaluation.">
      oracle signal
    </Badge>
  );
}

/** Marks the demo model wherever a model id is shown. */
export function ScriptedLabel() {
  return (
<ScriptedStandIn full className="whitespace-nowrap text-[11px] text-violet-700" testId="scripted-model-label" />
  );
}

/** True for the offline demo model (`GET /api/models` flags it `scripted`; its id is `demo`). */
export function isScriptedModel(modelId: string, scripted?: ReadonlySet<string>): boolean {
  return isDemoModel(modelId) || (scripted?.has(modelId) ?? false);
}

export { ARM_STYLES, armStyle } from "@/lib/graph/arm-palette";

/** A small line sample in an arm's colour and dash, for legends and table headers. */
export function ArmSwatch({ index }: { index: number }) {
  const style = armStyle(index);
  return (
    <span
      aria-hidden
      className="inline-block w-6 flex-none align-middle"
      style={{ borderTopWidth: 3, borderTopColor: style.color, borderTopStyle: style.dash === undefined ? "solid" : style.dash.startsWith("1 ") || style.dash.startsWith("2 ") ? "dotted" : "dashed" }}
    />
  );
}
