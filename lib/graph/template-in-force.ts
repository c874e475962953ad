import type { PromptTemplate } from "@/lib/domain/config";
import type { RunEvent } from "@/lib/domain/events";

/**
 * Which template produced a prompt: the run-start template of the role, with
 * every `prompt-edit` of that role logged before the call applied (a branch
 * path's log carries its parent's edits up to the fork, then its own). A
 * Self-Reflection call that wrote a `memory-summary` used the run's
 * summariser template instead. Pure.
 */

/** The template a call used and how it came to be in force. */
export interface TemplateInForce {
  /** Which template: the Actor's, the Self-Reflection's, or the memory summariser's. */
  purpose: "actor" | "reflector" | "summarizer";
  template: PromptTemplate;
  /** Number of prompt edits of the role before the call (0: the run-start template). */
  edits: number;
}

/**
 * The template in force when the call logged as `callEventId` (a
 * `model-call-end` event id) was made; null when the call or the run-start
 * is not in `events` (e.g. the log is still loading) or the call is the
 * Evaluator's (no template).
 */
export function templateInForce(events: readonly RunEvent[], callEventId: string): TemplateInForce | null {
  const call = events.find((event) => event.id === callEventId);
  if (!call || call.type !== "model-call-end") return null;
  const role = call.data.role;
  if (role === "evaluator") return null;
  const summaryCall = events.some((event) => event.type === "memory-summary" && event.data.callId === call.data.callId);
  let config: Extract<RunEvent, { type: "run-start" }>["data"]["config"] | null = null;
  let current: PromptTemplate | null = null;
  let edits = 0;
  for (const event of events) {
    if (event.id === callEventId) break;
    if (event.type === "run-start") {
      config = event.data.config;
      current = config.templates[role];
    } else if (event.type === "prompt-edit" && event.data.role === role) {
      current = event.data.newTemplate;
      edits += 1;
    }
  }
  if (!config || !current) return null;
  if (summaryCall) {
    const management = config.memoryManagement;
    if (management?.kind !== "summarize") return null;
    return { purpose: "summarizer", template: { ...management.summarizer, versionId: management.summarizer.versionId ?? null }, edits: 0 };
  }
  return { purpose: role, template: current, edits };
}
