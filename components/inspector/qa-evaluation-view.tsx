import type { RunState } from "@/lib/domain/fold-run";
import { formatScore, qaEvaluationView } from "@/lib/graph/qa-scores";
import { revealInvisible } from "@/lib/graph/visible-chars";
import { Facts, Section } from "./blocks";

/** Text with invisible and confusable characters drawn as markers (`U+200B`), named in their titles. */
export function VisibleText({ text, testId }: { text: string; testId?: string }) {
  return (
    <span data-testid={testId} className="font-mono">
      {revealInvisible(text).map((segment, index) =>
        segment.kind === "text" ? (
          <span key={index}>{segment.text}</span>
        ) : (
          <abbr
            key={index}
            data-testid="hidden-char"
            title={`${segment.code} ${segment.name} (${segment.why}): EM and F1 see it, you would not`}
            className="mx-px rounded bg-amber-100 px-0.5 text-[10px] font-semibold text-amber-900 no-underline"
          >
            {segment.code}
          </abbr>
        ),
      )}
    </span>
  );
}

/** The QA evaluation: answer and gold answer with hidden characters shown, EM, F1, precision and recall (hotpot_evaluate_v1). Nothing for other families. */
export function QaEvaluationView({ state, trial }: { state: Pick<RunState, "config" | "trials">; trial: number }) {
  const view = qaEvaluationView(state, trial);
  if (view === null) return null;
  return (
    <Section title="Answer scores (hotpot_evaluate_v1)">
      <Facts
        rows={[
          ["Answer", view.prediction === null ? "— (no Finish[...])" : <VisibleText key="p" text={view.prediction} testId="qa-prediction" />],
          ["Gold answer", view.gold === null ? "—" : <VisibleText key="g" text={view.gold} testId="qa-gold" />],
          ["EM", view.em ? "1" : "0"],
          ["F1", <span key="f1" data-testid="qa-f1">{view.scores === null ? "—" : formatScore(view.scores.f1)}</span>],
          ["Precision / recall", view.scores === null ? "—" : `${formatScore(view.scores.precision)} / ${formatScore(view.scores.recall)}`],
        ]}
      />
      {view.scores === null ? <p className="text-[11px] text-slate-500">This evaluation was recorded without F1 (an older or imported run).</p> : null}
    </Section>
  );
}
