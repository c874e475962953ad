"use client";

import dynamic from "next/dynamic";
import { useMemo } from "react";
import type { ChatMessage, EventData, MemoryItem } from "@/lib/domain/events";
import { locateMemoryInPrompt, withPlaceholders } from "@/lib/graph";
import { formatMessages } from "./format-prompt";
import type { TextHighlight } from "./monaco-prompt-editor";
import { PromptTokenMeter } from "./prompt-token-meter";

const MonacoPromptEditor = dynamic(() => import("./monaco-prompt-editor"), {
  ssr: false,
  loading: () => <p className="p-3 text-xs text-slate-500">Loading editor…</p>,
});

const NO_MEMORY: readonly MemoryItem[] = [];

function memoryLabel(item: MemoryItem | undefined): string {
  if (!item) return "Memory";
  return item.trial === null ? "Hand-written memory entry" : `Reflection from trial ${item.trial}`;
}

/**
 * The exact prompt (all messages) sent to a model, in a read-only Monaco
 * editor with word wrap, plus the same text in a collapsible <pre> that tests
 * and copy-paste can rely on without Monaco.
 *
 * `memory` (Actor prompts): every occurrence of a memory item's text is
 * highlighted, in Monaco and as a `<mark>` in the plain text, so one can see
 * where each reflection landed — or that it did not.
 *
 * The editor box is at least 320 px tall and otherwise as tall as the
 * inspector's visible area (`cqh` of the size container set by the inspector's
 * scroll area), so scrolled into view it fills the panel; its bottom-right
 * corner can be dragged to make it taller or shorter.
 *
 * `contextUse` (the call's `model-call-end.contextUse`): the prompt's token
 * count against the model's window, above the editor ({@link PromptTokenMeter}).
 */
export function PromptViewer({
  messages,
  memory = NO_MEMORY,
  contextUse,
}: {
  messages: readonly ChatMessage[];
  memory?: readonly MemoryItem[];
  contextUse?: EventData<"model-call-end">["contextUse"];
}) {
  // Base64 payloads and data URIs are shown as sized placeholders (the call's record keeps them whole).
  const text = useMemo(() => withPlaceholders(formatMessages(messages)), [messages]);
  const located = useMemo(() => locateMemoryInPrompt(text, memory), [text, memory]);
  const byId = useMemo(() => new Map(memory.map((item) => [item.id, item])), [memory]);
  const highlights = useMemo<TextHighlight[]>(
    () => located.matches.map((match) => ({ start: match.start, end: match.end, label: memoryLabel(byId.get(match.memoryId)) })),
    [located, byId],
  );
  return (
    <div className="space-y-1.5">
      <PromptTokenMeter contextUse={contextUse} />
      <div
        data-testid="inspector-prompt"
        data-highlights={highlights.length}
        className="h-[max(20rem,calc(100cqh_-_2.5rem))] min-h-80 resize-y overflow-hidden rounded-md border border-slate-200 bg-white"
      >
        <MonacoPromptEditor value={text} height="100%" highlights={highlights} />
      </div>
      <details className="text-xs">
        <summary className="cursor-pointer select-none text-slate-600 hover:text-slate-900">Prompt as plain text</summary>
        <pre data-testid="inspector-prompt-text" tabIndex={0} className="mt-1 max-h-72 overflow-auto whitespace-pre-wrap break-words rounded-md bg-slate-50 p-2 font-mono text-[11px] text-slate-800">
          {located.segments.map((segment, index) =>
            segment.memoryId === null ? (
              segment.text
            ) : (
              <mark key={index} data-testid="prompt-reflection-highlight" data-memory-id={segment.memoryId} title={memoryLabel(byId.get(segment.memoryId))}>
                {segment.text}
              </mark>
            ),
          )}
        </pre>
      </details>
    </div>
  );
}
