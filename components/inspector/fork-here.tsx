"use client";

import type { RunState } from "@/lib/domain/fold-run";
import { forkOutlookAfterEvaluation } from "@/lib/domain/fork-outlook";
import { forkEndsExplanation, type ForkPoint, type GraphNodeOf } from "@/lib/graph";
import { Button } from "@/components/ui/button";
import { EXTERNAL_FAMILY_ID, findFamilyDescriptor } from "@/lib/environments/descriptors";
import { Section } from "./blocks";

/**
 * "Fork here" for the evaluation and reflection nodes: each is followed by a
 * checkpoint a branch can start from. Disabled after an evaluation that ends
 * the run (a pass, a false positive, the last trial): such a branch would have
 * nothing left to run and would end the same way.
 */
export function ForkHere({
  node,
  state,
  forkPoint,
  onForkHere,
}: {
  node: GraphNodeOf<"evaluation"> | GraphNodeOf<"reflection">;
  state: RunState;
  forkPoint: ForkPoint | undefined;
  onForkHere?: (nodeId: string) => void;
}) {
  if (!onForkHere) return null;
  // An imported trace has no world here to continue in: say why instead of offering a fork the server refuses.
  const trace = state.config?.provenance?.kind === "external-trace" ? `An imported trace cannot be forked: ${findFamilyDescriptor(EXTERNAL_FAMILY_ID)?.paperLogNotForkable ?? "its world is not here"}.` : null;
  const pointless = trace ?? (node.type === "evaluation" ? forkEndsExplanation(forkOutlookAfterEvaluation(state, node.data.trial), node.data.trial) : null);
  return (
    <Section title="Branch">
      <div className="flex items-center justify-between gap-3 rounded-md border border-sky-200 bg-sky-50 px-2.5 py-2">
        <p className="text-xs leading-snug text-sky-950" data-testid={pointless ? "fork-pointless" : undefined}>
          {!forkPoint
            ? "The checkpoint after this node is not in the log yet."
            : pointless
              ? pointless
              : `Start a new branch from checkpoint seq ${forkPoint.atSeq}, right after this ${node.type === "reflection" ? "reflection" : "evaluation"}${node.type === "reflection" ? ", optionally with another text for it" : ""}.`}
        </p>
        <Button
          size="sm"
          variant="primary"
          className="flex-none whitespace-nowrap"
          data-testid="fork-here"
          data-at-seq={forkPoint?.atSeq}
          disabled={!forkPoint || pointless !== null}
          title={pointless ?? undefined}
          onClick={() => onForkHere(node.id)}
        >
          Fork here
        </Button>
      </div>
    </Section>
  );
}

