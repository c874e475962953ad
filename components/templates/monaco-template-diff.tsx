"use client";

import { DiffEditor } from "@monaco-editor/react";
import { useResolvedTheme } from "@/components/theme";
import { useMemo } from "react";
import type { monaco } from "@/components/inspector/monaco-setup";
import { TEMPLATE_THEME, templateLanguageFor } from "./monaco-template-setup";

const OPTIONS = {
  readOnly: true,
  originalEditable: false,
  renderSideBySide: true,
  wordWrap: "on",
  diffWordWrap: "on",
  minimap: { enabled: false },
  scrollBeyondLastLine: false,
  fontSize: 12,
  automaticLayout: true,
  renderOverviewRuler: false,
  ignoreTrimWhitespace: false,
  stickyScroll: { enabled: false },
  unicodeHighlight: { ambiguousCharacters: false },
} satisfies monaco.editor.IDiffEditorConstructionOptions;

/**
 * Monaco's diff editor between two template texts (left: `original`, right:
 * `modified`), read-only, with the role's variables highlighted on both sides.
 * Client-only: import with next/dynamic, `ssr: false`.
 */
export default function MonacoTemplateDiff({
  original,
  modified,
  known,
  height,
}: {
  original: string;
  modified: string;
  known: readonly string[];
  height: number | string;
}) {
  const language = useMemo(() => templateLanguageFor(known), [known]);
  const theme = useResolvedTheme();
  return (
    <div className="nokey h-full" data-testid="template-diff-monaco">
      <DiffEditor
        original={original}
        modified={modified}
        language={language}
        theme={theme === "dark" ? "vs-dark" : TEMPLATE_THEME}
        height={height}
        options={OPTIONS}
        loading={<p className="p-3 text-xs text-slate-500">Loading diff…</p>}
      />
    </div>
  );
}
