"use client";

import type { ExperimentSummary } from "@/lib/domain/experiment";
import { METRIC_LABEL, verdictText } from "@/lib/domain/experiment-tables";
import type { PairedComparison } from "@/lib/domain/experiment-tests";
import { pValueText } from "@/lib/domain/stats/p-value";

/** An effect with its interval in the metric's units (points of success rate or AUC; USD per run). */
function effectText(test: PairedComparison): string {
  const [lo, hi] = test.ci;
  if (test.metric === "cost") return `${test.effect.toFixed(4)} USD [${lo.toFixed(4)}, ${hi.toFixed(4)}]`;
  const pts = (value: number) => `${value > 0 ? "+" : ""}${(100 * value).toFixed(1)}`;
  return `${pts(test.effect)} pts [${pts(lo)}, ${pts(hi)}]`;
}

/**
 * The paired tests between every two arms (lib/domain/experiment-tests.ts), one row per pair and
 * metric: the exact McNemar test on final success with its discordant counts, and a paired sign-flip
 * test with a paired-bootstrap interval on the area under the success curve and on cost. "differs"
 * only when p < 0.05 and the 95 % interval excludes 0.
 */
export function PairedTests({ summary }: { summary: Pick<ExperimentSummary, "tests" | "experiment"> }) {
  const tests = summary.tests ?? [];
  if (tests.length === 0) return <p className="text-xs text-slate-600">One arm: nothing to compare. Add a second arm to test a difference.</p>;
  return (
    <div className="space-y-2">
      <div className="overflow-x-auto">
        <table className="w-full text-left text-xs" data-testid="paired-tests">
          <caption className="sr-only">Paired tests between arms</caption>
          <thead className="border-b border-slate-200 text-slate-600">
            <tr>
              <th scope="col" className="py-1.5 pr-3 font-medium">Arms (A vs B)</th>
              <th scope="col" className="py-1.5 pr-3 font-medium">Metric</th>
              <th scope="col" className="py-1.5 pr-3 font-medium">Test</th>
              <th scope="col" className="py-1.5 pr-3 font-medium">Pairs n</th>
              <th scope="col" className="py-1.5 pr-3 font-medium">Effect A − B [95 % CI]</th>
              <th scope="col" className="py-1.5 pr-3 font-medium">p</th>
              <th scope="col" className="py-1.5 font-medium">Verdict</th>
            </tr>
          </thead>
          <tbody>
            {tests.map((test) => {
              const verdict = verdictText(test);
              return (
                <tr
                  key={`${test.a}\u0000${test.b}\u0000${test.metric}`}
                  className="border-b border-slate-100"
                  data-testid="paired-test-row"
                  data-a={test.a}
                  data-b={test.b}
                  data-metric={test.metric}
                  data-verdict={verdict}
                  data-p={test.p}
                >
                  <td className="py-1.5 pr-3 font-medium text-slate-900">
                    {test.a} vs {test.b}
                  </td>
                  <td className="py-1.5 pr-3">{METRIC_LABEL[test.metric]}</td>
                  <td className="py-1.5 pr-3">{test.method}</td>
                  <td className="py-1.5 pr-3 tabular-nums">
                    {test.n}
                    {test.aOnly === undefined ? "" : ` (discordant ${test.aOnly} vs ${test.bOnly})`}
                  </td>
                  <td className="py-1.5 pr-3 tabular-nums">{effectText(test)}</td>
                  <td className="py-1.5 pr-3 tabular-nums">{pValueText(test.p)}</td>
                  <td className={`py-1.5 font-semibold ${test.differs ? "text-sky-900" : "text-slate-600"}`}>{verdict}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <p className="text-[11px] text-slate-600">
        Pairs are (task, repetition) runs both arms ended. Final success: exact McNemar test (two-sided binomial on the discordant pairs). AUC (the mean
        height of the success-by-trial curve) and cost: paired sign-flip test (a task&apos;s repetitions flip together; exact up to 16 tasks), interval by
        paired bootstrap, percentile, 2000 resamples over tasks then repetitions. A difference is reported only when p &lt; 0.05 and the 95 % interval
        excludes 0.
      </p>
    </div>
  );
}
