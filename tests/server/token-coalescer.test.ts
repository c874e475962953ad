import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { splitSendable } from "@/lib/domain/live-call";
import { TokenCoalescer } from "@/lib/server/token-coalescer";

describe("token deltas: coalesced, never half a character", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("sends what arrived in one interval as one message", () => {
    const sent: string[] = [];
    const coalescer = new TokenCoalescer((text) => sent.push(text), 100);
    for (const piece of ["The ", "answer ", "is "]) coalescer.push(piece);
    expect(sent).toEqual([]);
    vi.advanceTimersByTime(100);
    expect(sent).toEqual(["The answer is "]);
    coalescer.push("42");
    vi.advanceTimersByTime(99);
    expect(sent).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(sent).toEqual(["The answer is ", "42"]);
  });

  it("holds back a trailing high surrogate until its pair arrives; close() flushes the rest", () => {
    const sent: string[] = [];
    const coalescer = new TokenCoalescer((text) => sent.push(text), 100);
    coalescer.push("ok \ud83d");
    vi.advanceTimersByTime(100);
    expect(sent).toEqual(["ok "]);
    coalescer.push("\ude00 done");
    coalescer.close();
    expect(sent).toEqual(["ok ", "\ud83d\ude00 done"]);
    expect(sent.join("")).toBe("ok 😀 done");
  });

  it("splitSendable keeps only a lone trailing high surrogate", () => {
    expect(splitSendable("abc")).toEqual({ send: "abc", keep: "" });
    expect(splitSendable("a\ud83d")).toEqual({ send: "a", keep: "\ud83d" });
    expect(splitSendable("a😀")).toEqual({ send: "a😀", keep: "" });
    expect(splitSendable("")).toEqual({ send: "", keep: "" });
  });
});
