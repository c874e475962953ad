"use client";

import Editor, { loader } from "@monaco-editor/react";
import * as monaco from "monaco-editor";

// Load Monaco from the bundled package, never from a CDN (the app runs offline),
// and give it a real web worker instead of the main-thread fallback.
self.MonacoEnvironment = {
  getWorker: () => new Worker(new URL("monaco-editor/editor/editor.worker", import.meta.url), { type: "module" }),
};
loader.config({ monaco });

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
      <Editor value={value} language="markdown" theme="vs" height={height} options={OPTIONS} loading={<p className="p-3 text-xs text-slate-500">Loading editor…</p>} />
    </div>
  );
}
