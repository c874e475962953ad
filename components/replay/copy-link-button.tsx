"use client";

import { useEffect, useState, type MouseEvent } from "react";
import { parseRunUrlState, serializeRunUrlState } from "@/lib/query/url-state";
import { cn } from "@/lib/utils/cn";

/**
 * The link to this moment with `nodeId` selected: the page's URL (run or lesson, with its
 * branch, cursor and step) with `node=` set and presenter mode dropped, so a student's
 * phone opens the same step in the ordinary view.
 */
export function nodeLinkHref(location: Pick<Location, "origin" | "pathname" | "search">, nodeId: string): string {
  const current = parseRunUrlState(location.search);
  return `${location.origin}${location.pathname}${serializeRunUrlState({ ...current, node: nodeId, present: false }, location.search)}`;
}

/**
 * "Copy link" to a node: writes {@link nodeLinkHref} to the clipboard
 * and says "Copied" (or, without clipboard access, shows the link to copy by hand).
 */
export function CopyLinkButton({ nodeId, className }: { nodeId: string; className?: string }) {
  const [copied, setCopied] = useState<"idle" | "copied" | "failed">("idle");
  useEffect(() => {
    if (copied === "idle") return;
    const timer = window.setTimeout(() => setCopied("idle"), 2_000);
    return () => window.clearTimeout(timer);
  }, [copied]);
  const onClick = (event: MouseEvent<HTMLButtonElement>) => {
    event.stopPropagation();
    const href = nodeLinkHref(window.location, nodeId);
    if (!navigator.clipboard) {
      window.prompt("Copy this link:", href);
      return;
    }
    navigator.clipboard.writeText(href).then(
      () => setCopied("copied"),
      () => {
        setCopied("failed");
        window.prompt("Copy this link:", href);
      },
    );
  };
  return (
    <button
      type="button"
      onClick={onClick}
      data-testid="copy-node-link"
      title="Copy a link to this moment with this node selected"
      className={cn("nodrag nopan rounded border border-slate-300 bg-white px-1 py-px text-[10px] font-medium leading-tight text-slate-700 shadow-sm hover:bg-slate-50", className)}
    >
      {/* The visible text is the accessible name (WCAG 2.5.3 label in name); "to this node" is for screen readers only. */}
      <span aria-live="polite">
        {copied === "copied" ? (
          "Copied"
        ) : copied === "failed" ? (
          "Copy failed"
        ) : (
          <>
            Copy link<span className="sr-only"> to this node</span>
          </>
        )}
      </span>
    </button>
  );
}
