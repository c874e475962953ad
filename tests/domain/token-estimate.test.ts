import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import type { MemoryItem } from "@/lib/domain/events";
import { estimateMemoryTokens } from "@/lib/domain/next-trial";
import { countTokens } from "@/lib/domain/tokenizer";
import { budgetTokensFloor } from "@/lib/domain/trajectory-budget";
import { estimateTokens, tokensForChars } from "@/lib/domain/token-estimate";

describe("estimateTokens, the one tokenizer-free estimate", () => {
  it("is ceil(chars / 4) in UTF-16 code units", () => {
    expect(estimateTokens("")).toBe(0);
    expect(estimateTokens("abcd")).toBe(1);
    expect(estimateTokens("abcde")).toBe(2);
    expect(estimateTokens("\u{1F600}\u{1F600}\u{1F600}")).toBe(2);
    expect(tokensForChars(9)).toBe(3);
  });

  it("is what the demo model's tokenizer, the budget floor and the memory panel count", () => {
    const text = "Thought: the bridge entity is the director, not the film.";
    expect(countTokens("demo", text).tokens).toBe(estimateTokens(text));
    expect(budgetTokensFloor(text.length)).toBe(estimateTokens(text));
    const memory: MemoryItem[] = [
      { id: "m1", text, trial: 1 },
      { id: "m2", text: "a", trial: null },
    ];
    expect(estimateMemoryTokens("demo", memory)).toBe(estimateTokens(text) + 1);
  });

  it("imports nothing, so a component may use it without pulling node:module into the bundle", () => {
    const source = readFileSync(resolve(__dirname, "../../lib/domain/token-estimate.ts"), "utf8");
    expect(source).not.toMatch(/^\s*import\s/m);
  });
});
