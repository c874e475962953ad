import type { PromptTemplate } from "@/lib/domain/config";
import type { ActionParse, StepCompletion, TrajectoryStep } from "@/lib/domain/environment";
import type { MemoryItem } from "@/lib/domain/events";
import { TRACE_REFLECT_TEMPLATE } from "@/lib/domain/trace-reflection";

/**
 * The external family's text: how a recorded tool call reads (`tool(input)`), how a trajectory and
 * the memory render in a prompt, and its Self-Reflection template. The Actor template exists only
 * because every family has one: runs of this family are imported, never run here.
 */

/** `tool(input)`: the tool's name (letters, digits, `_ . - : /`) and its input as recorded. */
const TOOL_CALL = /^\s*([A-Za-z0-9_.:/-]+)\(([\s\S]*)\)\s*$/;

/** A recorded tool call as action text: `search({"q": "x"})`. */
export function toolCallText(tool: string, input: string): string {
  return `${tool}(${input})`;
}

/** Reads `tool(input)`; never throws (anything else is an `ok: false` parse naming the expected shape). */
export function parseToolCall(text: string): ActionParse {
  const match = TOOL_CALL.exec(text);
  if (!match) return { ok: false, error: "Not a recorded tool call: expected tool(input).", text };
  return { ok: true, action: { type: match[1] ?? "", argument: match[2] ?? "" }, text };
}

/** `Thought: …\nAction: tool(input)`; a completion without an action line is all thought. */
export function splitExternalCompletion(completion: string): StepCompletion {
  const match = /^([\s\S]*?)\n?Action:\s*(.*)$/m.exec(completion);
  if (!match) return { thought: completion.replace(/^Thought:\s*/, "").trim(), actionText: "" };
  return { thought: (match[1] ?? "").replace(/^Thought:\s*/, "").trim(), actionText: (match[2] ?? "").trim() };
}

/** The recorded turns, one block per step: thought, tool call, result. */
export function renderExternalTrajectory(steps: readonly TrajectoryStep[]): string {
  return steps
    .map((step) => [step.thought ? `\nThought ${step.step}: ${step.thought}` : "", `\nAction ${step.step}: ${step.actionText}`, `\nObservation ${step.step}: ${step.observation}`].join(""))
    .join("");
}

/** Earlier reflections as a bulleted block, or "" when there are none. */
export function renderExternalMemory(memory: readonly MemoryItem[]): string {
  return memory.length === 0 ? "" : `Reflections from earlier attempts:\n${memory.map((item) => `- ${item.text}`).join("\n")}\n`;
}

export const externalActorTemplate: PromptTemplate = {
  id: "external/actor",
  version: 1,
  text: "{memory}Task: {task}\nAnswer with Thought: and Action: tool(input) lines.{scratchpad}",
};

/** The Self-Reflection on an outside agent's failed attempt: lib/domain/trace-reflection.ts (`external/reflect`), which the reflect-on-traces service renders. */
export const externalReflectorTemplate: PromptTemplate = TRACE_REFLECT_TEMPLATE;
