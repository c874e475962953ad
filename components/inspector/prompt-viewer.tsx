"use client";

import dynamic from "next/dynamic";
import { useMemo } from "react";
import type { ChatMessage } from "@/lib/domain/events";
import { formatMessages } from "./format-prompt";

const MonacoPromptEditor = dynamic(() => import("./monaco-prompt-editor"), {
  ssr: false,
  loading: () => <p className="p-3 text-xs text-slate-500">Loading editor…</p>,
});

/**
 * The exact prompt (all messages) sent to a model, in a read-only Monaco
 * editor with word wrap, plus the same text in a collapsible <pre> that tests
 * and copy-paste can rely on without Monaco.
 *
 * The editor box is at least 320 px tall and otherwise as tall as the
 * inspector's visible area (`cqh` of the size container set by the inspector's
 * scroll area), so scrolled into view it fills the panel; its bottom-right
 * corner can be dragged to make it taller or shorter.
 */
export function PromptViewer({ messages }: { messages: readonly ChatMessage[] }) {
  const text = useMemo(() => formatMessages(messages), [messages]);
  return (
    <div className="space-y-1.5">
      <div
        data-testid="inspector-prompt"
        className="h-[max(20rem,calc(100cqh_-_2.5rem))] min-h-80 resize-y overflow-hidden rounded-md border border-slate-200 bg-white"
      >
        <MonacoPromptEditor value={text} height="100%" />
      </div>
      <details className="text-xs">
        <summary className="cursor-pointer select-none text-slate-600 hover:text-slate-900">Prompt as plain text</summary>
        <pre data-testid="inspector-prompt-text" className="mt-1 max-h-72 overflow-auto whitespace-pre-wrap break-words rounded-md bg-slate-50 p-2 font-mono text-[11px] text-slate-800">
          {text}
        </pre>
      </details>
    </div>
  );
}
