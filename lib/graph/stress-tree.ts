import { xoroshiro128plus } from "pure-rand";
import {
  backpropagate,
  emptyTree,
  expansionNodeId,
  rolloutNodeId,
  selectPath,
  TREE_ROOT_ID,
  type TreeNodeView,
  type TreeSearchView,
  type TreeTerminal,
} from "@/lib/domain/tree-search";

/**
 * A synthetic LATS search tree for the stress page (`/stress?tree=N`), the graph benchmark
 * (bench/graph.bench.ts) and tests: the shape a HotpotQA-style LATS run leaves (Zhou et al.,
 * ICML 2024, §4), grown by the read model's own rules. Each iteration (trial) selects a leaf
 * with UCT ({@link selectPath}), expands it into 2–5 children with value estimates, follows the
 * best child with a greedy rollout of plain steps down to a terminal (success, failure, or halted
 * at the depth limit), backpropagates the reward ({@link backpropagate}) and, after a failure,
 * attaches a reflection to the terminal node. Deterministic for a seed (pure-rand's xoroshiro128+).
 */

/** The largest synthetic tree (nodes): room for the 25,000-node case of bench/graph.bench.ts. */
export const STRESS_TREE_MAX_NODES = 30000;

/** The depth limit of the synthetic search (steps per trial). */
export const STRESS_TREE_MAX_DEPTH = 8;

/** Options of {@link stressTree}. */
export interface StressTreeOptions {
  /** Exactly this many nodes, the root included (at least 1; 1 is the root alone). */
  nodes: number;
  /** Different seeds give different trees. Default 1. */
  seed?: number;
  /** UCT's exploration weight w (paper eq. 1). Default 1, as the paper uses for HotpotQA. */
  exploration?: number;
  /**
   * The depth limit (steps per trial). Default {@link STRESS_TREE_MAX_DEPTH}, or 12 above 10,000
   * nodes: a depth-8 search saturates at ~14,000 nodes.
   */
  maxDepth?: number;
}

const QUESTION = "Which magazine was started first, Arthur's Magazine or First for Women?";
const TOPICS = ["Arthur's Magazine", "First for Women", "Timothy Shay Arthur", "Bauer Media Group", "Godey's Lady's Book", "Philadelphia", "women's magazines", "1844", "1989"];
const ANSWERS = ["Arthur's Magazine", "First for Women", "1844", "Bauer Media Group"];
const REFLECTIONS = [
  "I searched the publisher instead of the magazine itself and ran out of steps. Next time I will search each magazine by its exact title first and compare the founding years.",
  "I answered from the first paragraph without checking the second magazine's start date. I should look up both dates before I finish.",
  "I kept looking up keywords that were not in the page. When a Lookup fails twice I should Search a different title.",
];

/** Appends an iteration (a variable, not a literal: fields the read model does not name yet are allowed). */
function record(tree: TreeSearchView, iteration: TreeSearchView["iterations"][number] & { followed: boolean }): void {
  tree.iterations.push(iteration);
}

/**
 * A synthetic search tree of exactly `options.nodes` nodes (clamped to 1–{@link STRESS_TREE_MAX_NODES}): branching 2–5 at
 * expansions, depth up to {@link STRESS_TREE_MAX_DEPTH}, values and visits from real
 * backpropagation, some successful and many failed or halted terminals, reflections on failures.
 * The last iteration may be cut short by the node budget (a search still in progress: its path
 * has no terminal and its reward is null).
 */
export function stressTree(options: StressTreeOptions): TreeSearchView {
  const target = Math.min(STRESS_TREE_MAX_NODES, Math.max(1, Math.floor(options.nodes)));
  const exploration = options.exploration ?? 1;
  const maxDepth = Math.max(1, Math.floor(options.maxDepth ?? (target > 10_000 ? 12 : STRESS_TREE_MAX_DEPTH)));
  const rng = xoroshiro128plus(options.seed ?? 1);
  const random = () => (rng.unsafeNext() >>> 0) / 4294967296;
  const int = (low: number, high: number) => low + Math.floor(random() * (high - low + 1));
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

  const tree = emptyTree();
  const root = tree.nodes.get(TREE_ROOT_ID)!;
  root.thought = QUESTION;
  root.observation = QUESTION;

  const add = (id: string, parent: TreeNodeView, trial: number, origin: TreeNodeView["origin"], estimate: number | null): TreeNodeView => {
    const depth = parent.depth + 1;
    const topic = pick(TOPICS);
    const final = depth >= 2 && random() < 0.3;
    const answer = final ? pick(ANSWERS) : null;
    const action = final ? `Finish[${answer}]` : random() < 0.7 ? `Search[${topic}]` : `Lookup[${pick(["founded", "first published", "started", "editor"])}]`;
    const node: TreeNodeView = {
      id,
      parent: parent.id,
      depth,
      iteration: trial,
      origin,
      thought: final ? `Both dates are known now, so the answer is ${answer}.` : `I need to find when ${topic} was started, then compare it with the other magazine.`,
      actionText: action,
      action: { type: action.slice(0, action.indexOf("[")), argument: action.slice(action.indexOf("[") + 1, -1) },
      parseError: null,
      state: null,
      observation: final ? "Episode finished." : `${topic} is mentioned in ${int(1, 9)} paragraphs; the first says it was started in ${int(1820, 2000)}.`,
      done: final,
      answer,
      callId: `stress-call-${id}`,
      estimate,
      estimateCallId: estimate === null ? null : `stress-value-${id}`,
      value: estimate,
      visits: 0,
      terminal: null,
      reflection: null,
      children: [],
    };
    tree.nodes.set(id, node);
    tree.order.push(id);
    parent.children.push(id);
    return node;
  };

  for (let trial = 1; tree.nodes.size < target; trial += 1) {
    const selected = selectPath(tree, exploration, maxDepth);
    if (!selected) break;
    const leaf = tree.nodes.get(selected[selected.length - 1]!)!;
    let current = leaf;
    const path = [...selected];
    // Selection may stop at a final answer an earlier expansion sampled but did not follow: the
    // trial follows it to be judged, without expanding it.
    if (!leaf.done) {
      const width = Math.min(int(2, 5), target - tree.nodes.size);
      const children: TreeNodeView[] = [];
      for (let k = 1; k <= width; k += 1) children.push(add(expansionNodeId(trial, k), leaf, trial, "expansion", Math.round(random() * 100) / 100));
      current = children.reduce((best, child) => ((child.estimate ?? 0) > (best.estimate ?? 0) ? child : best));
      path.push(current.id);
    }
    while (!current.done && current.depth < maxDepth && tree.nodes.size < target) {
      current = add(rolloutNodeId(trial, current.depth + 1), current, trial, "rollout", null);
      path.push(current.id);
    }
    if (!current.done && current.depth < maxDepth) {
      // The node budget ran out mid-rollout: an iteration still in progress.
      record(tree, { trial, selected, path, followed: true, reward: null });
      break;
    }
    const success = current.done && random() < 0.35;
    const outcome: TreeTerminal["outcome"] = success ? "success" : current.done ? "failure" : "halted";
    current.terminal = { outcome, trial, answer: current.answer };
    if (!success && random() < 0.8) current.reflection = { trial, text: pick(REFLECTIONS) };
    const reward = success ? 1 : 0;
    backpropagate(tree, path, reward);
    record(tree, { trial, selected, path, followed: true, reward });
  }
  return tree;
}
