import Link from "next/link";
import type { TraceImportFailure, TraceImportResult } from "@/lib/domain/trace-import";
import { Notice } from "@/components/ui/notice";

/** The most problems listed inline; the rest are counted. */
const SHOWN_PROBLEMS = 20;

const FORMAT_NAMES: Record<TraceImportResult["format"], string> = { otlp: "OTLP", inspect: "Inspect AI", langsmith: "LangSmith", langfuse: "Langfuse" };

/**
 * The summary of an import's problems. A problem is either a record that could not be read or one
 * read with a caveat (a score outside 0..1 clamped, a label that gives no verdict), so the words
 * cover both.
 */
export function problemsSummary(count: number): string {
  return count === 1 ? "1 problem: a record that could not be read, or was read with a caveat — the rest was imported" : `${count} problems: records that could not be read, or were read with a caveat — the rest was imported`;
}

/** One imported file: format, traces, whether it was there already, and its problems. */
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
          <summary>{problemsSummary(result.problems.length)}</summary>
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

/**
 * One refused file: nothing of it was imported, and why (the server's message names the file and
 * the record). When naming another format may help, says how here: the format picker, not a CLI flag.
 */
export function TraceImportFailureNotice({ failure }: { failure: TraceImportFailure }) {
  return (
    <Notice tone="error" title={`${failure.file}: nothing of this file was imported`} data-testid="trace-import-failure">
      <p>{failure.message}</p>
      <p className="mt-1 text-xs">
        {failure.formatMayHelp ? "Pick the format above (instead of detecting it) if the file is in another one, and check that the file is complete. " : ""}
        Files imported before are untouched.
      </p>
    </Notice>
  );
}
