import { customType } from "drizzle-orm/pg-core";

/**
 * A `\u0000` escape in JSON text that is not itself escaped: preceded by an even number of
 * backslashes (so the text `\\u0000`, a backslash and "u0000", is left alone).
 */
const NUL_ESCAPE = /(?<!\\)((?:\\\\)*)\\u0000/g;

/**
 * JSON text for a PostgreSQL `jsonb` value: `JSON.stringify(value)` with every NUL character
 * (U+0000) in a string replaced by U+FFFD, the replacement character. PostgreSQL's `jsonb` cannot
 * store U+0000 ("unsupported Unicode escape sequence", SQLSTATE 22P05), and events carry text from
 * outside — a model's completion, a program's output in a code trial — so one NUL would make the
 * append fail and the run stop. SQLite keeps NUL as it is; this is the one place the two stores differ.
 */
export function jsonbText(value: unknown): string {
  const json = JSON.stringify(value);
  return json.includes("\\u0000") ? json.replace(NUL_ESCAPE, "$1\\ufffd") : json;
}

/**
 * Drizzle's `jsonb` column with {@link jsonbText} on the way in; the same SQL type, so migrations
 * do not change. Values come back parsed (node-postgres and PGlite parse `jsonb`), or are parsed here.
 */
export const jsonb = customType<{ data: unknown; driverData: string }>({
  dataType() {
    return "jsonb";
  },
  toDriver(value) {
    return jsonbText(value);
  },
  fromDriver(value) {
    if (typeof value !== "string") return value;
    try {
      return JSON.parse(value);
    } catch {
      return value;
    }
  },
});
