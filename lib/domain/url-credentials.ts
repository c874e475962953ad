/**
 * User names and passwords written into URLs (`https://me:secret@host/v1`). A provider base URL
 * with credentials is refused at start-up (lib/llm/provider-registry.ts), and as a second line of
 * defence every error text stored in a run's log has them removed: a log (and every export of it)
 * must never hold a password.
 */

/** `scheme://` followed by user-info and `@`: the scheme bounded (no backtracking over long text), the user-info stopping at the first `/ ? # @` or white space. */
const URL_USER_INFO = /\b([a-z][a-z0-9+.-]{0,31}:\/\/)[^\s/?#@]*@/gi;

/**
 * `text` with the user-info part (`user:password@`) of every URL in it removed, the rest of
 * each URL kept: `see https://me:pw@host/v1` → `see https://host/v1`. Linear in `text`.
 */
export function stripUrlCredentials(text: string): string {
  return text.replace(URL_USER_INFO, "$1");
}

/** True when `url` (a URL or any text) holds a user name or password in a URL. */
export function hasUrlCredentials(url: string): boolean {
  return new RegExp(URL_USER_INFO.source, "i").test(url);
}
