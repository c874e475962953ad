/**
 * The anchor GitHub gives a Markdown heading: lower case, punctuation other than `-` and `_`
 * dropped, each space a `-`. A repeated heading on the same page gets `-1`, `-2` … (github-slugger's
 * rule). `seen` counts the slugs handed out so far on one page: pass one Map per page, in heading
 * order. Shared by the doc-link check (scripts/doc-links-core.ts) and the in-app help pages, so an
 * anchor the check accepts is one the app renders.
 */
export function headingSlug(text: string, seen: Map<string, number>): string {
  const base = text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
    .replace(/ /g, "-");
  const count = seen.get(base) ?? 0;
  seen.set(base, count + 1);
  return count === 0 ? base : `${base}-${count}`;
}
