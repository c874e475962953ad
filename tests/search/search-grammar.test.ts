import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseQuery, printQuery } from "@/lib/domain/search-grammar";
import { MATCH_FIELDS, NUMERIC_FIELDS, SearchQueryError, TEXT_FIELDS, type SearchQuery, type SearchTerm } from "@/lib/domain/search-query";

function errorOf(text: string): SearchQueryError {
  try {
    parseQuery(text);
  } catch (error) {
    if (error instanceof SearchQueryError) return error;
    throw error;
  }
  throw new Error(`"${text}" parsed`);
}

describe("parseQuery", () => {
  it("reads the issue's example: matches, a wildcard action, a tag and a comparison, all AND-ed", () => {
    expect(parseQuery("family:qa outcome:failure action:Search[*] tag:loop cost>0.01").terms).toEqual([
      { kind: "match", field: "family", value: "qa", negated: false },
      { kind: "match", field: "outcome", value: "failure", negated: false },
      { kind: "match", field: "action", value: "Search[*]", negated: false },
      { kind: "match", field: "tag", value: "loop", negated: false },
      { kind: "compare", field: "cost", op: ">", value: 0.01, negated: false },
    ]);
  });

  it("reads every comparison operator, negation, bare words, phrases and scoped text", () => {
    expect(parseQuery('  -repeat>=3 steps<=10 trial<2 tokens>100 cost=0 milhouse "went wrong" thought:"I need" -reflection:loop ').terms).toEqual([
      { kind: "compare", field: "repeat", op: ">=", value: 3, negated: true },
      { kind: "compare", field: "steps", op: "<=", value: 10, negated: false },
      { kind: "compare", field: "trial", op: "<", value: 2, negated: false },
      { kind: "compare", field: "tokens", op: ">", value: 100, negated: false },
      { kind: "compare", field: "cost", op: "=", value: 0, negated: false },
      { kind: "text", field: null, text: "milhouse", negated: false },
      { kind: "text", field: null, text: "went wrong", negated: false },
      { kind: "text", field: "thought", text: "I need", negated: false },
      { kind: "text", field: "reflection", text: "loop", negated: true },
    ]);
  });

  it("takes field names in any case, quoted values with escapes, and the empty query", () => {
    expect(parseQuery('Family:household task:"a \\"b\\" \\\\c"').terms).toEqual([
      { kind: "match", field: "family", value: "household", negated: false },
      { kind: "match", field: "task", value: 'a "b" \\c', negated: false },
    ]);
    expect(parseQuery("   ")).toEqual({ terms: [] });
  });

  it("names the known fields when a field is unknown, at its offset", () => {
    const error = errorOf("family:qa colour:red");
    expect(error.offset).toBe(10);
    expect(error.message).toContain('unknown field "colour"');
    for (const field of [...MATCH_FIELDS, ...TEXT_FIELDS, ...NUMERIC_FIELDS]) expect(error.message).toContain(field);
  });

  it("says how to compare a numeric field and how to match a non-numeric one", () => {
    expect(errorOf("cost:0.01").message).toContain("cost>=3");
    const notNumeric = errorOf("x family>2");
    expect(notNumeric.offset).toBe(2);
    expect(notNumeric.message).toContain("family:household");
    const badNumber = errorOf("repeat>=three");
    expect(badNumber.offset).toBe(8);
    expect(badNumber.message).toContain('not "three"');
  });

  it("refuses a bare OR or AND (there is no OR; AND is implied) but searches them in quotes or in lower case", () => {
    const or = errorOf("family:qa OR family:household");
    expect(or.offset).toBe(10);
    expect(or.message).toContain("there is no OR");
    expect(errorOf("loop AND tag:x").message).toContain("AND already");
    expect(parseQuery('"OR" or').terms).toEqual([
      { kind: "text", field: null, text: "OR", negated: false },
      { kind: "text", field: null, text: "or", negated: false },
    ]);
    expect(printQuery(parseQuery('"OR"'))).toBe('"OR"');
  });

  it("points at an unclosed quote, a missing value, a lone minus and a stray quote", () => {
    expect(errorOf('ok "never closed').offset).toBe(3);
    expect(errorOf('ok "never closed').message).toContain('closing "');
    expect(errorOf("family: qa").message).toContain("write a value after family:");
    expect(errorOf("a - b").offset).toBe(2);
    expect(errorOf('ab"c').offset).toBe(2);
    expect(errorOf('"a"b').message).toContain("space after the closing quote");
    expect(errorOf('""').message).toContain("empty");
    expect(errorOf("a:b").message).toContain('unknown field "a"');
    expect(errorOf("x>=").message).toContain('unknown field "x"');
  });
});

const nonBlank = fc.string({ minLength: 1, maxLength: 12, unit: fc.constantFrom("a", "Z", " ", '"', "\\", ":", "-", ">", "=", "[", "*", "]", "é", "\n", "1") }).filter((s) => s.trim() !== "");
const term: fc.Arbitrary<SearchTerm> = fc.oneof(
  fc.record({ kind: fc.constant("text" as const), field: fc.constantFrom(null, ...TEXT_FIELDS), text: nonBlank, negated: fc.boolean() }),
  fc.record({ kind: fc.constant("match" as const), field: fc.constantFrom(...MATCH_FIELDS), value: nonBlank, negated: fc.boolean() }),
  fc.record({
    kind: fc.constant("compare" as const),
    field: fc.constantFrom(...NUMERIC_FIELDS),
    op: fc.constantFrom("<" as const, "<=" as const, ">" as const, ">=" as const, "=" as const),
    value: fc.oneof(fc.integer({ min: -1000, max: 100_000 }), fc.double({ noNaN: true, noDefaultInfinity: true })),
    negated: fc.boolean(),
  }),
);

describe("printQuery", () => {
  it("prints canonically", () => {
    expect(printQuery(parseQuery('  FAMILY:household   -"a b"  repeat>=3 thought:x:y'))).toBe('family:household -"a b" repeat>=3 thought:x:y');
  });

  it("every query round-trips through its printer", () => {
    fc.assert(
      fc.property(fc.array(term, { maxLength: 6 }), (terms) => {
        const query: SearchQuery = { terms };
        expect(parseQuery(printQuery(query))).toEqual(query);
      }),
      { numRuns: 500 },
    );
  });
});
