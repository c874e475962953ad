import type { MethodDescriptor } from "../method-descriptor";

/**
 * Self-Refine (Madaan et al., NeurIPS 2023, "Self-Refine: Iterative Refinement with Self-Feedback",
 * §2 and Algorithm 1): within one trial, once the Actor has answered, the same model gives feedback
 * on the answer and writes an improved one, until the feedback says there is nothing left to fix
 * or `maxRounds` rounds are done; the family's Evaluator judges the last answer. Nothing is carried
 * between trials: no reflection is written and no earlier trial reaches a prompt
 * (docs/decisions/0037-self-refine.md).
 */
export const selfRefineMethod = {
  id: "self-refine",
  label: "Self-Refine",
  hint: "Within each trial the model critiques its own answer and rewrites it (up to k rounds) before the Evaluator judges it; nothing carries over to the next trial.",
  source: "Madaan et al. 2023, Self-Refine, §2 and Algorithm 1",
  reflects: "never",
  remembers: { reflections: false, lastAttempt: false, fixedMemoryWindow: null },
  trial: { stepsPerTrial: null, usesTools: true, shape: "chain", refine: { maxRounds: 3 } },
  families: "all",
  graph: "lanes",
} as const satisfies MethodDescriptor<"self-refine">;
