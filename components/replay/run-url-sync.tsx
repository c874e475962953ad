"use client";

import { useSearchParams } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import type { RunEvent } from "@/lib/domain/events";
import { parseRunUrlState, serializeRunUrlState } from "@/lib/query/url-state";
import { useRunUiStore } from "@/lib/store";
import { Notice } from "@/components/ui/notice";
import { linkNodeStatus, missingNodeMessage, NARROW_SCREEN_QUERY } from "./link-node";

/**
 * Keeps `?cursor=` and `?node=` of the page URL in sync with the run UI store:
 * on open, the URL's cursor is applied and its node selected
 * once the shown events contain it (the graph pans it into view); afterwards every
 * cursor move or selection rewrites the URL in place with `history.replaceState`
 * (no history entries, no server round trip; Next keeps `useSearchParams` in sync
 * with the History API). Other parameters (`branch`, a lesson's `step`/`present`)
 * are kept. A new branch starts live. On a narrow screen (below `lg`) a linked node
 * opens the Details pane and scrolls it into view; a node that is not in the
 * branch's log shows a small notice (the only thing this renders).
 */
export function RunUrlSync({ events, branch }: { /** The branch's whole log (not the replayed prefix). */ events: readonly RunEvent[]; branch: string | null }) {
  const cursor = useRunUiStore((store) => store.cursor);
  const selectedNodeId = useRunUiStore((store) => store.selectedNodeId);
  const setCursor = useRunUiStore((store) => store.setCursor);
  const selectNode = useRunUiStore((store) => store.selectNode);
  const setMobilePane = useRunUiStore((store) => store.setMobilePane);
  // The node the page was opened with (the URL's `node=` is rewritten on every selection afterwards).
  const searchParams = useSearchParams();
  const [opened] = useState(() => parseRunUrlState(searchParams));
  const [dismissed, setDismissed] = useState(false);
  // Said on the branch the link opened only (another branch's log is another question).
  const sameBranch = parseRunUrlState(searchParams).branch === opened.branch;
  const missingNode =
    !dismissed && sameBranch && opened.node !== null && events.length > 0 && linkNodeStatus(events, null, opened.node) === "missing" ? opened.node : null;
  const cursorApplied = useRef(false);
  const nodeApplied = useRef(false);
  const lastBranch = useRef(branch);

  // The URL's cursor, once, before anything is written back.
  useEffect(() => {
    if (cursorApplied.current) return;
    cursorApplied.current = true;
    const fromUrl = parseRunUrlState(window.location.search);
    if (fromUrl.cursor !== null) setCursor(fromUrl.cursor);
  }, [setCursor]);

  // The URL's node, once the log has loaded: selected when the cursor shows it (else dropped: it is not drawn).
  useEffect(() => {
    if (nodeApplied.current || events.length === 0) return;
    nodeApplied.current = true;
    const fromUrl = parseRunUrlState(window.location.search);
    if (fromUrl.node === null) return;
    if (linkNodeStatus(events, cursor, fromUrl.node) !== "shown") return;
    selectNode(fromUrl.node);
    // A phone: the link opens the inspector, i.e. the Details pane, scrolled into view (the run header is above it).
    if (window.matchMedia(NARROW_SCREEN_QUERY).matches) {
      setMobilePane("details");
      window.requestAnimationFrame(() => document.querySelector('[data-testid="run-side-panel"]')?.scrollIntoView({ block: "start" }));
    }
  }, [events, cursor, selectNode, setMobilePane]);

  // Another branch: back to live (not when the root branch's id first becomes known: that is the same branch).
  useEffect(() => {
    if (lastBranch.current === branch) return;
    const previous = lastBranch.current;
    lastBranch.current = branch;
    if (previous !== null) setCursor(null);
  }, [branch, setCursor]);

  // Store → URL, after the URL's own state was applied.
  useEffect(() => {
    if (!cursorApplied.current || !nodeApplied.current) return;
    const current = parseRunUrlState(window.location.search);
    if (current.cursor === cursor && current.node === selectedNodeId) return;
    const query = serializeRunUrlState({ ...current, cursor, node: selectedNodeId }, window.location.search);
    window.history.replaceState(window.history.state, "", `${window.location.pathname}${query}${window.location.hash}`);
  }, [cursor, selectedNodeId, events.length]);

  if (missingNode === null) return null;
  return (
    <Notice tone="warning" data-testid="link-node-missing" className="mx-4 mt-2">
      <span className="flex items-start justify-between gap-2">
        <span>{missingNodeMessage(missingNode)}</span>
        <button type="button" onClick={() => setDismissed(true)} aria-label="Dismiss" className="text-xs font-medium underline" data-testid="link-node-missing-dismiss">
          Dismiss
        </button>
      </span>
    </Notice>
  );
}
