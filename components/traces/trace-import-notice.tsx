import Link from "next/link";
import type { TraceImportResult } from "@/lib/domain/trace-import";
import { Notice } from "@/components/ui/notice";

/** The most problems listed inline; the rest are counted. */
const SHOWN_PROBLEMS = 20;

const FORMAT_NAMES: Record<TraceImportResult["format"], string> = { otlp: "OTLP", inspect: "Inspect AI", langsmith: "LangSmith", langfuse: "Langfuse" };

/** One imported file: format, traces, whether it was there already, and the records that could not be read. */
export function TraceImportNotice({ result }: { result: TraceImportResult }) {
  const extra = result.problems.length - SHOWN_PROBLEMS;
  return (
    <Notice tone={result.problems.length > 0 ? "warning" : "success"} data-testid="trace-import-result" title={`${result.file}: ${result.traces} trace${result.traces === 1 ? "" : "s"} (${FORMAT_NAMES[result.format]})${result.reused ? " — imported before, nothing new stored" : ""}`}>
      <p>
        <Link href={`/experiments/${encodeURIComponent(result.experimentId)}`} className="underline">
          Open the import&apos;s results
        </Link>
        {result.runIds[0] ? (
          <>
            {" "}
            · <Link href={`/runs/${encodeURIComponent(result.runIds[0])}`} className="underline">the first trace as a run</Link>
          </>
        ) : null}
      </p>
      {result.problems.length > 0 ? (
        <details className="mt-1 text-xs">
          <summary>
            {result.problems.length} record{result.problems.length === 1 ? "" : "s"} could not be read (the rest was imported)
          </summary>
          <ul className="mt-1 list-disc pl-4">
            {result.problems.slice(0, SHOWN_PROBLEMS).map((problem, index) => (
              <li key={index}>
                <span className="font-mono">{problem.where}</span>: {problem.message}
              </li>
            ))}
            {extra > 0 ? <li>… and {extra} more (cli import-traces prints them all)</li> : null}
          </ul>
        </details>
      ) : null}
    </Notice>
  );
}
