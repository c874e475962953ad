"use client";

import { DiffEditor, type DiffOnMount } from "@monaco-editor/react";
import { useResolvedTheme } from "@/components/theme";
import { useCallback, useLayoutEffect, useMemo, useRef } from "react";
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
  // @monaco-editor/react 4.7 disposes the two text models before the diff widget on unmount, which Monaco (≥ 0.51)
  // reports as "TextModel got disposed before DiffEditorWidget model got reset" (suren-atoyan/monaco-react#647).
  // The library keeps the models (keepCurrent*Model); this cleanup detaches them from the widget, then disposes them.
  // A layout-effect cleanup runs before the library's passive one, while the widget is still alive.
  const editorRef = useRef<Parameters<DiffOnMount>[0] | null>(null);
  const onMount = useCallback<DiffOnMount>((editor) => {
    editorRef.current = editor;
  }, []);
  useLayoutEffect(
    () => () => {
      const editor = editorRef.current;
      editorRef.current = null;
      if (!editor) return;
      const models = editor.getModel();
      try {
        editor.setModel(null);
      } catch {
        // The widget is gone already: nothing holds the models any more.
      }
      models?.original.dispose();
      models?.modified.dispose();
    },
    [],
  );
  return (
    <div className="nokey h-full" data-testid="template-diff-monaco">
      <DiffEditor
        original={original}
        modified={modified}
        language={language}
        theme={theme === "dark" ? "vs-dark" : TEMPLATE_THEME}
        height={height}
        options={OPTIONS}
        onMount={onMount}
        keepCurrentOriginalModel
        keepCurrentModifiedModel
        loading={<p className="p-3 text-xs text-slate-500">Loading diff…</p>}
      />
    </div>
  );
}
