import type { RunEvent } from "@/lib/domain/events";

const MAX_OBSERVATION_CHARS = 160;

function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/**
 * One human-readable line (or null to skip) for an event, as `npm run cli -- run`
 * prints it without `--json`: trial starts, steps, verdicts, reflections, pauses.
 */
export function formatEventLine(event: RunEvent): string | null {
  switch (event.type) {
    case "trial-start":
      return `Trial ${event.data.trial} — memory in context: ${event.data.memory.length} reflection(s)${event.data.evicted.length ? `, ${event.data.evicted.length} evicted by the window` : ""}`;
    case "step-thought":
      return event.data.text ? `  Thought ${event.data.step}: ${clip(event.data.text, MAX_OBSERVATION_CHARS)}` : null;
    case "step-action":
      return `  Action ${event.data.step}: ${event.data.text || "(none)"}${event.data.parseError ? "  [invalid]" : ""}`;
    case "step-observation":
      return `  Observation ${event.data.step}: ${clip(event.data.text, MAX_OBSERVATION_CHARS)}`;
    case "evaluation-end":
      return `  Evaluator (${event.data.evaluatorKind}${event.data.oracle ? ", oracle: uses the gold answer" : ""}): ${event.data.verdict.toUpperCase()} — ${event.data.feedback}`;
    case "trial-end":
      return `Trial ${event.data.trial} verdict: ${event.data.outcome}`;
    case "reflection-end":
      return `Reflection after trial ${event.data.trial}: ${event.data.text}`;
    case "reflection-edit":
      return `Reflection edited: ${event.data.newText}`;
    case "memory-edit":
      return `Memory edited: ${event.data.newMemory.length} item(s)`;
    case "model-call-error":
      return `Model call failed (${event.data.code}, ${event.data.attempts} attempt(s)): ${event.data.message}`;
    case "run-pause":
      return `Paused: ${event.data.detail}`;
    case "run-resume":
      return `Resumed (${event.data.reason}).`;
    case "run-end":
      return `Run ended: ${event.data.outcome} after ${event.data.trials} trial(s).`;
    case "run-error":
      return `Run error: ${event.data.message}`;
    default:
      return null;
  }
}
