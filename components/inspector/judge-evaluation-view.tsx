import type { RunState } from "@/lib/domain/fold-run";
import { Badge } from "@/components/ui/badge";
import { cn } from "@/lib/utils/cn";
import { Facts, Section } from "./blocks";
import { describeModelId } from "@/lib/domain/model-id";

/** What the label says, everywhere a judge's verdict is shown. */
export const JUDGE_OPINION_LABEL = "a model's opinion, not an oracle";

/** The label next to an LLM judge's verdict: it is a model's opinion, not an oracle (nor the task's own success check). */
export function JudgeOpinionBadge({ className }: { className?: string }) {
  return (
    <Badge
      tone="amber"
      data-testid="judge-opinion-label"
      className={className}
      title="An LLM judge scored this answer against the task's rubric. Its scores are a model's opinion: they can be wrong, and no gold answer or test was used."
    >
      {JUDGE_OPINION_LABEL}
    </Badge>
  );
}

/** A 0–1 value as a horizontal bar, with an optional threshold marker. */
function ScoreBar({ value, threshold, pass, label }: { value: number; threshold?: number; pass?: boolean; label: string }) {
  return (
    <div
      className="relative h-2 w-full overflow-hidden rounded bg-slate-200"
      role="meter"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={1}
      aria-valuenow={value}
    >
      <div className={cn("h-full rounded", pass === undefined ? "bg-sky-600" : pass ? "bg-green-600" : "bg-red-600")} style={{ width: `${Math.round(value * 100)}%` }} />
      {threshold !== undefined ? <div className="absolute inset-y-0 w-0.5 bg-slate-900" style={{ left: `${Math.round(threshold * 100)}%` }} title={`pass threshold ${threshold.toFixed(2)}`} /> : null}
    </div>
  );
}

/**
 * The LLM judge's evaluation of a trial (the `open` family): the weighted score against the
 * threshold, a bar per criterion with its weight, raw score and the judge's one-line
 * justification, and which model judged with which template. Nothing for other families'
 * evaluations. The judge's prompt and answer are the recorded call, shown by the inspector below.
 */
export function JudgeEvaluationView({ state, trial }: { state: Pick<RunState, "trials">; trial: number }) {
  const evaluation = state.trials.find((t) => t.trial === trial)?.evaluation;
  if (!evaluation || evaluation.evaluatorKind !== "llm-judge") return null;
  const judge = evaluation.judge;
  if (!judge) {
    return (
      <Section title="LLM judge" right={<JudgeOpinionBadge />}>
        <p className="text-xs text-slate-600" data-testid="judge-not-asked">
          The judge was not asked: {evaluation.feedback}
        </p>
      </Section>
    );
  }
  const pass = evaluation.verdict === "pass";
  return (
    <Section title="LLM judge — rubric scores" right={<JudgeOpinionBadge />}>
      <div className="space-y-1" data-testid="judge-weighted">
        <p className="text-xs text-slate-800">
          Weighted score <strong data-testid="judge-weighted-score">{judge.weightedScore.toFixed(2)}</strong> {pass ? "reaches" : "is below"} the pass threshold{" "}
          <strong data-testid="judge-threshold">{judge.threshold.toFixed(2)}</strong> → {pass ? "pass" : "fail"}
        </p>
        <ScoreBar value={judge.weightedScore} threshold={judge.threshold} pass={pass} label="Weighted score against the pass threshold" />
      </div>
      <ul className="mt-3 space-y-2.5" aria-label="Scores per criterion">
        {judge.criteria.map((criterion) => (
          <li key={criterion.id} data-testid="judge-criterion" data-criterion={criterion.id} data-score={criterion.rawScore} className="space-y-1">
            <div className="flex items-baseline justify-between gap-2 text-xs">
              <span className="font-medium text-slate-900">
                {criterion.id} <span className="font-normal text-slate-500">× {criterion.weight}</span>
              </span>
              <span className="font-mono text-slate-800">{criterion.rawScore}/5</span>
            </div>
            <ScoreBar value={criterion.score} label={`${criterion.id}: ${criterion.rawScore} of 5`} />
            <p className="text-[11px] leading-snug text-slate-600">{criterion.description}</p>
            <p className="text-[11px] leading-snug text-slate-800" data-testid="judge-justification">
              {criterion.justification || "(no justification given)"}
            </p>
          </li>
        ))}
      </ul>
      <div className="mt-3">
        <Facts
          rows={[
            ["Judge model", <span key="m" data-testid="judge-model">{describeModelId(judge.modelId)}</span>],
            ["Judge template", judge.templateId],
            ["Asked", judge.attempts === 1 ? "once" : `${judge.attempts} times (the first answer could not be read: ${judge.firstProblem ?? "unknown"})`],
          ]}
        />
      </div>
    </Section>
  );
}
