import type { RunEvent } from "@/lib/domain/events";
import type { TreeNodeView } from "@/lib/domain/tree-search";

/** Where a fork from a search-tree node starts, or why it cannot. */
export type TreeForkPoint = { atSeq: number; trial: number } | { atSeq: null; why: string };

/**
 * The checkpoint a fork from `node` starts at: the last checkpoint before the trial after the one
 * that made the node (its iteration has ended and been reflected on, the next has not begun), so the
 * branch's next trial searches under the node (`tree-focus`). The root is the whole search (replay the
 * run instead); a node of the run's last trial has no later trial to continue in.
 * @param events the branch's events as shown (a prefix at the replay cursor is fine).
 */
export function treeForkPoint(events: readonly RunEvent[], node: TreeNodeView): TreeForkPoint {
  if (node.parent === null) return { atSeq: null, why: "The root is the whole search: replay the run to search it again." };
  const nextStart = events.find((event) => event.type === "trial-start" && event.data.trial === node.iteration + 1);
  if (!nextStart) {
    const ended = events.some((event) => event.type === "run-end");
    return {
      atSeq: null,
      why: ended
        ? `Node ${node.id} was made in the run's last trial: no later trial could search under it.`
        : `Node ${node.id} was made in the trial under way: fork from it once trial ${node.iteration + 1} has begun.`,
    };
  }
  const checkpoint = events.filter((event) => event.type === "checkpoint" && event.seq < nextStart.seq).at(-1);
  if (!checkpoint) return { atSeq: null, why: `No checkpoint before trial ${node.iteration + 1} to fork from.` };
  return { atSeq: checkpoint.seq, trial: node.iteration + 1 };
}
