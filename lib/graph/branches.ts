import type { BranchSummary } from "@/lib/domain/api";
import type { RunEvent } from "@/lib/domain/events";
import type { ForkOutlook } from "@/lib/domain/fork-outlook";

/**
 * Forks and branches as the run page shows them: where a node can be forked
 * from, and the branches of a run as an indented tree. Pure.
 */

/** A place a branch can be forked at: a `checkpoint` event on the path. */
export interface ForkPoint {
  /** The checkpoint's seq: the `atSeq` of the fork request. */
  atSeq: number;
  /** The trial the checkpoint closes. */
  trial: number;
  /** The checkpoint's event id. */
  checkpointId: string;
}

/**
 * The fork point of each evaluation and reflection event on a branch path: the
 * first `checkpoint` after it (by seq) of the same trial. Events without one
 * yet (the checkpoint is appended right after, in a second write) are absent.
 * Keys are event ids, which are also the graph's node ids.
 */
export function forkPointsByEventId(events: readonly RunEvent[]): Map<string, ForkPoint> {
  const points = new Map<string, ForkPoint>();
  const waiting: Array<{ id: string; trial: number; seq: number }> = [];
  for (const event of events) {
    // The engine appends a checkpoint right after each evaluation and each reflection.
    if (event.type === "evaluation-end" || event.type === "reflection-end") {
      waiting.push({ id: event.id, trial: event.data.trial, seq: event.seq });
      continue;
    }
    if (event.type !== "checkpoint") continue;
    for (let index = waiting.length - 1; index >= 0; index -= 1) {
      const candidate = waiting[index];
      if (candidate && candidate.trial === event.data.trial && candidate.seq < event.seq) {
        points.set(candidate.id, { atSeq: event.seq, trial: event.data.trial, checkpointId: event.id });
        waiting.splice(index, 1);
      }
    }
  }
  return points;
}

/**
 * Why forking after an evaluation cannot change anything (outlook `ends`, from
 * lib/domain/fork-outlook.ts), in one or two sentences for the inspector and
 * the fork dialog; null otherwise. Suggests forking from an earlier reflection
 * only when the strategy writes them.
 */
export function forkEndsExplanation(outlook: ForkOutlook | null, trial: number): string | null {
  if (outlook?.kind !== "ends") return null;
  const earlier = trial > 1 && outlook.reflects ? "fork from an earlier reflection or " : "";
  const same = "A branch from this checkpoint has nothing left to run and would end exactly as this one did";
  switch (outlook.reason) {
    case "false-positive":
      return `Trial ${trial}'s internal tests passed, so the loop stops here with no reflection (a false positive: the hidden tests failed). ${same}. To try again, ${earlier}start a new run.`;
    case "passed":
      return `Trial ${trial} passed, so the run ends here with no reflection. ${same}.`;
    case "last-trial":
      return `Trial ${trial} is the run's last trial (max trials), so no reflection follows and the run ends here. ${same}. To try again, ${earlier}start a new run with more trials.`;
  }
}

/**
 * The text trial `trial`'s reflection had at seq `atSeq` (edits up to and
 * including that seq applied), and its event id; null when the trial had no
 * reflection by then. A fork sees exactly this state, so a fork edit is needed
 * only when the wanted text differs from it.
 */
export function reflectionAt(events: readonly RunEvent[], trial: number, atSeq: number): { eventId: string; text: string } | null {
  let found: { eventId: string; text: string } | null = null;
  for (const event of events) {
    if (event.seq > atSeq) break;
    if (event.type === "reflection-end" && event.data.trial === trial) found = { eventId: event.id, text: event.data.text };
    if (event.type === "reflection-edit" && found && event.data.reflectionEventId === found.eventId) found = { ...found, text: event.data.newText };
  }
  return found;
}

/** What {@link branchTree} needs of a branch: its id and its parent's (a summary, or a summary as the page shows it). */
export type TreeBranch = Pick<BranchSummary, "id" | "parentBranchId">;

/** One row of the branch tree: a branch (a {@link BranchSummary} unless said otherwise) and how deep it sits (root = 0). */
export interface BranchTreeRow<B extends TreeBranch = BranchSummary> {
  branch: B;
  depth: number;
  /** 1-based number in creation order (root = 0), for short labels. */
  number: number;
}

/**
 * The branches as a depth-first tree: the root, then each branch's children
 * (in the order given, which the server makes creation order) right under it.
 * Branches whose parent is unknown are listed after the tree at depth 1.
 */
export function branchTree<B extends TreeBranch>(branches: readonly B[]): BranchTreeRow<B>[] {
  const numbers = new Map(branches.map((branch, index) => [branch.id, index]));
  const children = new Map<string | null, B[]>();
  for (const branch of branches) {
    const parent = branch.parentBranchId !== null && numbers.has(branch.parentBranchId) ? branch.parentBranchId : branch.parentBranchId === null ? null : "__orphan__";
    const list = children.get(parent) ?? [];
    list.push(branch);
    children.set(parent, list);
  }
  const rows: BranchTreeRow<B>[] = [];
  const seen = new Set<string>();
  const visit = (branch: B, depth: number) => {
    if (seen.has(branch.id)) return;
    seen.add(branch.id);
    rows.push({ branch, depth, number: numbers.get(branch.id) ?? 0 });
    for (const child of children.get(branch.id) ?? []) visit(child, depth + 1);
  };
  for (const root of children.get(null) ?? []) visit(root, 0);
  for (const orphan of children.get("__orphan__") ?? []) visit(orphan, 1);
  return rows;
}

/** A short name for a branch: `main` for the root, else `branch <n>` in creation order. */
export function branchLabel(row: Pick<BranchTreeRow, "number"> & { branch: Pick<BranchSummary, "parentBranchId"> }): string {
  return row.branch.parentBranchId === null ? "main" : `branch ${row.number}`;
}
