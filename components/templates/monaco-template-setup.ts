"use client";

import { monaco } from "@/components/inspector/monaco-setup";
import { unknownVariableMarkers, variableCompletionAt } from "@/lib/query/template-variables";

/**
 * Monaco languages for prompt templates, one per set of variable names (a
 * family × role): `{name}`s the engine fills are tokenised as `variable`
 * (bold sky), other `{name}`s as `variable-unknown` (red), and typing `{`
 * offers the role's names. Built on the app's one Monaco setup
 * (`components/inspector/monaco-setup.ts`: bundled, never a CDN). Client-only.
 */

export const TEMPLATE_THEME = "reflexion-template-light";
const MARKER_OWNER = "template-variables";

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const registered = new Map<string, readonly string[]>();

monaco.editor.defineTheme(TEMPLATE_THEME, {
  base: "vs",
  inherit: true,
  rules: [
    { token: "variable", foreground: "0369a1", fontStyle: "bold" },
    { token: "variable-unknown", foreground: "b91c1c", fontStyle: "italic" },
    { token: "heading", foreground: "0f172a", fontStyle: "bold" },
    { token: "label", foreground: "92400e", fontStyle: "bold" },
  ],
  colors: {},
});

/**
 * The language id for templates whose known variables are `known` (registered
 * on first use: tokenizer and `{` completion provider).
 */
export function templateLanguageFor(known: readonly string[]): string {
  const sorted = [...new Set(known)].sort();
  const id = `reflexion-template-${sorted.join("-") || "none"}`;
  if (registered.has(id)) return id;
  registered.set(id, sorted);
  monaco.languages.register({ id });
  const knownRule: monaco.languages.IMonarchLanguageRule[] =
    sorted.length > 0 ? [[new RegExp(`\\{(${sorted.map(escapeRegExp).join("|")})\\}`), "variable"]] : [];
  monaco.languages.setMonarchTokensProvider(id, {
    tokenizer: {
      root: [
        [/^### (system|user|assistant)\s*$/, "heading"],
        ...knownRule,
        [/\{[A-Za-z][A-Za-z0-9_]*\}/, "variable-unknown"],
        [/^(Question|Reflections?|Previous trial|Answer|Trial \d+)\b[^:\n{]*:/, "label"],
        [/[^{\n]+/, ""],
        [/\{/, ""],
      ],
    },
  });
  monaco.languages.registerCompletionItemProvider(id, {
    triggerCharacters: ["{"],
    provideCompletionItems(model, position) {
      const offset = model.getOffsetAt(position);
      const completion = variableCompletionAt(model.getValue(), offset, sorted);
      if (!completion) return { suggestions: [] };
      const start = model.getPositionAt(completion.from);
      const range = new monaco.Range(start.lineNumber, start.column, position.lineNumber, position.column);
      return {
        suggestions: completion.names.map((name) => ({
          label: `{${name}}`,
          filterText: name,
          kind: monaco.languages.CompletionItemKind.Variable,
          insertText: completion.closed ? name : `${name}}`,
          detail: "filled by the engine",
          range,
        })),
      };
    },
  });
  return id;
}

/** Puts a warning marker on every unknown `{name}` of the model's text (replacing earlier ones). */
export function updateVariableMarkers(model: monaco.editor.ITextModel, known: readonly string[]): number {
  const markers = unknownVariableMarkers(model.getValue(), known).map((marker) => {
    const start = model.getPositionAt(marker.start);
    const end = model.getPositionAt(marker.end);
    return {
      severity: monaco.MarkerSeverity.Warning,
      message: marker.message,
      startLineNumber: start.lineNumber,
      startColumn: start.column,
      endLineNumber: end.lineNumber,
      endColumn: end.column,
      source: "placeholders",
    };
  });
  monaco.editor.setModelMarkers(model, MARKER_OWNER, markers);
  return markers.length;
}
