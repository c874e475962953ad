import type { MethodDescriptor } from "../method-descriptor";

/**
 * ExpeL (Zhao et al., AAAI 2024, "ExpeL: LLM Agents Are Experiential Learners", §4.3 task
 * inference, with Reflexion retries as the paper's evaluation allows): the Actor prompt carries the
 * general insights extracted from earlier tasks (`cli insights extract`, lib/domain/insights.ts) from
 * trial 1 on; after a failed trial the Self-Reflection model writes a reflection as in Reflexion,
 * and later trials see the insights and the newest Ω reflections. Without an insights store it is
 * Reflexion (the log says so).
 */
export const expelMethod = {
  id: "expel",
  label: "ExpeL (insights)",
  hint: "Every trial's prompt carries general insights extracted from other tasks; after a failure the model also writes a Reflexion lesson.",
  source: "Zhao et al. 2024, ExpeL, §4.2–4.3; docs/decisions/0038-expel-insights.md",
  reflects: "after-failure",
  remembers: { reflections: true, lastAttempt: false, fixedMemoryWindow: null, insights: true },
  trial: { stepsPerTrial: null, usesTools: true, shape: "chain", refine: null },
  families: "all",
  graph: "lanes",
} as const satisfies MethodDescriptor<"expel">;
