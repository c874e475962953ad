"use client";

import Editor, { type OnMount } from "@monaco-editor/react";
import { useResolvedTheme } from "@/components/theme";
import { useEffect, useMemo, useState } from "react";
import { monaco, PROMPT_LANGUAGE, PROMPT_THEME } from "./monaco-setup";

const OPTIONS = {
  readOnly: true,
  domReadOnly: true,
  wordWrap: "on",
  minimap: { enabled: false },
  lineNumbers: "off",
  folding: false,
  glyphMargin: false,
  lineDecorationsWidth: 8,
  scrollBeyondLastLine: false,
  renderLineHighlight: "none",
  fontSize: 12,
  automaticLayout: true,
  contextmenu: false,
  stickyScroll: { enabled: false },
  unicodeHighlight: { ambiguousCharacters: false },
  scrollbar: { alwaysConsumeMouseWheel: false },
} satisfies monaco.editor.IStandaloneEditorConstructionOptions;

const EDITABLE_OPTIONS = {
  ...OPTIONS,
  readOnly: false,
  domReadOnly: false,
  lineNumbers: "on",
  renderLineHighlight: "line",
  // Prompt text, not code: no completion popups that swallow keystrokes, no auto-inserted brackets.
  quickSuggestions: false,
  suggestOnTriggerCharacters: false,
  wordBasedSuggestions: "off",
  acceptSuggestionOnEnter: "off",
  tabCompletion: "off",
  parameterHints: { enabled: false },
  autoClosingBrackets: "never",
  autoClosingQuotes: "never",
  autoSurround: "never",
} satisfies monaco.editor.IStandaloneEditorConstructionOptions;

/** A span of the text to highlight, as UTF-16 offsets (e.g. where a reflection landed in a prompt). */
export interface TextHighlight {
  start: number;
  end: number;
  /** Hover text. */
  label?: string;
}

type Editor = monaco.editor.IStandaloneCodeEditor;

/** Keeps Monaco decorations for `highlights` on the editor's model, redrawn when the text or the spans change. */
function useHighlights(editor: Editor | null, value: string, highlights: readonly TextHighlight[] | undefined) {
  useEffect(() => {
    if (!editor || !highlights || highlights.length === 0) return;
    const model = editor.getModel();
    if (!model || model.getValue() !== value) return;
    const collection = editor.createDecorationsCollection(
      highlights.map((highlight) => {
        const start = model.getPositionAt(highlight.start);
        const end = model.getPositionAt(highlight.end);
        return {
          range: new monaco.Range(start.lineNumber, start.column, end.lineNumber, end.column),
          options: {
            inlineClassName: "prompt-reflection-highlight",
            hoverMessage: highlight.label ? { value: highlight.label } : undefined,
            overviewRuler: { color: "#f59e0b", position: monaco.editor.OverviewRulerLane.Right },
          },
        };
      }),
    );
    // Show where the first one landed (the memory usually sits in the middle of a long prompt).
    const first = collection.getRange(0);
    if (first) editor.revealRangeInCenterIfOutsideViewport(first, monaco.editor.ScrollType.Immediate);
    return () => collection.clear();
  }, [editor, value, highlights]);
}

/**
 * Monaco view of a prompt or a prompt template. Read-only unless `onChange` is
 * given; then `value` is only the initial text (remount with a new `key` to
 * replace it). `highlights` marks spans (where each reflection of the memory landed).
 * Client-only: import it with next/dynamic and `ssr: false`.
 */
export default function MonacoPromptEditor({
  value,
  height,
  onChange,
  highlights,
  ariaLabel,
}: {
  value: string;
  height: number | string;
  onChange?: (value: string) => void;
  highlights?: readonly TextHighlight[];
  ariaLabel?: string;
}) {
  const [editor, setEditor] = useState<Editor | null>(null);
  const onMount: OnMount = (mounted) => setEditor(mounted);
  useHighlights(editor, value, highlights);
  const editable = onChange !== undefined;
  const options = useMemo(
    () => (editable ? { ...EDITABLE_OPTIONS, ariaLabel: ariaLabel ?? "Prompt template" } : { ...OPTIONS, ariaLabel: ariaLabel ?? "Prompt" }),
    [editable, ariaLabel],
  );
  const theme = useResolvedTheme();
  return (
    // React Flow listens to keys on the whole document; `nokey` keeps it from swallowing them here.
    <div className="nokey h-full">
      <Editor
        // Editable: uncontrolled (`defaultValue`), so a re-render with a value one keystroke behind
        // never overwrites what was just typed; remount (a new `key`) to load another text.
        {...(editable ? { defaultValue: value } : { value })}
        language={PROMPT_LANGUAGE}
        theme={theme === "dark" ? "vs-dark" : PROMPT_THEME}
        height={height}
        options={options}
        onMount={onMount}
        onChange={onChange ? (next) => onChange(next ?? "") : undefined}
        loading={<p className="p-3 text-xs text-slate-500">Loading editor…</p>}
      />
    </div>
  );
}
