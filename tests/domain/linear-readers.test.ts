import { describe, expect, it } from "vitest";
import { extractJsonObject } from "@/lib/domain/judge-parse";
import { findLineLabel, takeTaggedBlocks, unwrapOnce } from "@/lib/domain/linear-text";
import { countTokens } from "@/lib/domain/tokenizer";
import { cleanReflection } from "@/lib/engine/prompts";
import { readCommandLine, splitCompletion as splitHousehold } from "@/lib/environments/household/commands";
import { splitOpenCompletion } from "@/lib/environments/open/prompts";
import { parseAction, splitCompletion as splitQa } from "@/lib/environments/qa/action-parser";
import { stripReasoning } from "@/lib/environments/qa/reasoning-blocks";

/**
 * Every reader of model text is linear: a reply of 64–256 KiB built to make a regular expression
 * backtrack (or the tokenizer's merge loop run quadratically) is read in milliseconds. Each input
 * here took seconds before (measured: 2–30 s); the bound is generous (1 s on a loaded machine),
 * and each result is checked, so a fast wrong answer fails too.
 */

const KIB = 1024;
/** Milliseconds `work` takes, and its result. */
function timed<T>(work: () => T): { ms: number; result: T } {
  const started = performance.now();
  const result = work();
  return { ms: performance.now() - started, result };
}
const BOUND_MS = 1000;

describe("readers of model text run in linear time", () => {
  it("token count of 64 KiB without a space (gpt-tokenizer's merge is quadratic in one piece: 4 s before)", () => {
    countTokens("openai:gpt-4o", "warm up the encoding");
    const { ms, result } = timed(() => countTokens("openai:gpt-4o", "a".repeat(64 * KIB)));
    // 8 'a' per token, as the whole run counts (8 000 tokens for 64 000).
    expect(result.tokens).toBe(8 * KIB);
    expect(ms).toBeLessThan(BOUND_MS);
    // Ordinary text is counted exactly as before (no cut).
    expect(countTokens("openai:gpt-4o", "The quick brown fox jumps over the lazy dog.").tokens).toBe(10);
  });

  it("QA reader: a line break then 64 KiB of spaces (`[ \\t]*[*_]*[ \\t]*` retried every split: 19 s before)", () => {
    const { ms, result } = timed(() => splitQa(`Thought 1: x\n${" ".repeat(64 * KIB)}`));
    expect(result).toMatchObject({ thought: "x", actionText: "" });
    expect(ms).toBeLessThan(BOUND_MS);
    const parsed = timed(() => parseAction(`Action 1${" ".repeat(64 * KIB)}: Search[Dunmere]`));
    expect(parsed.result).toMatchObject({ ok: true, action: { type: "Search", argument: "Dunmere" } });
    expect(parsed.ms).toBeLessThan(BOUND_MS);
  });

  it("household reader: 64 KiB of `*` (each unwrapping retried the label regex over the whole line: 2 s before, 32 s at 256 KiB)", () => {
    const { ms, result } = timed(() => readCommandLine("*".repeat(64 * KIB)));
    expect(result.command).toBe("");
    expect(ms).toBeLessThan(BOUND_MS);
    const wrapped = timed(() => splitHousehold(`${"`".repeat(32 * KIB)}go to desk 1${"`".repeat(32 * KIB)}`));
    expect(wrapped.result.actionText).toBe("go to desk 1");
    expect(wrapped.ms).toBeLessThan(BOUND_MS);
  });

  it("open tasks' reader: 64 KiB of line breaks (`\\n\\s*Observation` retried at every one: 8 s before)", () => {
    const { ms, result } = timed(() => splitOpenCompletion(`Thought: t${"\n".repeat(64 * KIB)}Action: Finish[yes]`));
    expect(result).toMatchObject({ thought: "t", actionText: "Finish[yes]" });
    expect(ms).toBeLessThan(BOUND_MS);
  });

  it("reasoning blocks: 256 KiB of unclosed `<think>` tags (the lazy match ran to the end from each: seconds before)", () => {
    const text = `${"<think>".repeat(36 * KIB)}{"score": 4}`;
    const judge = timed(() => extractJsonObject(text));
    expect(judge.result).toBe('{"score": 4}');
    expect(judge.ms).toBeLessThan(BOUND_MS);
    const open = timed(() => splitOpenCompletion(`${"<think>".repeat(36 * KIB)}\nAction: Finish[a]`));
    expect(open.result.actionText).toBe("Finish[a]");
    expect(open.ms).toBeLessThan(BOUND_MS);
    const strip = timed(() => stripReasoning("<think>\nAction 1: Search[x]\n".repeat(10 * KIB), /^Action/));
    expect(strip.result.text.match(/Search\[x\]/g)).toHaveLength(10 * KIB);
    expect(strip.ms).toBeLessThan(BOUND_MS);
  });

  it("reflection cleaning: 64 KiB of spaces (`\\s*\\n+\\s*` retried at every space: 4 s before)", () => {
    const { ms, result } = timed(() => cleanReflection(`Lesson:${" ".repeat(64 * KIB)}search first.\n\nThen answer.`));
    expect(result).toBe(`Lesson:${" ".repeat(64 * KIB)}search first. Then answer.`);
    expect(ms).toBeLessThan(BOUND_MS);
  });
});

describe("linear-text helpers give what the regular expressions they replace gave", () => {
  it("takeTaggedBlocks = replace / matchAll of <(think|thinking|reasoning)>([\\s\\S]*?)</\\1>", () => {
    const regex = /<(think|thinking|reasoning)>([\s\S]*?)<\/\1>/gi;
    for (const text of ["a<think>b</think>c<THINKING>d</thinking>e", "<think>x<reasoning>y</think>z</reasoning>", "<think>open<think>two</think>", "no tags", "<thinking>a</think>b</thinking>"]) {
      const taken = takeTaggedBlocks(text);
      expect(taken.text).toBe(text.replace(regex, ""));
      expect(taken.blocks).toEqual([...text.matchAll(regex)].map((match) => match[2]));
    }
  });

  it("findLineLabel = /(^|\\n)\\s*word\\s*\\d*\\s*:/i", () => {
    for (const text of ["Action: x", "a\n  \n Action 2 : y", "a Action: no\nAction: yes", "\nobservation3:z", "x\nActions: no"]) {
      for (const word of ["Action", "Observation"]) {
        const regex = new RegExp(String.raw`(^|\n)\s*${word}\s*\d*\s*:`, "i").exec(text);
        const found = findLineLabel(text, word, true);
        expect(found).toEqual(regex ? { index: regex.index, end: regex.index + regex[0].length } : null);
      }
    }
  });

  it("unwrapOnce = /^(`+|\\*\\*|\"|'|“|‘)(.*)(`+|\\*\\*|\"|'|”|’)$/su group 2", () => {
    const regex = /^(`+|\*\*|"|'|“|‘)(.*)(`+|\*\*|"|'|”|’)$/su;
    for (const text of ["``abc``", "```", "**bold**", "***x***", '"quoted"', "“curly”", "`a", "**", "'x", "plain", "`*", '"`']) {
      expect(unwrapOnce(text)).toBe(regex.exec(text)?.[2] ?? null);
    }
  });
});
