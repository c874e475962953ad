import type { EnvironmentId, Strategy } from "@/lib/domain/config";
import { familyDescriptor } from "@/lib/environments/descriptors";
import { METHOD_DESCRIPTORS } from "@/lib/methods/registry";

/** Display names of the strategies (the paper's names in brackets where they differ): each method descriptor's `label`. */
export const STRATEGY_LABELS = Object.fromEntries(METHOD_DESCRIPTORS.map((method) => [method.id, method.label])) as Record<Strategy, string>;

/**
 * A strategy's display name in a task family ({@link STRATEGY_LABELS}, or the
 * family's own name for it: its descriptor's `strategyLabels`). `environment` may be unknown (null / undefined)
 * while a run loads.
 */
export function strategyLabel(strategy: Strategy, environment?: EnvironmentId | null): string {
  return (environment ? familyDescriptor(environment).strategyLabels[strategy] : undefined) ?? STRATEGY_LABELS[strategy];
}

/** One sentence per strategy, what the next trial's prompt carries: each method descriptor's `hint` (docs/decisions/0008-strategies.md). */
export const STRATEGY_HINTS = Object.fromEntries(METHOD_DESCRIPTORS.map((method) => [method.id, method.hint])) as Record<Strategy, string>;

/** {@link STRATEGY_HINTS}, with a family's own wording where it has one. */
export function strategyHint(strategy: Strategy, environment?: EnvironmentId | null): string {
  return (environment ? familyDescriptor(environment).strategyHints[strategy] : undefined) ?? STRATEGY_HINTS[strategy];
}
