import type { CodeTestResult } from "@/lib/domain/code-trial";
import { commentMarker, type CodeLanguage } from "@/lib/graph";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { STATUS_GLYPHS } from "@/components/run-graph";
import { formatMs } from "@/components/ui/format";

const STATUS_TONES: Record<CodeTestResult["status"], BadgeTone> = { pass: "green", fail: "red", error: "red", timeout: "amber" };

/** A test's status as a badge: glyph and word, so the colour is never the only signal. */
export function TestStatusBadge({ status }: { status: CodeTestResult["status"] }) {
  return (
    <Badge tone={STATUS_TONES[status]} data-testid="test-status" className="font-semibold">
      <span aria-hidden>{STATUS_GLYPHS[status]}</span> {status}
    </Badge>
  );
}

const EMPTY = <span className="text-slate-500">—</span>;

function Cell({ children, mono = false, wide = false }: { children: string; mono?: boolean; wide?: boolean }) {
  if (children.trim() === "") return <td className="px-2 py-1.5 align-top">{EMPTY}</td>;
  return (
    <td className={`px-2 py-1.5 align-top ${wide ? "min-w-40" : "min-w-24"}`}>
      <pre tabIndex={0} className={`max-h-40 overflow-auto whitespace-pre-wrap break-words text-[11px] leading-snug text-slate-800 ${mono ? "font-mono" : "font-sans"}`}>{children}</pre>
    </td>
  );
}

/**
 * One row per test run in the sandbox: the test's code, its status, the value
 * the call returned (`# output:`, as the feedback shows it), why it did not
 * pass, the captured stdout/stderr and the wall time. `data-testid="test-table"`
 * (with `data-kind`, `data-passed`, `data-total`), rows `test-row` with `data-status`.
 */
export function TestTable({ tests, language, kind, caption }: { tests: readonly CodeTestResult[]; language: CodeLanguage; kind: "internal" | "hidden"; caption: string }) {
  const passed = tests.filter((test) => test.status === "pass").length;
  if (tests.length === 0) {
    return (
      <p data-testid="test-table" data-kind={kind} data-passed={0} data-total={0} className="text-xs text-slate-500">
        {kind === "internal" ? "No internal tests were run: nothing checked this implementation, so it does not count as passing." : "No tests were run."}
      </p>
    );
  }
  return (
    <div className="overflow-x-auto rounded-md border border-slate-200">
      <table data-testid="test-table" data-kind={kind} data-passed={passed} data-total={tests.length} className="w-full border-collapse text-left text-xs">
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-slate-50 text-[10px] uppercase tracking-wide text-slate-500">
          <tr>
            <th scope="col" className="px-2 py-1.5 font-semibold">Test</th>
            <th scope="col" className="px-2 py-1.5 font-semibold">Status</th>
            <th scope="col" className="whitespace-nowrap px-2 py-1.5 font-semibold">
              <code className="font-mono normal-case">{commentMarker(language)} output</code>
            </th>
            <th scope="col" className="px-2 py-1.5 font-semibold">Message</th>
            <th scope="col" className="whitespace-nowrap px-2 py-1.5 font-semibold">Captured output</th>
            <th scope="col" className="px-2 py-1.5 text-right font-semibold">ms</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {tests.map((test, index) => (
            <tr key={index} data-testid="test-row" data-status={test.status} data-name={test.name} className={test.status === "pass" ? undefined : "bg-red-50/40"}>
              <Cell mono wide>
                {test.code}
              </Cell>
              <td className="px-2 py-1.5 align-top">
                <TestStatusBadge status={test.status} />
              </td>
              <Cell mono>{test.actual ?? ""}</Cell>
              <Cell>{test.message}</Cell>
              <Cell mono>{test.output}</Cell>
              <td className="whitespace-nowrap px-2 py-1.5 text-right align-top tabular-nums text-slate-600" title={formatMs(test.durationMs)}>
                {Math.round(test.durationMs)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
