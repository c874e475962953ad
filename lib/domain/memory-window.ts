import { MAX_MEMORY_WINDOW, memoryWindowRequestSchema } from "./config";
import type { MemoryItem } from "./events";

/**
 * Applies the memory window Ω (paper §3: "usually 1–3") to the episodic memory.
 *
 * @param memory the whole episodic memory, oldest first.
 * @param window Ω; `null` keeps everything (the HotpotQA reference code's behaviour).
 * @returns `inContext`: the newest Ω items, oldest first; `evicted`: the rest.
 */
export function selectMemoryWindow(
  memory: readonly MemoryItem[],
  window: number | null,
): { inContext: MemoryItem[]; evicted: MemoryItem[] } {
  if (window === null || memory.length <= window) return { inContext: [...memory], evicted: [] };
  const cut = memory.length - window;
  return { inContext: memory.slice(cut), evicted: memory.slice(0, cut) };
}

/**
 * Reads Ω as typed in a form field: blank → `null` (no Ω typed: the caller decides what that
 * means — "all" on the new-run form, "the family's default" on an experiment arm); otherwise a
 * whole number 1–{@link MAX_MEMORY_WINDOW} ({@link memoryWindowRequestSchema}, the rule the
 * server applies).
 * @returns `{ ok: true, value }`, or `{ ok: false, problem }` with a sentence saying what to type.
 */
export function parseMemoryWindowText(text: string): { ok: true; value: number | null } | { ok: false; problem: string } {
  const trimmed = text.trim();
  if (trimmed === "") return { ok: true, value: null };
  const value = Number(trimmed);
  if (!memoryWindowRequestSchema.safeParse(value).success || value === null) {
    return { ok: false, problem: `the memory window Ω is a whole number from 1 to ${MAX_MEMORY_WINDOW}` };
  }
  return { ok: true, value };
}
