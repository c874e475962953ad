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
