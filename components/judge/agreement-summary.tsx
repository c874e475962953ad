import type { JudgeGradesResponse } from "@/lib/domain/judge-grades";
import { AGREEMENT_MIN_GRADES } from "@/lib/domain/judge-grades";
import { PageSection } from "@/components/ui/page-section";

/** Landis & Koch (1977)'s words for a kappa, to read the number (a convention, not a test). */
function kappaWords(kappa: number): string {
  if (kappa < 0) return "worse than chance";
  if (kappa <= 0.2) return "slight";
  if (kappa <= 0.4) return "fair";
  if (kappa <= 0.6) return "moderate";
  if (kappa <= 0.8) return "substantial";
  return "almost perfect";
}

const percent = (value: number | null) => (value === null ? "—" : `${(value * 100).toFixed(0)}%`);

/**
 * How often the person's grades agree with the LLM judge: percent agreement, Cohen's kappa
 * (chance-corrected) and the confusion table; until {@link AGREEMENT_MIN_GRADES} trials are graded,
 * an empty state saying how many more.
 */
export function AgreementSummary({ data }: { data: JudgeGradesResponse }) {
  const agreement = data.agreement;
  return (
    <PageSection title="Agreement with the judge" id="judge-agreement-heading">
      {agreement === null ? (
        <div className="space-y-1 text-sm text-slate-700" data-testid="agreement-empty">
          <p className="font-medium text-slate-900">Grade {AGREEMENT_MIN_GRADES} trials to see agreement.</p>
          <p>
            {data.graded} graded so far{data.needed > 0 ? `, ${data.needed} more to go` : ""}. Grade each answer yourself (pass or fail, optionally per criterion);
            the judge&apos;s verdict is shown after you grade, so it does not sway you.
          </p>
        </div>
      ) : (
        <div className="grid gap-4 md:grid-cols-[auto_1fr]" data-testid="agreement-figures">
          <dl className="grid grid-cols-[auto_auto] gap-x-4 gap-y-1 text-sm">
            <dt className="text-slate-600">Graded trials</dt>
            <dd className="font-semibold text-slate-900" data-testid="agreement-n">
              {agreement.n}
            </dd>
            <dt className="text-slate-600">Percent agreement</dt>
            <dd className="font-semibold text-slate-900" data-testid="agreement-percent">
              {percent(agreement.percentAgreement)}
            </dd>
            <dt className="text-slate-600">Agreement by chance</dt>
            <dd className="text-slate-800">{percent(agreement.chanceAgreement)}</dd>
            <dt className="text-slate-600" title="Cohen's kappa: agreement corrected for chance, from −1 to 1">
              Cohen&apos;s κ
            </dt>
            <dd className="font-semibold text-slate-900" data-testid="agreement-kappa">
              {agreement.kappa === null ? `undefined (${agreement.kappaUndefinedReason ?? "—"})` : `${agreement.kappa.toFixed(2)} · ${kappaWords(agreement.kappa)}`}
            </dd>
          </dl>
          <table className="w-full max-w-sm border-collapse text-center text-sm" data-testid="agreement-confusion">
            <caption className="pb-1 text-left text-xs text-slate-600">Confusion table (rows: you, columns: the judge)</caption>
            <thead>
              <tr>
                <th scope="col" className="p-1" />
                <th scope="col" className="border border-slate-200 bg-slate-50 p-1 font-medium">
                  judge pass
                </th>
                <th scope="col" className="border border-slate-200 bg-slate-50 p-1 font-medium">
                  judge fail
                </th>
              </tr>
            </thead>
            <tbody>
              <tr>
                <th scope="row" className="border border-slate-200 bg-slate-50 p-1 font-medium">
                  you pass
                </th>
                <td className="border border-slate-200 p-1 font-semibold text-green-800">{agreement.confusion.bothPass}</td>
                <td className="border border-slate-200 p-1 text-red-800">{agreement.confusion.humanPassJudgeFail}</td>
              </tr>
              <tr>
                <th scope="row" className="border border-slate-200 bg-slate-50 p-1 font-medium">
                  you fail
                </th>
                <td className="border border-slate-200 p-1 text-red-800">{agreement.confusion.humanFailJudgePass}</td>
                <td className="border border-slate-200 p-1 font-semibold text-green-800">{agreement.confusion.bothFail}</td>
              </tr>
            </tbody>
          </table>
        </div>
      )}
      {data.criterionAgreement ? (
        <p className="mt-3 text-xs text-slate-700" data-testid="criterion-agreement">
          Per criterion ({data.criterionAgreement.n} criterion grade{data.criterionAgreement.n === 1 ? "" : "s"}; the judge meets a criterion when its score reaches the
          task&apos;s threshold): {percent(data.criterionAgreement.percentAgreement)} agreement, κ{" "}
          {data.criterionAgreement.kappa === null ? "undefined" : data.criterionAgreement.kappa.toFixed(2)}.
        </p>
      ) : null}
    </PageSection>
  );
}
