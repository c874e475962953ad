import type { MethodDescriptor } from "../method-descriptor";

/**
 * Language Agent Tree Search (Zhou et al., ICML 2024, §4): Monte-Carlo tree search over ReAct
 * steps. Each trial is one search iteration: select a path by UCT, sample n children there with the
 * Actor, value them with an LLM value prompt, roll out from the best one to a verdict of the
 * family's Evaluator, backpropagate the reward; after a failed trajectory the Self-Reflection model
 * writes a reflection that later expansions see (the paper's "reflections on failed trajectories").
 * The run's trial budget is the number of iterations and its steps per trial the depth limit.
 */
export const latsMethod = {
  id: "lats",
  label: "LATS (tree search)",
  hint: "Each trial is one search iteration: sample n next steps, value them, follow the best to a verdict; failures leave a reflection for later expansions.",
  source: "Zhou et al. 2024, Language Agent Tree Search, §4 and Algorithm 1",
  reflects: "after-failure",
  remembers: { reflections: true, lastAttempt: false, fixedMemoryWindow: null },
  trial: { stepsPerTrial: null, usesTools: true, shape: "tree-search", refine: null },
  families: "all",
  graph: "tree",
} as const satisfies MethodDescriptor<"lats">;
