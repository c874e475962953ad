import { describe, expect, it } from "vitest";
import type { RunEvent } from "@/lib/domain/events";
import { emptyTree, type TreeNodeView } from "@/lib/domain/tree-search";
import { treeForkPoint } from "@/lib/graph/tree-fork-point";

/** Events of the given types and trials at seq 1, 2, … (only type, seq and data.trial matter here). */
function log(...entries: Array<[RunEvent["type"], number?]>): RunEvent[] {
  return entries.map(([type, trial], index) => ({ type, seq: index + 1, data: { trial } }) as unknown as RunEvent);
}

const node = (iteration: number): TreeNodeView => ({ ...emptyTree().nodes.get("root")!, id: `t${iteration}.e1`, parent: "root", iteration, origin: "expansion", depth: 1 });

describe("where a fork from a search-tree node starts", () => {
  const events = log(["run-start"], ["trial-start", 1], ["trial-end", 1], ["checkpoint", 1], ["reflection-end", 1], ["checkpoint", 1], ["trial-start", 2], ["trial-end", 2], ["checkpoint", 2]);

  it("is the last checkpoint before the next trial starts", () => {
    expect(treeForkPoint(events, node(1))).toEqual({ atSeq: 6, trial: 2 });
  });

  it("says why for the root, a node of the trial under way, and a node of the run's last trial", () => {
    expect(treeForkPoint(events, emptyTree().nodes.get("root")!)).toMatchObject({ atSeq: null, why: expect.stringMatching(/whole search/) });
    expect(treeForkPoint(events, node(2))).toMatchObject({ atSeq: null, why: expect.stringMatching(/trial under way/) });
    expect(treeForkPoint([...events, ...log(["run-end"])], node(2))).toMatchObject({ atSeq: null, why: expect.stringMatching(/last trial/) });
  });
});
