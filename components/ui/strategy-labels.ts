import type { Strategy } from "@/lib/domain/config";

/** Display names of the memory strategies (the paper's names in brackets where they differ). */
export const STRATEGY_LABELS: Record<Strategy, string> = {
  none: "ReAct only",
  reflexion: "Reflexion",
  "last-attempt": "Last attempt (EPM)",
  "last-attempt-and-reflexion": "Last attempt + Reflexion",
  cot: "CoT + Reflexion",
  "cot-gold-context": "CoT (gold context) + Reflexion",
};

/** One sentence per strategy: what the next trial's prompt carries (see docs/decisions/0008-strategies.md). */
export const STRATEGY_HINTS: Record<Strategy, string> = {
  none: "Every trial starts from scratch: no reflection, no memory.",
  reflexion: "After a failed trial the model writes a lesson; the next trial sees the newest Ω of them.",
  "last-attempt": "The next trial sees the previous trial's trajectory, but no reflection is written.",
  "last-attempt-and-reflexion": "The next trial sees the previous trajectory and the newest reflection.",
  cot: "Closed-book chain of thought: one Thought then Finish, no tools; reflects after failures.",
  "cot-gold-context": "Chain of thought with the supporting paragraphs given, no tools; reflects after failures.",
};

/** Whether a strategy writes reflections (so "pause after each reflection" means something). */
export function strategyReflects(strategy: Strategy): boolean {
  return strategy !== "none" && strategy !== "last-attempt";
}
