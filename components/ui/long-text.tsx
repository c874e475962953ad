"use client";

import { useId, useMemo, useState } from "react";
import { isLongText, placeholderText, segmentText, textPreview, type TextSegment } from "@/lib/graph";

/**
 * Large model and environment text as the UI shows it: a
 * text above a size starts collapsed with "Show more (N more characters)";
 * base64 payloads and data URIs appear as placeholders with their size (the
 * log and exports keep the full text). Rendered as React text nodes only —
 * model text is never interpreted as HTML.
 */
export function LongText({ text }: { text: string }) {
  const [expanded, setExpanded] = useState(false);
  const contentId = useId();
  const long = useMemo(() => isLongText(text), [text]);
  const shown = useMemo(() => (long && !expanded ? textPreview(text) : { preview: text, hiddenChars: 0 }), [text, long, expanded]);
  const segments = useMemo(() => segmentText(shown.preview), [shown.preview]);
  return (
    <>
      <span id={contentId} data-testid="long-text" data-collapsed={long && !expanded ? "true" : "false"}>
        <Segments segments={segments} />
        {long && !expanded ? "…" : null}
      </span>
      {long ? (
        <span className="mt-1 block">
          <button
            type="button"
            data-testid="long-text-toggle"
            aria-expanded={expanded}
            aria-controls={contentId}
            onClick={() => setExpanded((value) => !value)}
            className="rounded font-sans text-[11px] font-medium text-sky-700 underline underline-offset-2 hover:text-sky-900 focus-visible:outline focus-visible:outline-2 focus-visible:outline-sky-600"
          >
            {expanded ? "Show less" : `Show more (${shown.hiddenChars.toLocaleString("en-US")} more characters of ${text.length.toLocaleString("en-US")})`}
          </button>
        </span>
      ) : null}
    </>
  );
}

function Segments({ segments }: { segments: readonly TextSegment[] }) {
  return (
    <>
      {segments.map((segment, index) =>
        segment.kind === "text" ? (
          segment.text
        ) : (
          <span
            key={index}
            data-testid="binary-placeholder"
            data-bytes={segment.bytes}
            title={`${segment.chars.toLocaleString("en-US")} characters of ${segment.label} left out of the view; the log keeps them`}
            className="mx-0.5 rounded bg-slate-200 px-1 font-mono text-[11px] text-slate-700"
          >
            {placeholderText(segment)}
          </span>
        ),
      )}
    </>
  );
}
