import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseMemoryWindowText, selectMemoryWindow } from "@/lib/domain/memory-window";
import { memoryWindowApplies } from "@/lib/domain/strategies";

const items = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `r${i + 1}`, text: `lesson ${i + 1}`, trial: i + 1 }));

describe("selectMemoryWindow (Ω)", () => {
  it("keeps the newest Ω reflections, oldest first, and reports the evicted ones", () => {
    const { inContext, evicted } = selectMemoryWindow(items(5), 3);
    expect(inContext.map((m) => m.id)).toEqual(["r3", "r4", "r5"]);
    expect(evicted.map((m) => m.id)).toEqual(["r1", "r2"]);
  });

  it("keeps everything when the window is unbounded or not yet full", () => {
    expect(selectMemoryWindow(items(5), null).inContext).toHaveLength(5);
    expect(selectMemoryWindow(items(2), 3)).toEqual({ inContext: items(2), evicted: [] });
  });

  it("partitions the memory for any size and window", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 20 }), fc.option(fc.integer({ min: 1, max: 10 }), { nil: null }), (n, window) => {
        const memory = items(n);
        const { inContext, evicted } = selectMemoryWindow(memory, window);
        expect([...evicted, ...inContext]).toEqual(memory);
        expect(inContext.length).toBe(window === null ? n : Math.min(n, window));
      }),
    );
  });
});

describe("parseMemoryWindowText: Ω as typed in a form", () => {
  it("reads blank as no Ω typed and a whole number 1–100 as itself", () => {
    expect(parseMemoryWindowText("  ")).toEqual({ ok: true, value: null });
    expect(parseMemoryWindowText(" 3 ")).toEqual({ ok: true, value: 3 });
    expect(parseMemoryWindowText("100")).toEqual({ ok: true, value: 100 });
  });

  it.each(["0", "-1", "1.5", "abc", "101", "1e3"])("refuses %s, saying what to type", (text) => {
    expect(parseMemoryWindowText(text)).toEqual({ ok: false, problem: "the memory window Ω is a whole number from 1 to 100" });
  });
});

describe("memoryWindowApplies: which strategies take Ω", () => {
  it("is true only where reflections reach the prompt and the strategy does not fix Ω", () => {
    expect(memoryWindowApplies("reflexion", undefined)).toBe(true);
    expect(memoryWindowApplies("none", undefined)).toBe(false);
    expect(memoryWindowApplies("last-attempt", undefined)).toBe(false);
    expect(memoryWindowApplies("last-attempt-and-reflexion", undefined)).toBe(false);
  });
});
