import { describe, expect, it } from "vitest";
import { jsonbText } from "@/lib/db/pg/nul-safe-jsonb";

describe("jsonbText (PostgreSQL jsonb cannot hold U+0000)", () => {
  it("replaces each NUL in any string, keys included, by U+FFFD and changes nothing else", () => {
    const value = { "k\u0000": ["a\u0000b", "\\\u0000", "\\u0000 as text", "\\\\u0000"], n: 1 };
    expect(JSON.parse(jsonbText(value))).toEqual({ "k\uFFFD": ["a\uFFFDb", "\\\uFFFD", "\\u0000 as text", "\\\\u0000"], n: 1 });
  });

  it("is JSON.stringify when there is no NUL", () => {
    const value = { text: "no nul here \\u0000", list: [1, null, "x"] };
    expect(jsonbText(value)).toBe(JSON.stringify(value));
  });
});
