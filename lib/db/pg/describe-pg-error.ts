/**
 * One line for a database error, with its real cause (docs/shared-mode.md "What happens
 * when … the database goes away"). drizzle wraps every driver error as `DrizzleQueryError`
 * ("Failed query: <sql> params: <values>") with node-postgres' / PGlite's error in `.cause`;
 * pg-boss emits plain objects `{ message, stack, queue, worker }`; Node's connect failures to a
 * host with several addresses are an `AggregateError` whose own message is empty. This module
 * turns all of them into `"<cause message> (while: <short statement>)"` — never the parameters
 * (they may hold user text) and never a password (a connection URL's password in a message becomes
 * `***`, as lib/db/pg/database-url.ts `safeDatabaseUrl` does).
 */

/** Longest statement summary after "while:", in characters. */
const STATEMENT_CHARS = 60;

/**
 * `"<cause message> (while: <short statement>)"` for a wrapped query error, the plain message
 * otherwise; any value works (strings, objects with `message`, AggregateErrors).
 * Example: `newlab injected failure (while: insert into "events")`.
 */
export function describePgError(error: unknown): string {
  const query = queryOf(error);
  const cause = rootCause(error);
  const message = redactUrls(messageOf(cause) || messageOf(error) || "unknown error");
  return query && cause !== error ? `${message} (while: ${shortStatement(query)})` : message;
}

/** Node's / PostgreSQL's codes of "the server cannot be reached or went away" (connection exceptions 08xxx, shutdown 57P0x). */
const UNREACHABLE_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ENOTFOUND", "EAI_AGAIN", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "EPIPE", "57P01", "57P02", "57P03"]);
/** node-postgres' own messages for a lost or never-made connection (they carry no code). */
const UNREACHABLE_MESSAGES = /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|connection is closed/i;

/** True when the error says the database server is unreachable or went away (not a bad query, not a bad password). */
export function isDatabaseUnreachable(error: unknown): boolean {
  for (const current of chain(error)) {
    const code = stringField(current, "code");
    if (code && (UNREACHABLE_CODES.has(code) || code.startsWith("08"))) return true;
    const message = messageOf(current);
    if (message && UNREACHABLE_MESSAGES.test(message)) return true;
    const errors = field(current, "errors");
    if (Array.isArray(errors) && errors.some((inner) => isDatabaseUnreachable(inner))) return true;
  }
  return false;
}

/**
 * The statement's first write and its table (`insert into "events"`, `update "leases"`,
 * `delete from "x"`; inside a `WITH` too), else the table a select reads first
 * (`select from "runs"`), else its first {@link STATEMENT_CHARS} characters.
 */
export function shortStatement(query: string): string {
  const flat = query.replace(/\s+/g, " ").trim();
  const table = String.raw`("?[\w$]+"?(?:\."?[\w$]+"?)?)`;
  const writes = (
    [
      ["insert into", String.raw`\binsert into ${table}`],
      ["update", String.raw`\bupdate ${table} set\b`],
      ["delete from", String.raw`\bdelete from ${table}`],
    ] as const
  )
    .map(([kind, pattern]) => ({ kind, match: new RegExp(pattern, "i").exec(flat) }))
    .flatMap(({ kind, match }) => (match ? [{ kind, index: match.index, table: match[1] ?? "" }] : []))
    .sort((a, b) => a.index - b.index);
  const first = writes[0];
  if (first) return `${first.kind} ${first.table}`;
  const from = new RegExp(String.raw`^select\b.*?\bfrom ${table}`, "i").exec(flat);
  if (from) return `select from ${from[1]}`;
  return flat.length > STATEMENT_CHARS ? `${flat.slice(0, STATEMENT_CHARS)}…` : flat;
}

/** The errors from `error` down its `cause` chain (at most 6). */
function chain(error: unknown): unknown[] {
  const out: unknown[] = [];
  for (let current: unknown = error; current !== undefined && current !== null && out.length < 6; current = field(current, "cause")) out.push(current);
  return out;
}

/** The innermost error of the cause chain that has a message of its own. */
function rootCause(error: unknown): unknown {
  const withMessage = chain(error).filter((current) => messageOf(current) !== "");
  return withMessage[withMessage.length - 1] ?? error;
}

/** The SQL of the outermost wrapped query error in the chain (drizzle's `query`), if any. */
function queryOf(error: unknown): string | null {
  for (const current of chain(error)) {
    const query = stringField(current, "query");
    if (query) return query;
  }
  return null;
}

/** An error's own message; an AggregateError's inner messages (distinct, joined by "; "). */
function messageOf(value: unknown): string {
  if (typeof value === "string") return value;
  const message = stringField(value, "message") ?? "";
  if (message !== "") return message;
  const errors = field(value, "errors");
  if (Array.isArray(errors)) return [...new Set(errors.map(messageOf).filter((text) => text !== ""))].join("; ");
  const code = stringField(value, "code");
  return code ?? "";
}

/**
 * `text` with the password of any connection URL in it (`scheme://user:secret@…`, `password=…`)
 * replaced by `***` (the placeholder `user:password@` of a usage message is left as it is).
 */
function redactUrls(text: string): string {
  return text
    .replace(/(\b[a-z][\w+.-]*:\/\/[^\s:@/'"]*:)([^\s@'"]+)@/gi, (whole: string, head: string, secret: string) => (secret === "password" ? whole : `${head}***@`)).replace(/([?&]password=)[^&\s'"]+/gi, "$1***");
}

function field(value: unknown, name: string): unknown {
  return value !== null && typeof value === "object" && name in value ? Reflect.get(value, name) : undefined;
}

function stringField(value: unknown, name: string): string | null {
  const found = field(value, name);
  return typeof found === "string" ? found : null;
}
