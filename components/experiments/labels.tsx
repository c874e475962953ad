import type { EnvironmentId } from "@/lib/domain/config";
import { Badge } from "@/components/ui/badge";

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
    <span className="whitespace-nowrap text-[11px] text-violet-700" data-testid="scripted-model-label">
      scripted stand-in, not a real LLM
    </span>
  );
}

/** True for the offline demo model (`GET /api/models` flags it `scripted`; its id is `demo`). */
export function isScriptedModel(modelId: string, scripted?: ReadonlySet<string>): boolean {
  return modelId === "demo" || (scripted?.has(modelId) ?? false);
}

/**
 * Colours and dash patterns of the arms' lines and swatches: a line is told
 * apart by its dash and its label too, never by colour alone.
 */
export const ARM_STYLES: ReadonlyArray<{ color: string; dash: string | undefined; name: string }> = [
  { color: "#64748b", dash: "6 4", name: "dashed grey" },
  { color: "#0369a1", dash: undefined, name: "solid blue" },
  { color: "#b45309", dash: "2 3", name: "dotted amber" },
  { color: "#7c3aed", dash: "10 3 2 3", name: "dash-dot violet" },
  { color: "#15803d", dash: "12 4", name: "long-dash green" },
  { color: "#be123c", dash: "4 2", name: "short-dash red" },
  { color: "#0f766e", dash: "1 2", name: "fine-dotted teal" },
  { color: "#1e293b", dash: "8 2 2 2 2 2", name: "dash-dot-dot black" },
];

/** The style of arm `index` (wraps around after eight). */
export function armStyle(index: number) {
  return ARM_STYLES[index % ARM_STYLES.length]!;
}

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
