/**
 * `REFLEXION_DATABASE_URL` handling (docs/shared-mode.md): which URLs select the
 * PostgreSQL store, and how to show one without its password.
 */

/** True when `url` is a PostgreSQL connection URL (`postgres://…` or `postgresql://…`). */
export function isPostgresUrl(url: string | undefined): url is string {
  return url !== undefined && /^postgres(ql)?:\/\//i.test(url.trim());
}

/**
 * The URL safe to print or log: the password replaced by `***`, query parameters dropped
 * (they may hold `password=` or `sslkey=`). An unparseable value gives `postgres://(unparseable URL)`,
 * never the raw text.
 */
export function safeDatabaseUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    return "postgres://(unparseable URL)";
  }
  if (parsed.password !== "") parsed.password = "***";
  parsed.search = "";
  parsed.hash = "";
  return parsed.toString();
}
