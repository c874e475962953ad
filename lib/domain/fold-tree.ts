import type { RunEvent } from "./events";
import type { RunState, StepView, TrialView } from "./run-state";
import { asCallId } from "./ids";
import { backpropagate, emptyTree, rolloutNodeId, type TreeNodeView, type TreeSearchView } from "./tree-search";

/**
 * The search tree's part of the fold (lib/domain/fold-run.ts calls it for every event while a tree
 * exists, and for `tree-*` events): `tree-select` opens the tree and the trial's iteration,
 * `tree-node` adds an expansion child, `tree-value` sets its estimate, `tree-follow` makes the path
 * root → chosen child the trial's first steps, each later `step-observation` of the trial adds a
 * rollout node, `trial-end` marks the terminal node, `tree-backprop` updates values and visits
 * (lib/domain/tree-search.ts), and `reflection-end` attaches the reflection to the terminal node.
 *
 * The tree object is replaced (a shallow copy) whenever it changes, so views memoised on it redraw;
 * its node records are mutated in place. Events naming unknown nodes or trials are ignored, like the
 * rest of the fold, so a damaged log still shows what it can.
 */
export function foldTreeEvent(state: RunState, event: RunEvent): void {
  if (event.type === "tree-select") {
    const tree = state.tree ?? emptyTree();
    tree.iterations = tree.iterations.filter((it) => it.trial !== event.data.trial);
    tree.iterations.push({ trial: event.data.trial, selected: event.data.path, path: [...event.data.path], followed: false, reward: null });
    state.tree = { ...tree };
    return;
  }
  const tree = state.tree;
  if (!tree) return;
  switch (event.type) {
    case "tree-node": {
      const parent = tree.nodes.get(event.data.parent);
      if (!parent || tree.nodes.has(event.data.node)) return;
      const node: TreeNodeView = {
        id: event.data.node,
        parent: parent.id,
        depth: event.data.depth,
        iteration: event.data.trial,
        origin: "expansion",
        thought: event.data.thought,
        actionText: event.data.actionText,
        action: event.data.action,
        parseError: event.data.parseError,
        observation: event.data.observation,
        done: event.data.done,
        answer: event.data.answer,
        state: event.data.state,
        callId: event.data.callId,
        estimate: null,
        estimateCallId: null,
        value: null,
        visits: 0,
        terminal: null,
        reflection: null,
        children: [],
        eventId: event.id,
      };
      tree.nodes.set(node.id, node);
      tree.order.push(node.id);
      parent.children.push(node.id);
      break;
    }
    case "tree-value": {
      const node = tree.nodes.get(event.data.node);
      if (!node) return;
      node.estimate = event.data.value;
      node.estimateCallId = event.data.callId;
      if (node.visits === 0) node.value = event.data.value;
      break;
    }
    case "tree-follow": {
      const iteration = iterationOf(tree, event.data.trial);
      const trial = state.trials.find((t) => t.trial === event.data.trial);
      if (!iteration || !trial) return;
      iteration.path = [...event.data.path];
      iteration.followed = true;
      trial.steps = pathSteps(tree, event.data.path, event.data.trial, event.id);
      const last = trial.steps.at(-1);
      if (last?.observation?.answer != null) trial.answer = last.observation.answer;
      break;
    }
    case "step-observation": {
      const iteration = iterationOf(tree, event.data.trial);
      const trial = state.trials.find((t) => t.trial === event.data.trial);
      if (!iteration || !trial) return;
      const parentId = iteration.path.at(-1);
      const parent = parentId === undefined ? undefined : tree.nodes.get(parentId);
      const step = trial.steps.find((s) => s.step === event.data.step);
      if (!parent || !step) return;
      const node: TreeNodeView = {
        id: rolloutNodeId(event.data.trial, event.data.step),
        parent: parent.id,
        depth: event.data.step,
        iteration: event.data.trial,
        origin: "rollout",
        thought: step.thought?.text ?? "",
        actionText: step.action?.text ?? "",
        action: step.action?.action ?? null,
        parseError: step.action?.parseError ?? null,
        observation: event.data.text,
        done: event.data.done,
        answer: event.data.answer,
        state: event.data.state,
        callId: step.action?.callId ?? null,
        estimate: null,
        estimateCallId: null,
        value: null,
        visits: 0,
        terminal: null,
        reflection: null,
        children: [],
        eventId: event.id,
      };
      if (tree.nodes.has(node.id)) return;
      tree.nodes.set(node.id, node);
      tree.order.push(node.id);
      parent.children.push(node.id);
      iteration.path.push(node.id);
      step.treeNode = node.id;
      break;
    }
    case "trial-end": {
      const iteration = iterationOf(tree, event.data.trial);
      const terminalId = iteration?.path.at(-1);
      const node = terminalId === undefined ? undefined : tree.nodes.get(terminalId);
      if (!node || node.origin === "root") return;
      const trial = state.trials.find((t) => t.trial === event.data.trial);
      node.terminal = { outcome: event.data.outcome, trial: event.data.trial, answer: trial?.answer ?? null };
      break;
    }
    case "tree-backprop": {
      const iteration = iterationOf(tree, event.data.trial);
      if (iteration) iteration.reward = event.data.reward;
      backpropagate(tree, event.data.path, event.data.reward);
      break;
    }
    case "tree-focus":
      if (!tree.nodes.has(event.data.node)) return;
      tree.focus = event.data.node;
      break;
    case "reflection-end": {
      const terminalId = iterationOf(tree, event.data.trial)?.path.at(-1);
      const node = terminalId === undefined ? undefined : tree.nodes.get(terminalId);
      if (!node) return;
      node.reflection = { trial: event.data.trial, text: event.data.text };
      break;
    }
    default:
      return;
  }
  state.tree = { ...tree };
}

/**
 * The steps of the path root → `path`'s end (the root excluded), numbered by depth, as trial
 * `trial`'s steps: what `tree-follow` puts in a trial, and what the engine's expansion and value
 * prompts render.
 */
export function pathSteps(tree: TreeSearchView, path: readonly string[], trial: number, eventIdBase = "tree"): StepView[] {
  return path.slice(1).flatMap((id) => {
    const node = tree.nodes.get(id);
    return node ? [stepFromNode(node, trial, eventIdBase)] : [];
  });
}


function iterationOf(tree: TreeSearchView, trial: number): TreeSearchView["iterations"][number] | undefined {
  return tree.iterations.find((it) => it.trial === trial);
}

/**
 * A trial step made from a tree node, numbered by its depth. Its event ids are the `tree-follow`
 * event's id with the node id and the part, so they are unique however many trials share the node.
 */
function stepFromNode(node: TreeNodeView, trial: TrialView["trial"], followEventId: string): StepView {
  const eventId = (part: string) => `${followEventId}:${node.id}:${part}`;
  const step = node.depth;
  return {
    step,
    thought: { trial, step, text: node.thought, callId: callIdOf(node), reasoning: null, eventId: eventId("thought") },
    action: {
      trial,
      step,
      text: node.actionText,
      action: node.action,
      parseError: node.parseError,
      callId: callIdOf(node),
      ignored: null,
      truncated: false,
      eventId: eventId("action"),
    },
    observation: { trial, step, text: node.observation, done: node.done, answer: node.answer, state: node.state, eventId: eventId("observation") },
    recordedByAuthors: false,
    treeNode: node.id,
  };
}

function callIdOf(node: TreeNodeView): ReturnType<typeof asCallId> | null {
  return node.callId === null ? null : asCallId(node.callId);
}
