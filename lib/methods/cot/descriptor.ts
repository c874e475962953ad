import type { MethodDescriptor } from "../method-descriptor";

/**
 * CoT + Reflexion (Fig. 4b; docs/decisions/0008-strategies.md): closed-book chain of thought, one
 * Thought then `Finish[answer]` per trial and no tools; reflects after failures like Reflexion.
 */
export const cotMethod = {
  id: "cot",
  label: "CoT + Reflexion",
  hint: "Closed-book chain of thought: one Thought then Finish, no tools; reflects after failures.",
  source: "Shinn et al. 2023, Fig. 4b (CoT + Reflexion); reference §2.8",
  reflects: "after-failure",
  remembers: { reflections: true, lastAttempt: false, fixedMemoryWindow: null },
  trial: { stepsPerTrial: 1, usesTools: false, shape: "chain", refine: null },
  families: "listed",
  graph: "lanes",
} as const satisfies MethodDescriptor<"cot">;
