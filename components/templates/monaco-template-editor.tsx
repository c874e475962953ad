"use client";

import Editor, { type OnMount } from "@monaco-editor/react";
import { useResolvedTheme } from "@/components/theme";
import { useEffect, useMemo, useState } from "react";
import type { monaco } from "@/components/inspector/monaco-setup";
import { TEMPLATE_THEME, templateLanguageFor, updateVariableMarkers } from "./monaco-template-setup";

const OPTIONS = {
  wordWrap: "on",
  minimap: { enabled: false },
  lineNumbers: "on",
  folding: false,
  glyphMargin: false,
  scrollBeyondLastLine: false,
  fontSize: 13,
  automaticLayout: true,
  stickyScroll: { enabled: false },
  unicodeHighlight: { ambiguousCharacters: false },
  // Prompt text, not code: only `{` opens suggestions (the role's variables); no word-based popups.
  quickSuggestions: false,
  suggestOnTriggerCharacters: true,
  wordBasedSuggestions: "off",
  acceptSuggestionOnEnter: "on",
  tabCompletion: "off",
  parameterHints: { enabled: false },
  autoClosingBrackets: "never",
  autoClosingQuotes: "never",
  autoSurround: "never",
  // Tab moves focus out of the editor (keyboard users are never trapped in it).
  tabFocusMode: true,
} satisfies monaco.editor.IStandaloneEditorConstructionOptions;

type CodeEditor = monaco.editor.IStandaloneCodeEditor;

/**
 * The template editor: full-width Monaco over a template's text with the role's
 * variables highlighted, `{` completing them, and a warning marker on every
 * `{name}` the engine does not fill. Uncontrolled: `initialText` is loaded once
 * (remount with a new `key` to load another text); `onChange` gets every edit.
 * `readOnly` for built-in versions. Client-only: import with next/dynamic, `ssr: false`.
 *
 * @param known the names the engine fills for this family × role (`templateVariables` of `GET /api/environments`).
 * @param onMarkers called with the number of unknown-variable markers after each change.
 */
export default function MonacoTemplateEditor({
  initialText,
  known,
  onChange,
  onMarkers,
  readOnly = false,
  height,
  ariaLabel,
}: {
  initialText: string;
  known: readonly string[];
  onChange?: (text: string) => void;
  onMarkers?: (count: number) => void;
  readOnly?: boolean;
  height: number | string;
  ariaLabel: string;
}) {
  const [editor, setEditor] = useState<CodeEditor | null>(null);
  const language = useMemo(() => templateLanguageFor(known), [known]);
  const onMount: OnMount = (mounted) => setEditor(mounted);
  const options = useMemo(() => ({ ...OPTIONS, readOnly, domReadOnly: readOnly, ariaLabel }), [readOnly, ariaLabel]);

  useEffect(() => {
    const model = editor?.getModel();
    if (!editor || !model) return;
    const mark = () => onMarkers?.(updateVariableMarkers(model, known));
    mark();
    const subscription = model.onDidChangeContent(mark);
    return () => subscription.dispose();
  }, [editor, known, onMarkers]);

  const theme = useResolvedTheme();
  return (
    <div className="nokey h-full" data-testid="template-monaco" data-language={language}>
      <Editor
        defaultValue={initialText}
        language={language}
        theme={theme === "dark" ? "vs-dark" : TEMPLATE_THEME}
        height={height}
        options={options}
        onMount={onMount}
        onChange={onChange ? (next) => onChange(next ?? "") : undefined}
        loading={<p className="p-3 text-xs text-slate-500">Loading editor…</p>}
      />
    </div>
  );
}
