/** A labelled progress bar (`done` of `total`). */
export function ProgressBar({ done, total, label, testId }: { done: number; total: number; label: string; testId?: string }) {
  const share = total === 0 ? 0 : Math.min(1, done / total);
  return (
    <div className="space-y-0.5" data-testid={testId}>
      <div className="flex justify-between text-xs text-slate-600">
        <span>{label}</span>
        <span className="tabular-nums">
          {done}/{total}
        </span>
      </div>
      <div role="progressbar" aria-label={label} aria-valuemin={0} aria-valuemax={total} aria-valuenow={done} className="h-1.5 w-full overflow-hidden rounded bg-slate-200">
        <div className="h-full bg-sky-700" style={{ width: `${(share * 100).toFixed(1)}%` }} />
      </div>
    </div>
  );
}
