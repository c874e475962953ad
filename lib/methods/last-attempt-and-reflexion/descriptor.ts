import type { MethodDescriptor } from "../method-descriptor";

/**
 * EPM + Reflexion (Fig. 4c; reference §1.1 `LAST_ATTEMPT_AND_REFLEXION`): the previous trajectory
 * plus only the newest reflection. The reference code shows one reflection whatever Ω
 * (https://github.com/noahshinn/reflexion/issues/28), so the method fixes Ω = 1.
 */
export const lastAttemptAndReflexionMethod = {
  id: "last-attempt-and-reflexion",
  label: "Last attempt + Reflexion",
  hint: "The next trial sees the previous trajectory and the newest reflection.",
  source: "Shinn et al. 2023, Fig. 4c (EPM + Reflexion); reference §1.1 LAST_ATTEMPT_AND_REFLEXION",
  reflects: "after-failure",
  remembers: { reflections: true, lastAttempt: true, fixedMemoryWindow: 1 },
  trial: { stepsPerTrial: null, usesTools: true, shape: "chain", refine: null },
  families: "all",
  graph: "lanes",
} as const satisfies MethodDescriptor<"last-attempt-and-reflexion">;
