import { ExperimentCostTable } from "@/components/costs/experiment-costs";
import type { EnvironmentId } from "@/lib/domain/config";
import type { ArmResult } from "@/lib/domain/experiment";
import { armRates } from "@/lib/graph/compare-arms";
import { formatInteger, formatUsd } from "@/components/ui/format";
import { NOT_RECORDED } from "@/components/provenance";
import { strategyLabel } from "@/components/ui/strategy-labels";
import { ArmSwatch, isScriptedModel, OracleLabel, ScriptedLabel } from "./labels";
import { familyDescriptor } from "@/lib/environments/descriptors";

/** A solved count: whole with one repetition, the mean over repetitions (two decimals) with more. */
const count = (value: number) => (Number.isInteger(value) ? String(value) : value.toFixed(2));

const th = "px-2 py-2 font-semibold";
const td = "px-2 py-2 tabular-nums";

/** A cost, with "unknown" (not `$0`) when some call had no known price. */
function Cost({ value }: { value: number | null }) {
  return value === null ? <span title="Some calls have no known price (e.g. a local model)">unknown</span> : <>{formatUsd(value)}</>;
}

/** "—" titled "not recorded in the published log": an imported arm's calls, tokens and cost (the logs record none). */
function NotRecorded({ testId }: { testId?: string }) {
  return (
    <span title={NOT_RECORDED} aria-label={NOT_RECORDED} className="text-slate-500" data-testid={testId} data-unrecorded="true">
      —
    </span>
  );
}

/** Mean F1 at trial 1 and at the last trial (`0.512 / 0.733`); "—" when the runs recorded no F1. */
function MeanF1({ values }: { values: ReadonlyArray<number | null> | undefined }) {
  const first = values?.[0] ?? null;
  const last = values?.at(-1) ?? null;
  if (first === null && last === null) return <span title="No evaluation of these runs recorded F1">—</span>;
  const show = (value: number | null) => (value === null ? "—" : value.toFixed(3));
  return (
    <>
      {show(first)} / {show(last)}
    </>
  );
}

/**
 * Per arm: the metric at trial 1 and at the last trial, QA's mean F1 at both, tokens, cost split by
 * role, cost to first success, false positives (code), halts (household), and
 * model calls made live vs served from the response cache.
 */
export function ArmTable({
  arms,
  environment,
  scripted,
  recorded = false,
}: {
  arms: readonly ArmResult[];
  environment: EnvironmentId;
  scripted?: ReadonlySet<string>;
  /** The experiment was imported from the authors' logs (`provenance` set): an arm without any call shows "—" (not recorded), not zeros. */
  recorded?: boolean;
}) {
  const family = familyDescriptor(environment);
  const metric = family.metric.name;
  return (
    <div className="overflow-x-auto">
      <table className="w-full min-w-[56rem] text-left text-sm" data-testid="arm-table">
        <caption className="sr-only">Results per arm</caption>
        <thead className="bg-slate-50 text-[11px] uppercase tracking-wide text-slate-500">
          <tr>
            <th scope="col" className={`${th} pl-3`}>Arm</th>
            <th scope="col" className={`${th} text-right`}>
              {metric} trial 1 {family.metric.oracle ? <OracleLabel /> : null}
            </th>
            <th scope="col" className={`${th} text-right`}>{metric} last trial</th>
            {family.metric.reportsF1 ? (
              <th scope="col" className={`${th} text-right`} title="Mean token F1 (hotpot_evaluate_v1) of the arm's answers at trial 1 and at the last trial; a run that stopped earlier counts with its last answer">
                F1 trial 1 / last
              </th>
            ) : null}
            <th scope="col" className={`${th} text-right`}>Tokens in / out</th>
            <th scope="col" className={`${th} text-right`}>Cost</th>
            <th scope="col" className={`${th} text-right`} title="Actor / Evaluator (LLM judge; the built-in evaluators make no calls) / Self-Reflection">
              Acting / evaluating / reflecting
            </th>
            <th scope="col" className={`${th} text-right`} title="Mean cost of the solved runs up to their first success">
              Cost to first success
            </th>
            {family.hiddenTests ? <th scope="col" className={`${th} text-right`} title="Internal tests passed, hidden tests failed">False positives</th> : null}
            {family.reportsHalts ? <th scope="col" className={`${th} text-right`} title="Trials stopped by the step limit or a loop">Halts</th> : null}
            <th scope="col" className={`${th} pr-3 text-right`}>Calls live / cached</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {arms.map((arm, index) => {
            const rates = armRates(arm);
            const unrecorded = recorded && arm.calls.live + arm.calls.cached === 0;
            return (
              <tr key={arm.label} data-testid="arm-result" data-arm={arm.label}>
                <th scope="row" className="px-2 py-2 pl-3 font-normal">
                  <span className="flex items-center gap-2">
                    <ArmSwatch index={index} />
                    <span>
                      <span className="block font-semibold text-slate-900">{arm.label}</span>
                      <span className="block text-[11px] text-slate-600">
                        {strategyLabel(arm.strategy, environment)} · <code className="font-mono">{arm.modelId}</code>
                      </span>
                      {isScriptedModel(arm.modelId, scripted) ? <ScriptedLabel /> : null}
                    </span>
                  </span>
                </th>
                <td className={`${td} text-right`} data-testid="rate-first">
                  {rates.first.percent}%{rates.first.ci ? <span className="text-[11px] text-slate-600" data-testid="rate-ci"> [{rates.first.ci[0]}, {rates.first.ci[1]}]</span> : null}{" "}
                  <span className="text-[11px] text-slate-500">({count(rates.first.solved)}/{rates.first.tasks})</span>
                </td>
                <td className={`${td} text-right`} data-testid="rate-last">
                  {rates.last.percent}%{rates.last.ci ? <span className="text-[11px] text-slate-600" data-testid="rate-ci"> [{rates.last.ci[0]}, {rates.last.ci[1]}]</span> : null}{" "}
                  <span className="text-[11px] text-slate-500">({count(rates.last.solved)}/{rates.last.tasks}, trial {rates.lastTrial})</span>
                </td>
                {family.metric.reportsF1 ? (
                  <td className={`${td} text-right`} data-testid="arm-f1">
                    <MeanF1 values={arm.meanF1ByTrial} />
                  </td>
                ) : null}
                <td className={`${td} text-right`} data-testid="arm-tokens">
                  {unrecorded ? <NotRecorded /> : `${formatInteger(arm.tokens.input)} / ${formatInteger(arm.tokens.output)}`}
                </td>
                <td className={`${td} text-right`} data-testid="arm-cost">
                  {unrecorded ? <NotRecorded /> : <Cost value={arm.costUsd} />}
                </td>
                <td className={`${td} text-right text-xs`}>
                  {unrecorded ? (
                    <NotRecorded />
                  ) : (
                    <>
                      <Cost value={arm.costByRole.acting} /> / <Cost value={arm.costByRole.evaluating} /> / <Cost value={arm.costByRole.reflecting} />
                    </>
                  )}
                </td>
                <td className={`${td} text-right`}>
                  {unrecorded ? (
                    <NotRecorded />
                  ) : arm.costToFirstSuccessUsd === null ? (
                    <span title="No run solved yet, or a price is unknown">—</span>
                  ) : (
                    formatUsd(arm.costToFirstSuccessUsd)
                  )}
                </td>
                {family.hiddenTests ? <td className={`${td} text-right`}>{arm.falsePositives}</td> : null}
                {family.reportsHalts ? <td className={`${td} text-right`}>{arm.halts}</td> : null}
                <td className={`${td} pr-3 text-right`} data-testid="arm-calls">
                  {unrecorded ? <NotRecorded /> : `${formatInteger(arm.calls.live)} live / ${formatInteger(arm.calls.cached)} cached`}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {/* Published logs record no calls or prices: no cost table for an imported experiment (its cells say "not recorded"). */}
      {recorded ? null : <ExperimentCostTable arms={arms} />}
    </div>
  );
}
