import type { ReactNode } from "react";
import type { TreeNodeView } from "@/lib/domain/tree-search";
import { formatValue } from "./tree-flow";
import { TerminalMark } from "./terminal-mark";

function Field({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <div data-testid={testId}>
      <dt className="text-[11px] font-semibold uppercase tracking-wide text-slate-600">{label}</dt>
      <dd className="mt-0.5 whitespace-pre-wrap break-words text-sm text-slate-900">{children}</dd>
    </div>
  );
}

const ORIGIN: Record<TreeNodeView["origin"], string> = {
  root: "the task",
  expansion: "sampled by an expansion",
  rollout: "a rollout step",
};

const none = <em className="text-slate-500">none</em>;

/**
 * The selected node of the search tree in full: its Thought, Action and Observation, the value
 * model's estimate, V(s) and N(s) (LATS, Zhou et al. 2024, §4), the verdict of a trajectory that
 * ended there, and the reflection written after it. With no node selected, says how to pick one.
 */
export function TreeNodeDetails({ node }: { node: TreeNodeView | null }) {
  if (!node) {
    return (
      <p data-testid="tree-node-details" className="p-4 text-sm text-slate-600">
        Select a node (click it, or Tab to it and press Enter) to see its step.
      </p>
    );
  }
  const isRoot = node.parent === null;
  return (
    <section data-testid="tree-node-details" data-node-id={node.id} aria-label={`Search tree node ${node.id}`} className="space-y-3 p-4">
      <header>
        <h3 className="text-sm font-semibold text-slate-900">{isRoot ? "Root" : `Step ${node.depth}`}</h3>
        <p className="text-xs text-slate-600">
          <code>{node.id}</code> · {ORIGIN[node.origin]}
          {isRoot ? "" : ` · trial ${node.iteration}`}
        </p>
      </header>
      <dl className="space-y-2.5">
        {isRoot ? null : (
          <>
            <Field label="Thought" testId="tree-detail-thought">{node.thought || none}</Field>
            <Field label="Action" testId="tree-detail-action">
              {node.actionText ? <code className="font-mono text-[13px]">{node.actionText}</code> : none}
            </Field>
            <Field label="Observation" testId="tree-detail-observation">{node.observation || none}</Field>
          </>
        )}
        <div className="grid grid-cols-3 gap-2">
          <Field label="Estimate" testId="tree-detail-estimate">
            <span className="tabular-nums" title="The value model's estimate when the node was sampled (0–1)">{formatValue(node.estimate)}</span>
          </Field>
          <Field label="Value V" testId="tree-detail-value">
            <span className="tabular-nums" title="The estimate until a trajectory through the node is backpropagated, then the mean reward of those trajectories">
              {formatValue(node.value)}
            </span>
          </Field>
          <Field label="Visits N" testId="tree-detail-visits">
            <span className="tabular-nums">{node.visits}</span>
          </Field>
        </div>
        <Field label="Terminal verdict" testId="tree-detail-terminal">
          {node.terminal ? (
            <span className="inline-flex flex-wrap items-center gap-2">
              <TerminalMark outcome={node.terminal.outcome} />
              <span>
                trial {node.terminal.trial}
                {node.terminal.answer !== null ? (
                  <>
                    {" "}
                    answered <code className="font-mono text-[13px]">{node.terminal.answer}</code>
                  </>
                ) : null}
              </span>
            </span>
          ) : (
            <span className="text-slate-600">
              {node.done
                ? "A final answer sampled but not followed yet: an iteration that selects it follows it, and the Evaluator judges it then."
                : "No trajectory ended here."}
            </span>
          )}
        </Field>
        <Field label="Reflection" testId="tree-detail-reflection">
          {node.reflection ? (
            <>
              <span className="text-xs text-slate-600">After trial {node.reflection.trial}: </span>
              {node.reflection.text}
            </>
          ) : (
            none
          )}
        </Field>
      </dl>
    </section>
  );
}
