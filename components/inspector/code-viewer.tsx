"use client";

import dynamic from "next/dynamic";
import type { CodeLanguage } from "@/lib/graph";

const MonacoCodeViewer = dynamic(() => import("./monaco-code-viewer"), {
  ssr: false,
  loading: () => <p className="p-3 text-xs text-slate-500">Loading editor…</p>,
});

/**
 * Code (an implementation, the internal tests) highlighted in a read-only
 * Monaco editor, plus the same text in a collapsible `<pre>` that tests and
 * copy-paste can rely on without Monaco. `data-testid="code-view"` (with
 * `data-language`) on the container, `code-view-text` on the plain text.
 */
export function CodeViewer({ code, language, label, maxHeight = 420 }: { code: string; language: CodeLanguage; label: string; maxHeight?: number }) {
  return (
    <div className="space-y-1">
      <div data-testid="code-view" data-language={language} className="overflow-hidden rounded-md border border-slate-200 bg-white">
        <MonacoCodeViewer value={code} language={language} maxHeight={maxHeight} ariaLabel={label} />
      </div>
      <details className="text-xs">
        <summary className="cursor-pointer select-none text-slate-600 hover:text-slate-900">{label} as plain text</summary>
        <pre data-testid="code-view-text" tabIndex={0} className="mt-1 max-h-72 overflow-auto whitespace-pre rounded-md bg-slate-50 p-2 font-mono text-[11px] text-slate-800">
          {code}
        </pre>
      </details>
    </div>
  );
}
