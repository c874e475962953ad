import type { MethodDescriptor } from "../method-descriptor";

/**
 * Reflexion (Shinn et al. 2023, §3): after a failed trial the Self-Reflection model writes a lesson
 * into the episodic memory; the next trial's Actor prompt carries the newest Ω of them.
 */
export const reflexionMethod = {
  id: "reflexion",
  label: "Reflexion",
  hint: "After a failed trial the model writes a lesson; the next trial sees the newest Ω of them.",
  source: "Shinn et al. 2023, §3; reference §1.1 REFLEXION",
  reflects: "after-failure",
  remembers: { reflections: true, lastAttempt: false, fixedMemoryWindow: null },
  trial: { stepsPerTrial: null, usesTools: true, shape: "chain", refine: null },
  families: "all",
  graph: "lanes",
} as const satisfies MethodDescriptor<"reflexion">;
