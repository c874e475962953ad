import type { PromptTemplate } from "@/lib/domain/config";
import type { RunEvent } from "@/lib/domain/events";

/**
 * Which template produced a prompt: the run-start template of the role, with
 * every `prompt-edit` of that role logged before the call applied (a branch
 * path's log carries its parent's edits up to the fork, then its own). Pure.
 */

/** The template a call used and how it came to be in force. */
export interface TemplateInForce {
  template: PromptTemplate;
  /** Number of prompt edits of the role before the call (0: the run-start template). */
  edits: number;
}

/**
 * The `role` template in force when the call logged as `callEventId`
 * (a `model-call-end` event id) was made; null when the call or the run-start
 * is not in `events` (e.g. the log is still loading).
 */
export function templateInForce(events: readonly RunEvent[], callEventId: string, role: "actor" | "reflector"): TemplateInForce | null {
  let current: TemplateInForce | null = null;
  for (const event of events) {
    if (event.id === callEventId) return current;
    if (event.type === "run-start") current = { template: event.data.config.templates[role], edits: 0 };
    else if (event.type === "prompt-edit" && event.data.role === role && current) current = { template: event.data.newTemplate, edits: current.edits + 1 };
  }
  return null;
}
