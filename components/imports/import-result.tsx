import Link from "next/link";
import type { ImportResult } from "@/lib/domain/paper-import";
import { Notice } from "@/components/ui/notice";

/**
 * What one import became: the experiment (link), runs and the per-trial
 * figures (cumulative, as `cli experiment run --json` prints them), and the
 * import's warnings (e.g. a trial's summary line disagreeing with its blocks:
 * both figures are kept).
 */
export function ImportResultNotice({ result }: { result: ImportResult }) {
  return (
    <Notice tone={result.warnings.length > 0 ? "warning" : "success"} data-testid="import-result" className="text-xs">
      <p>
        <strong>{result.label}</strong> {result.alreadyImported ? "was imported before" : "imported"}: {result.runs} runs, {result.trials}{" "}
        {result.trials === 1 ? "trial" : "trials"}; solved by trial <span className="font-mono tabular-nums" data-testid="import-success-by-trial">{result.successByTrial.join(" → ")}</span>.{" "}
        <Link href={`/experiments/${encodeURIComponent(result.experimentId)}`} className="font-medium text-sky-800 underline" data-testid="import-open-experiment">
          Open the experiment
        </Link>
      </p>
      {result.warnings.length > 0 ? (
        <ul className="mt-1 list-disc space-y-0.5 pl-4" data-testid="import-warnings">
          {result.warnings.map((warning) => (
            <li key={warning}>{warning}</li>
          ))}
        </ul>
      ) : null}
    </Notice>
  );
}
