import type { EnvironmentId, Strategy } from "@/lib/domain/config";
import { familyDescriptor } from "@/lib/environments/descriptors";

/** Display names of the memory strategies (the paper's names in brackets where they differ). */
export const STRATEGY_LABELS: Record<Strategy, string> = {
  none: "ReAct only",
  reflexion: "Reflexion",
  "last-attempt": "Last attempt (EPM)",
  "last-attempt-and-reflexion": "Last attempt + Reflexion",
  cot: "CoT + Reflexion",
  "cot-gold-context": "CoT (gold context) + Reflexion",
};

/**
 * A strategy's display name in a task family ({@link STRATEGY_LABELS}, or the
 * family's own name for it: its descriptor's `strategyLabels`). `environment` may be unknown (null / undefined)
 * while a run loads.
 */
export function strategyLabel(strategy: Strategy, environment?: EnvironmentId | null): string {
  return (environment ? familyDescriptor(environment).strategyLabels[strategy] : undefined) ?? STRATEGY_LABELS[strategy];
}

/** One sentence per strategy: what the next trial's prompt carries (see docs/decisions/0008-strategies.md). */
export const STRATEGY_HINTS: Record<Strategy, string> = {
  none: "Every trial starts from scratch: no reflection, no memory.",
  reflexion: "After a failed trial the model writes a lesson; the next trial sees the newest Ω of them.",
  "last-attempt": "The next trial sees the previous trial's trajectory, but no reflection is written.",
  "last-attempt-and-reflexion": "The next trial sees the previous trajectory and the newest reflection.",
  cot: "Closed-book chain of thought: one Thought then Finish, no tools; reflects after failures.",
  "cot-gold-context": "Chain of thought with the supporting paragraphs given, no tools; reflects after failures.",
};

/** {@link STRATEGY_HINTS}, with a family's own wording where it has one. */
export function strategyHint(strategy: Strategy, environment?: EnvironmentId | null): string {
  return (environment ? familyDescriptor(environment).strategyHints[strategy] : undefined) ?? STRATEGY_HINTS[strategy];
}
