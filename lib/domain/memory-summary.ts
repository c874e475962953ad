import type { MemoryItem } from "./events";
import { countTokens } from "./tokenizer";

/**
 * Memory summarisation (docs/decisions/0018-template-library.md):
 * the seeds' "summarise or prune old reflections when memory grows". Under
 * `RunConfig.memoryManagement = { kind: "summarize", tokenBudget, summarizer }`,
 * before a trial whose episodic memory holds more than one reflection and more
 * than `tokenBudget` tokens of them, the Self-Reflection model merges them with
 * the summariser template into one reflection (event `memory-summary`). Ours:
 * the paper prunes with the window Ω only (§3, "bounded by a maximum number of
 * stored experiences").
 */

/** The line the built-in summariser template ends with; the demo model answers prompts that end with it. */
export const MEMORY_SUMMARY_PROMPT_END = "Merged reflection:";

/** The line before the numbered reflections in the built-in template; the demo model reads the list after it. */
export const MEMORY_SUMMARY_LIST_HEADER = "Reflections, oldest first:";

/**
 * The built-in summariser template (`<family>/summarize-memory` v1, ours), the same for every family.
 * Placeholders: `{reflections}` (numbered, oldest first, one per line), `{count}`, `{tokenBudget}`.
 */
export const DEFAULT_SUMMARIZER_TEXT = [
  "An agent is learning a task by trial and error. After each failed trial it wrote a short reflection: what went wrong and what to do differently next time. Its memory now holds {count} reflections, more than it can keep.",
  "Merge them into one reflection of at most {tokenBudget} tokens that keeps every distinct lesson that is still useful, drops repetition, and keeps concrete names, numbers and plans. Write only the merged reflection, as one paragraph.",
  "",
  MEMORY_SUMMARY_LIST_HEADER,
  "{reflections}",
  "",
  MEMORY_SUMMARY_PROMPT_END,
].join("\n");

/** The placeholder names the summariser template may use, sorted. */
export const SUMMARIZER_VARIABLES = ["count", "reflections", "tokenBudget"] as const;

/** The values of the summariser template's placeholders for a memory. */
export function summarizerVariables(memory: readonly MemoryItem[], tokenBudget: number): Record<(typeof SUMMARIZER_VARIABLES)[number], string> {
  return {
    reflections: memory.map((item, index) => `${index + 1}. ${item.text.replace(/\s*\n+\s*/g, " ").trim()}`).join("\n"),
    count: String(memory.length),
    tokenBudget: String(tokenBudget),
  };
}

/** Tokens of a memory's reflection texts for `modelId` (lib/domain/tokenizer.ts), summed. */
export function memoryTokens(modelId: string, memory: readonly MemoryItem[]): number {
  return memory.reduce((sum, item) => sum + countTokens(modelId, item.text).tokens, 0);
}
