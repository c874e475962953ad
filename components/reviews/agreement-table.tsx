import type { QueueProgress } from "@/lib/domain/review-queue";

const percent = (value: number | null) => (value === null ? "—" : `${(value * 100).toFixed(0)}%`);

/**
 * Agreement of each pair of reviewers on the items both reviewed: n, percent agreement and Cohen's
 * κ (lib/domain/agreement.ts), with the reason when κ is undefined. Pairwise queues compare the
 * preferred arm, not the side.
 */
export function AgreementTable({ progress, pairwise }: { progress: QueueProgress; pairwise: boolean }) {
  if (progress.agreement.length === 0) {
    return <p className="text-sm text-slate-600">Agreement needs two reviewers; this queue has one.</p>;
  }
  return (
    <table className="w-full border-collapse text-left text-sm" data-testid="review-agreement">
      <caption className="pb-1 text-left text-xs text-slate-600">
        Per pair of reviewers, on the items both reviewed{pairwise ? " (agreement on the preferred arm, whatever side it was shown on)" : " (agreement on the rubric label)"}.
      </caption>
      <thead>
        <tr className="border-b border-slate-200 text-xs text-slate-600">
          <th scope="col" className="py-1 pr-3 font-medium">Reviewers</th>
          <th scope="col" className="py-1 pr-3 font-medium">n</th>
          <th scope="col" className="py-1 pr-3 font-medium">Percent agreement</th>
          <th scope="col" className="py-1 font-medium" title="Cohen's kappa: agreement corrected for chance, from −1 to 1">
            Cohen&apos;s κ
          </th>
        </tr>
      </thead>
      <tbody>
        {progress.agreement.map((row) => (
          <tr key={`${row.a}\0${row.b}`} className="border-b border-slate-100" data-testid="review-agreement-row">
            <td className="py-1 pr-3 text-slate-900">
              {row.a} · {row.b}
            </td>
            <td className="py-1 pr-3 tabular-nums" data-testid="review-agreement-n">
              {row.n}
            </td>
            <td className="py-1 pr-3 tabular-nums" data-testid="review-agreement-percent">
              {percent(row.percentAgreement)}
            </td>
            <td className="py-1 tabular-nums" data-testid="review-agreement-kappa">
              {row.kappa === null ? <span className="text-slate-600">undefined ({row.kappaUndefinedReason ?? "—"})</span> : row.kappa.toFixed(2)}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
