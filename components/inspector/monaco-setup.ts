"use client";

import { loader } from "@monaco-editor/react";
import * as monaco from "monaco-editor";

/**
 * The one Monaco setup of the app, shared by the prompt editor and the code
 * viewer: loaded from the bundled package (never a CDN), with a real web
 * worker, the prompt language and theme, and the TypeScript/JavaScript
 * language service switched off (the code viewer only highlights; no worker
 * diagnostics on read-only code). Client-only: import it from modules loaded
 * with next/dynamic and `ssr: false`.
 */

export { monaco };

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
export const PROMPT_LANGUAGE = "reflexion-prompt";
export const PROMPT_THEME = "reflexion-prompt-light";
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

// Read-only viewing: highlighting comes from Monaco's tokenizers; no TS worker, no squiggles.
const NO_LANGUAGE_SERVICE = {
  completionItems: false,
  hovers: false,
  documentSymbols: false,
  definitions: false,
  references: false,
  documentHighlights: false,
  rename: false,
  diagnostics: false,
  documentRangeFormattingEdits: false,
  signatureHelp: false,
  onTypeFormattingEdits: false,
  codeActions: false,
  inlayHints: false,
} as const;
monaco.typescript.typescriptDefaults.setModeConfiguration(NO_LANGUAGE_SERVICE);
monaco.typescript.javascriptDefaults.setModeConfiguration(NO_LANGUAGE_SERVICE);
