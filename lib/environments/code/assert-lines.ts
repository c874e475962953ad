import type { CodeLanguage } from "./task";

/**
 * Internal-test lines, as the reference filters them (shared/docs/reflexion-reference.md
 * §4.3): every line of the Actor's test completion that contains `assert`, stripped,
 * is a candidate; the ones that parse are kept, at most {@link MAX_INTERNAL_TESTS}.
 * Parsing itself needs the language's parser (the sandbox for Python, esbuild for
 * JavaScript/TypeScript): see internal-tests.ts.
 */

/** At most this many internal tests are kept (reference: `max_num_tests=5`). */
export const MAX_INTERNAL_TESTS = 5;

/** The candidate lines of a test completion: lines containing `assert`, stripped, duplicates dropped, in order. */
export function candidateTestLines(code: string): string[] {
  const seen = new Set<string>();
  const lines: string[] = [];
  for (const raw of code.split("\n")) {
    const line = raw.trim();
    if (!line.includes("assert") || line.startsWith("#") || line.startsWith("//") || seen.has(line)) continue;
    if (/^(const|let|var)\s+assert\s*=\s*require\(/.test(line) || /^import\s.*assert/.test(line)) continue;
    seen.add(line);
    lines.push(line);
  }
  return lines;
}

/**
 * Index of the first top-level occurrence of one of `tokens` in `text` (outside
 * strings, brackets and template literals), or -1. Longer tokens are tried first
 * at each position, so `===` wins over `==`.
 */
function topLevelIndex(text: string, tokens: readonly string[]): { index: number; token: string } | null {
  const sorted = [...tokens].sort((a, b) => b.length - a.length);
  let depth = 0;
  let quote: string | null = null;
  for (let i = 0; i < text.length; i += 1) {
    const ch = text[i]!;
    if (quote) {
      if (ch === "\\") i += 1;
      else if (ch === quote) quote = null;
      continue;
    }
    if (ch === '"' || ch === "'" || ch === "`") {
      quote = ch;
      continue;
    }
    if ("([{".includes(ch)) depth += 1;
    else if (")]}".includes(ch)) depth -= 1;
    else if (depth === 0) {
      const token = sorted.find((candidate) => text.startsWith(candidate, i));
      if (token) return { index: i, token };
    }
  }
  return null;
}

/** Strips one pair of enclosing parentheses when they wrap the whole text. */
function insideCall(text: string): string | null {
  const open = text.indexOf("(");
  if (open === -1 || !text.endsWith(")")) return null;
  return text.slice(open + 1, -1);
}

/** Python comparison operators, longest first where one is a prefix of another (`is not` before `is`). */
const PY_COMPARISONS = ["==", "!=", "<=", ">=", " is not ", " not in ", " is ", " in ", "<", ">"];
/** JavaScript comparison operators. */
const JS_COMPARISONS = ["===", "!==", "==", "!=", "<=", ">=", "<", ">"];

/** The left operand of a top-level comparison in `condition`; or the condition itself (minus a leading `not` / `!`) when it is a call. */
function leftOperand(condition: string, operators: readonly string[], negation: RegExp): string | null {
  const compare = topLevelIndex(condition, operators);
  if (compare) {
    const lhs = condition.slice(0, compare.index).trim();
    return lhs === "" ? null : lhs;
  }
  const bare = condition.trim().replace(negation, "").trim();
  return /^[A-Za-z_$][\w$.]*\s*\(.*\)$/s.test(bare) ? bare : null;
}

/**
 * The expression whose value the reference shows after a failing assert
 * (`# output: <value>`): the left operand of the assert's comparison, as the
 * reference's `get_output` evaluates it. Python `assert f(x) == y` (also `!=`,
 * `is`, `is not`, `in`, `not in`, `<`, `<=`, `>`, `>=`), or a bare
 * `assert f(x)` / `assert not f(x)` → `f(x)`; JavaScript
 * `assert.deepStrictEqual(f(x), y)` and the other two-argument asserts → `f(x)`;
 * `console.assert(f(x) === y)` / `assert(f(x) !== y)` / `assert.ok(f(x))` → `f(x)`.
 * Null when the line compares no call or expression we can show.
 */
export function comparedExpression(line: string, language: CodeLanguage): string | null {
  const text = line.trim().replace(/;$/, "").trim();
  if (language === "python") {
    if (!text.startsWith("assert ")) return null;
    let body = text.slice("assert ".length);
    const message = topLevelIndex(body, [","]);
    if (message) body = body.slice(0, message.index);
    return leftOperand(body, PY_COMPARISONS, /^not\s+/);
  }
  const twoArgs = /^assert\.(deepStrictEqual|strictEqual|deepEqual|equal|notDeepStrictEqual|notStrictEqual|notDeepEqual|notEqual)\s*\(/.exec(text);
  if (twoArgs) {
    const args = insideCall(text);
    const comma = args === null ? null : topLevelIndex(args, [","]);
    const lhs = args !== null && comma ? args.slice(0, comma.index).trim() : "";
    return lhs === "" ? null : lhs;
  }
  if (/^(console\.assert|assert(\.ok)?)\s*\(/.test(text)) {
    const args = insideCall(text);
    if (args === null) return null;
    const message = topLevelIndex(args, [","]);
    return leftOperand(message ? args.slice(0, message.index) : args, JS_COMPARISONS, /^!\s*/);
  }
  return null;
}
