/**
 * What a link's `?node=` names in the branch's log: `shown` — an event the
 * page draws at the cursor (it is selected, the inspector opens); `later` — an event after the
 * replay cursor (not drawn yet; the link opens without a selection); `missing` — no event of
 * this branch (a mistyped or foreign id: the page says so). Pure.
 */
export type LinkNodeStatus = "shown" | "later" | "missing";

/** {@link LinkNodeStatus} of `nodeId` in `events` (the whole log) with the cursor at `cursor` (null = live). */
export function linkNodeStatus(events: readonly { readonly id: string }[], cursor: number | null, nodeId: string): LinkNodeStatus {
  const index = events.findIndex((event) => event.id === nodeId);
  if (index === -1) return "missing";
  return cursor !== null && index >= cursor ? "later" : "shown";
}

/** Tailwind's `lg` breakpoint: below it the run page shows one pane at a time (Graph | Details | Memory). */
export const NARROW_SCREEN_QUERY = "(max-width: 1023.98px)";

/** The notice a link whose node is not in the branch shows (the id shortened to 40 characters). */
export function missingNodeMessage(nodeId: string): string {
  const shown = nodeId.length > 40 ? `${nodeId.slice(0, 39)}…` : nodeId;
  return `That link's node is not in this run (${shown}): the page opens without a selection.`;
}
