import type { MethodDescriptor } from "../method-descriptor";

/**
 * ReAct only (`NONE` in the reference code, shared/docs/reflexion-reference.md §1.1): every trial
 * starts from scratch, no reflection is written. The baseline Reflexion is measured against.
 */
export const noneMethod = {
  id: "none",
  label: "ReAct only",
  hint: "Every trial starts from scratch: no reflection, no memory.",
  source: "Yao et al. 2023 (ReAct); the Reflexion paper's baseline, reference §1.1 NONE",
  reflects: "never",
  remembers: { reflections: false, lastAttempt: false, fixedMemoryWindow: null },
  trial: { stepsPerTrial: null, usesTools: true, shape: "chain", refine: null },
  families: "all",
  graph: "lanes",
} as const satisfies MethodDescriptor<"none">;
