import { MATCH_FIELDS, NUMERIC_FIELDS, SearchQueryError, TEXT_FIELDS, type CompareOp, type MatchField, type NumericField, type SearchQuery, type SearchTerm, type TextField } from "./search-query";

/**
 * The parser and canonical printer of the search grammar (lib/domain/search-query.ts, docs/search.md).
 *
 * Lexical rules: terms are separated by whitespace. A term is an optional `-` (negation), then one of
 * - `"a phrase"` — full text; inside quotes `\"` is a quote and `\\` a backslash;
 * - `field:value` or `field:"a value"` — a text field (`thought:`, …) or a match field (`family:`, …);
 * - `field>n` (`>=`, `<`, `<=`, `=`) — a comparison of a numeric field with a finite number;
 * - a bare word (no `"`, `:`, `<`, `>` or `=`, not starting with `-`) — full text.
 * Field names are case-insensitive; values keep their case. Every text, phrase and value must hold a
 * non-blank character.
 */

const KNOWN_FIELDS: readonly string[] = [...MATCH_FIELDS, ...TEXT_FIELDS, ...NUMERIC_FIELDS];
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/iu;
const FIELD_PREFIX = /^([A-Za-z]+)(>=|<=|:|>|<|=)/u;

function isMatchField(name: string): name is MatchField {
  return (MATCH_FIELDS as readonly string[]).includes(name);
}
function isTextField(name: string): name is TextField {
  return (TEXT_FIELDS as readonly string[]).includes(name);
}
function isNumericField(name: string): name is NumericField {
  return (NUMERIC_FIELDS as readonly string[]).includes(name);
}

function isSpace(char: string | undefined): boolean {
  return char !== undefined && /\s/u.test(char);
}

/** A tiny cursor over the query text. */
class Reader {
  pos = 0;
  constructor(readonly src: string) {}
  get done(): boolean {
    return this.pos >= this.src.length;
  }
  peek(): string | undefined {
    return this.src[this.pos];
  }
  skipSpace(): void {
    while (isSpace(this.peek())) this.pos += 1;
  }
  /** Characters up to the next whitespace (or the end). */
  bare(): string {
    const start = this.pos;
    while (!this.done && !isSpace(this.peek())) this.pos += 1;
    return this.src.slice(start, this.pos);
  }
  /** A quoted string starting at the current `"`; the position moves past the closing quote. */
  quoted(): string {
    const open = this.pos;
    this.pos += 1;
    let out = "";
    while (!this.done) {
      const char = this.src[this.pos]!;
      if (char === "\\" && (this.src[this.pos + 1] === '"' || this.src[this.pos + 1] === "\\")) {
        out += this.src[this.pos + 1];
        this.pos += 2;
        continue;
      }
      if (char === '"') {
        this.pos += 1;
        if (!this.done && !isSpace(this.peek())) throw new SearchQueryError(`put a space after the closing quote (found "${this.peek()}")`, this.pos);
        return out;
      }
      out += char;
      this.pos += 1;
    }
    throw new SearchQueryError('this quote is never closed: add a closing " (write \\" for a quote inside)', open);
  }
}

function requireContent(value: string, offset: number, what: string): string {
  if (value.trim() === "") throw new SearchQueryError(`${what} is empty: write something there, or remove it`, offset);
  return value;
}

function parseValue(reader: Reader, field: string): string {
  const at = reader.pos;
  if (reader.done || isSpace(reader.peek())) throw new SearchQueryError(`write a value after ${field}: (e.g. ${example(field)})`, at);
  if (reader.peek() === '"') return requireContent(reader.quoted(), at, `the value of ${field}:`);
  const value = reader.bare();
  const quote = value.indexOf('"');
  if (quote >= 0) throw new SearchQueryError(`a quote inside a value: quote the whole value, e.g. ${field}:"…"`, at + quote);
  return value;
}

function example(field: string): string {
  if (field === "action") return "action:Search[*]";
  if (field === "family") return "family:household";
  if (field === "outcome") return "outcome:failure";
  if (field === "tag") return "tag:loop";
  if (isTextField(field)) return `${field}:"a phrase"`;
  if (isNumericField(field)) return `${field}>=3`;
  return `${field}:value`;
}

function unknownField(name: string, offset: number): SearchQueryError {
  return new SearchQueryError(`unknown field "${name}": use one of ${KNOWN_FIELDS.join(", ")} — or put the words in quotes to search the text`, offset);
}

function parseTerm(reader: Reader): SearchTerm {
  const start = reader.pos;
  const negated = reader.peek() === "-";
  if (negated) {
    reader.pos += 1;
    if (reader.done || isSpace(reader.peek())) throw new SearchQueryError('"-" negates the term right after it: write e.g. -outcome:success (no space)', start);
  }
  const at = reader.pos;
  if (reader.peek() === '"') return { kind: "text", field: null, text: requireContent(reader.quoted(), at, "the phrase"), negated };
  const prefix = FIELD_PREFIX.exec(reader.src.slice(at));
  if (prefix) {
    const name = prefix[1]!.toLowerCase();
    const op = prefix[2]!;
    reader.pos = at + prefix[0].length;
    if (op === ":") {
      if (isTextField(name)) return { kind: "text", field: name, text: requireContent(parseValue(reader, name), reader.pos, `the text of ${name}:`), negated };
      if (isMatchField(name)) return { kind: "match", field: name, value: requireContent(parseValue(reader, name), reader.pos, `the value of ${name}:`), negated };
      if (isNumericField(name)) throw new SearchQueryError(`${name} is a number: compare it, e.g. ${example(name)} (operators > >= < <= =)`, at);
      throw unknownField(name, at);
    }
    if (!isNumericField(name)) {
      if (isMatchField(name) || isTextField(name)) throw new SearchQueryError(`${name} is not a number: write ${example(name)}; comparisons work on ${NUMERIC_FIELDS.join(", ")}`, at);
      throw unknownField(name, at);
    }
    const numberAt = reader.pos;
    const raw = reader.bare();
    if (!NUMBER.test(raw)) throw new SearchQueryError(`write a number after ${name}${op} (e.g. ${name}${op}${name === "cost" ? "0.01" : "3"})${raw ? `, not "${raw}"` : ""}`, numberAt);
    return { kind: "compare", field: name, op: op as CompareOp, value: Number(raw), negated };
  }
  const word = reader.bare();
  // Every term must hold; a bare OR / AND reads like an operator the language does not have.
  if (word === "OR" || word === "AND") {
    throw new SearchQueryError(
      word === "OR"
        ? 'there is no OR: every term must hold; run one search per alternative, or write "OR" in quotes to search the word'
        : 'terms are joined by AND already: leave it out, or write "AND" in quotes to search the word',
      at,
    );
  }
  const bad = word.search(/["<>=:]/u);
  if (bad >= 0) {
    const char = word[bad];
    if (char === '"') throw new SearchQueryError('a quote inside a word: put the whole phrase in quotes, e.g. "Search[Milhouse]"', at + bad);
    throw new SearchQueryError(`"${char}" needs a field before it (${KNOWN_FIELDS.join(", ")}); to search for the text itself, put it in quotes: "${word}"`, at + bad);
  }
  return { kind: "text", field: null, text: word, negated };
}

/**
 * Parses a query. Whitespace-only text is the empty query (every trial).
 * @throws SearchQueryError with the 0-based offset of the problem and what to write instead
 *   (an unknown field lists the known ones; a comparison on a non-numeric field says which are numeric).
 */
export function parseQuery(text: string): SearchQuery {
  const reader = new Reader(text);
  const terms: SearchTerm[] = [];
  reader.skipSpace();
  while (!reader.done) {
    terms.push(parseTerm(reader));
    reader.skipSpace();
  }
  return { terms };
}

function quote(value: string): string {
  return `"${value.replace(/[\\"]/gu, (char) => `\\${char}`)}"`;
}

/** A bare word the parser reads back as the same text term. */
function bareTextOk(text: string): boolean {
  return text !== "OR" && text !== "AND" && /^[^\s"\\:<>=-][^\s"\\:<>=]*$/u.test(text);
}

/** A bare value after `field:` the parser reads back unchanged. */
function bareValueOk(value: string): boolean {
  return /^[^\s"\\][^\s"\\]*$/u.test(value);
}

function printNumber(value: number): string {
  return Object.is(value, -0) ? "-0" : String(value);
}

/** One term, canonically. */
export function printTerm(term: SearchTerm): string {
  const sign = term.negated ? "-" : "";
  switch (term.kind) {
    case "text":
      if (term.field === null) return sign + (bareTextOk(term.text) ? term.text : quote(term.text));
      return `${sign}${term.field}:${bareValueOk(term.text) ? term.text : quote(term.text)}`;
    case "match":
      return `${sign}${term.field}:${bareValueOk(term.value) ? term.value : quote(term.value)}`;
    case "compare":
      return `${sign}${term.field}${term.op}${printNumber(term.value)}`;
  }
}

/**
 * Prints a query canonically: terms in order, one space apart, field names lower-case, values
 * quoted only when they must be. `parseQuery(printQuery(q))` deep-equals `q` for every query the
 * parser can produce (finite numbers, non-blank texts and values).
 */
export function printQuery(query: SearchQuery): string {
  return query.terms.map(printTerm).join(" ");
}
