import type { MethodDescriptor } from "../method-descriptor";

/**
 * The paper's episodic-memory ablation (EPM, Fig. 4c; reference §1.1 `LAST_ATTEMPT`): the next
 * trial sees the previous trial's whole trajectory, and no reflection is written.
 */
export const lastAttemptMethod = {
  id: "last-attempt",
  label: "Last attempt (EPM)",
  hint: "The next trial sees the previous trial's trajectory, but no reflection is written.",
  source: "Shinn et al. 2023, Fig. 4c (EPM); reference §1.1 LAST_ATTEMPT",
  reflects: "never",
  remembers: { reflections: false, lastAttempt: true, fixedMemoryWindow: null },
  trial: { stepsPerTrial: null, usesTools: true, shape: "chain", refine: null },
  families: "all",
  graph: "lanes",
} as const satisfies MethodDescriptor<"last-attempt">;
