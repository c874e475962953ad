import { arrayElementLines, jsonErrorLine, lineOfOffset } from "@/lib/importers/json-lines";
import type { TraceProblem } from "./external-trace";

/**
 * Reading the records of a trace export that may be one JSON document (an object or an array of
 * objects) or JSON lines (one object per line), with the 1-based line each record starts on so a
 * problem can name it. Python writers (Inspect, pydantic with `ser_json_inf_nan="constants"`) emit
 * bare `NaN` / `Infinity` tokens that `JSON.parse` rejects; {@link parseLenientJson} reads them as null.
 */

/** One record of an export and where it starts. */
export interface JsonRecord {
  /** 1-based line of the record's first character. */
  line: number;
  value: unknown;
}

/** What {@link readJsonRecords} found: records, per-line problems, and whether the file was JSON lines. */
export interface JsonRecords {
  records: JsonRecord[];
  problems: TraceProblem[];
  jsonLines: boolean;
}

/** A plain JSON object (not an array, not null). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `value` when it is a non-empty string, else null. */
export function str(value: unknown): string | null {
  return typeof value === "string" && value.length > 0 ? value : null;
}

/** `value` when it is a finite number, else null. */
export function num(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

/** `value` when it is an array, else []. */
export function arr(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/**
 * Replaces the bare tokens `NaN`, `Infinity` and `-Infinity` that occur outside strings with `null`
 * (a small scanner: string literals and escapes respected). Returns the text unchanged when it has none.
 */
export function nullNonFiniteTokens(text: string): string {
  if (!/NaN|Infinity/.test(text)) return text;
  let out = "";
  let inString = false;
  let last = 0;
  for (let i = 0; i < text.length; i += 1) {
    const ch = text[i];
    if (inString) {
      if (ch === "\\") i += 1;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') {
      inString = true;
      continue;
    }
    const token = text.startsWith("-Infinity", i) ? "-Infinity" : text.startsWith("Infinity", i) ? "Infinity" : text.startsWith("NaN", i) ? "NaN" : null;
    if (token) {
      out += text.slice(last, i) + "null";
      i += token.length - 1;
      last = i + 1;
    }
  }
  return out + text.slice(last);
}

/**
 * `JSON.parse`, retried with {@link nullNonFiniteTokens} when the first attempt fails.
 * @throws SyntaxError from the retry when the text is not JSON even then.
 */
export function parseLenientJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const cleaned = nullNonFiniteTokens(text);
    if (cleaned === text) throw error;
    return JSON.parse(cleaned);
  }
}

/** A parse error's message with the line it points at, for a problem line. */
function syntaxMessage(text: string, error: unknown, baseLine: number): { line: number; message: string } {
  const line = jsonErrorLine(text, error);
  const detail = error instanceof Error ? error.message : String(error);
  return { line: baseLine + (line ?? 1) - 1, message: `not valid JSON (${detail})` };
}

/**
 * Reads `text` as one JSON document or as JSON lines.
 *
 * - A top-level array yields one record per element (line = where the element starts).
 * - A top-level object yields one record.
 * - Otherwise, when the first non-blank line parses on its own, the text is read as JSON lines:
 *   one record per non-blank line; a line that does not parse is a problem (`line N`) and the rest go on.
 * - Text that is neither yields no records and one problem.
 */
export function readJsonRecords(text: string): JsonRecords {
  const trimmed = text.replace(/^\uFEFF/, "");
  const firstLineEnd = trimmed.indexOf("\n");
  const firstLine = (firstLineEnd < 0 ? trimmed : trimmed.slice(0, firstLineEnd)).trim();
  const looksLikeLines = firstLineEnd >= 0 && firstLine.startsWith("{") && canParse(firstLine) && trimmed.slice(firstLineEnd).trim().length > 0;
  if (!looksLikeLines) {
    try {
      const value = parseLenientJson(trimmed);
      if (Array.isArray(value)) {
        const lines = arrayElementLines(trimmed);
        return { records: value.map((element, index) => ({ line: lines[index] ?? 1, value: element })), problems: [], jsonLines: false };
      }
      return { records: [{ line: firstContentLine(trimmed), value }], problems: [], jsonLines: false };
    } catch (error) {
      if (!firstLine.startsWith("{")) {
        const { line, message } = syntaxMessage(trimmed, error, 1);
        return { records: [], problems: [{ where: `line ${line}`, message: `${message}; expected a JSON object, an array of objects, or JSON lines` }], jsonLines: false };
      }
    }
  }
  const records: JsonRecord[] = [];
  const problems: TraceProblem[] = [];
  const lines = trimmed.split("\n");
  for (let index = 0; index < lines.length; index += 1) {
    const line = index + 1;
    const body = (lines[index] ?? "").trim();
    if (body.length === 0) continue;
    try {
      records.push({ line, value: parseLenientJson(body) });
    } catch (error) {
      problems.push({ where: `line ${line}`, message: syntaxMessage(body, error, line).message });
    }
  }
  return { records, problems, jsonLines: true };
}

function canParse(text: string): boolean {
  try {
    parseLenientJson(text);
    return true;
  } catch {
    return false;
  }
}

function firstContentLine(text: string): number {
  const match = /\S/.exec(text);
  return match ? lineOfOffset(text, match.index) : 1;
}
