import type { EnvironmentId } from "@/lib/domain/config";
import { Badge } from "@/components/ui/badge";
import { armStyle } from "@/lib/graph/arm-palette";
import { isDemoModel } from "@/lib/domain/model-id";
import { ScriptedStandIn } from "@/components/ui/scripted-stand-in";
import { familyDescriptor } from "@/lib/environments/descriptors";

/** What a solved task means in family `environment`, as the paper reports it (e.g. "EM", "pass@1"). */
export function metricName(environment: EnvironmentId): string {
  return familyDescriptor(environment).metric.name;
}

/** The evaluator behind the metric, in one sentence, honest about oracles (same wording as the run view). */
export function metricExplanation(environment: EnvironmentId): string {
  return familyDescriptor(environment).metric.explanation;
}

/** The family's full name, for headings. */
export function familyName(environment: EnvironmentId): string {
  return familyDescriptor(environment).heading;
}

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
