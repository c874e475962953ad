"use client";

import Editor, { loader } from "@monaco-editor/react";
import * as monaco from "monaco-editor";

// Load Monaco from the bundled package, never from a CDN (the app runs offline),
// and give it a real web worker instead of the main-thread fallback.
self.MonacoEnvironment = {
  getWorker: () => new Worker(new URL("monaco-editor/editor/editor.worker", import.meta.url), { type: "module" }),
};
loader.config({ monaco });

/**
 * A tiny highlighting for prompts, in the graph's colours: message headings,
 * Thought (violet) / Action (sky) / Observation (teal) labels and the other
 * section labels stand out; everything else stays plain.
 */
const PROMPT_LANGUAGE = "reflexion-prompt";
const PROMPT_THEME = "reflexion-prompt-light";
if (!monaco.languages.getLanguages().some((language) => language.id === PROMPT_LANGUAGE)) {
  monaco.languages.register({ id: PROMPT_LANGUAGE });
  monaco.languages.setMonarchTokensProvider(PROMPT_LANGUAGE, {
    tokenizer: {
      root: [
        [/^### (system|user|assistant)\s*$/, "heading"],
        [/^Thought( \d+)?:/, "thought"],
        [/^Action( \d+)?:/, "action"],
        [/^Observation( \d+)?:/, "observation"],
        [/^(Question|Reflections?|Previous trial|Answer|Trial \d+)\b[^:\n]*:/, "label"],
        [/.+/, ""],
      ],
    },
  });
  monaco.editor.defineTheme(PROMPT_THEME, {
    base: "vs",
    inherit: true,
    rules: [
      { token: "heading", foreground: "0f172a", fontStyle: "bold" },
      { token: "thought", foreground: "6d28d9", fontStyle: "bold" },
      { token: "action", foreground: "0369a1", fontStyle: "bold" },
      { token: "observation", foreground: "0f766e", fontStyle: "bold" },
      { token: "label", foreground: "92400e", fontStyle: "bold" },
    ],
    colors: {},
  });
}

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

/** Read-only Monaco view of a prompt. Client-only: import it with next/dynamic and `ssr: false`. */
export default function MonacoPromptEditor({ value, height }: { value: string; height: number | string }) {
  return (
    // React Flow listens to keys on the whole document; `nokey` keeps it from swallowing them here.
    <div className="nokey h-full">
      <Editor value={value} language={PROMPT_LANGUAGE} theme={PROMPT_THEME} height={height} options={OPTIONS} loading={<p className="p-3 text-xs text-slate-500">Loading editor…</p>} />
    </div>
  );
}
