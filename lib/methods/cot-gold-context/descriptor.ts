import type { MethodDescriptor } from "../method-descriptor";

/**
 * CoT (GT) + Reflexion (Fig. 4b; docs/decisions/0008-strategies.md): as `cot`, with the task's
 * supporting paragraphs in the Actor prompt (the family renders them).
 */
export const cotGoldContextMethod = {
  id: "cot-gold-context",
  label: "CoT (gold context) + Reflexion",
  hint: "Chain of thought with the supporting paragraphs given, no tools; reflects after failures.",
  source: "Shinn et al. 2023, Fig. 4b (CoT (GT) + Reflexion); reference §2.8",
  reflects: "after-failure",
  remembers: { reflections: true, lastAttempt: false, fixedMemoryWindow: null },
  trial: { stepsPerTrial: 1, usesTools: false, shape: "chain", refine: null },
  families: "listed",
  graph: "lanes",
} as const satisfies MethodDescriptor<"cot-gold-context">;
