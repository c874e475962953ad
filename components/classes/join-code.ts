/**
 * A join code as the server knows it: what a student types (or a link carries) upper-cased and
 * stripped of spaces and dashes ("ab3-k9q" → "AB3K9Q"). Pure; usable on the server and in the browser.
 */
export function normaliseJoinCode(typed: string): string {
  return typed.toUpperCase().replace(/[\s-]+/g, "");
}
