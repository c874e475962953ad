"use client";

import Editor, { type OnMount } from "@monaco-editor/react";
import { useResolvedTheme } from "@/components/theme";
import { useMemo, useState } from "react";
import type { CodeLanguage } from "@/lib/graph";
import { monaco, PROMPT_THEME } from "./monaco-setup";

const LINE_HEIGHT = 18;
const PADDING = 6;

const OPTIONS = {
  readOnly: true,
  domReadOnly: true,
  wordWrap: "on",
  wrappingIndent: "same",
  minimap: { enabled: false },
  lineNumbers: "on",
  lineNumbersMinChars: 2,
  folding: false,
  glyphMargin: false,
  lineDecorationsWidth: 6,
  lineHeight: LINE_HEIGHT,
  padding: { top: PADDING, bottom: PADDING },
  scrollBeyondLastLine: false,
  renderLineHighlight: "none",
  fontSize: 12,
  automaticLayout: true,
  contextmenu: false,
  stickyScroll: { enabled: false },
  unicodeHighlight: { ambiguousCharacters: false },
  occurrencesHighlight: "off",
  selectionHighlight: false,
  scrollbar: { alwaysConsumeMouseWheel: false },
} satisfies monaco.editor.IStandaloneEditorConstructionOptions;

/**
 * Read-only Monaco view of a program or of test code, highlighted as
 * `language`, as tall as its content up to `maxHeight` px (then it scrolls).
 * Uses the app's shared local-Monaco setup (monaco-setup.ts): no CDN, no
 * language-service worker. Client-only: import it with next/dynamic and `ssr: false`.
 */
export default function MonacoCodeViewer({ value, language, maxHeight, ariaLabel }: { value: string; language: CodeLanguage; maxHeight: number; ariaLabel: string }) {
  const lines = value.split("\n").length;
  const [contentHeight, setContentHeight] = useState(lines * LINE_HEIGHT + 2 * PADDING);
  const onMount: OnMount = (editor) => {
    setContentHeight(editor.getContentHeight());
    editor.onDidContentSizeChange((event) => {
      if (event.contentHeightChanged) setContentHeight(event.contentHeight);
    });
  };
  const options = useMemo(() => ({ ...OPTIONS, ariaLabel }), [ariaLabel]);
  const theme = useResolvedTheme();
  return (
    // React Flow listens to keys on the whole document; `nokey` keeps it from swallowing them here.
    <div className="nokey">
      <Editor
        value={value}
        language={language}
        theme={theme === "dark" ? "vs-dark" : PROMPT_THEME}
        height={Math.min(maxHeight, Math.max(contentHeight, LINE_HEIGHT + 2 * PADDING))}
        options={options}
        onMount={onMount}
        loading={<p className="p-3 text-xs text-slate-500">Loading editor…</p>}
      />
    </div>
  );
}
