import { isGuideName, helpHref } from "./help-map";

/**
 * Where a link in a user guide leads inside the app:
 * - `anchor`: a heading on the same page (`#section`), kept as it is;
 * - `external`: a URL with a scheme (`https:`, `mailto:` …), kept as it is;
 * - `guide`: another user guide, as its help page (`/help/<guide>#section`);
 * - `repo`: any other file of the project (a reference page, an image, a decision record), as its
 *   path from the project root (`docs/statistics.md#…`): a link to one names the file to open in
 *   the repository; an image of docs/ is shown from `/help/images` (lib/help/guide-images.ts).
 */
export type GuideLink = { kind: "anchor" | "external" | "guide"; href: string } | { kind: "repo"; path: string };

/**
 * Resolves `target`, a link as written in docs/guides/<guide>.md (relative to docs/guides/), to
 * {@link GuideLink}. A path that climbs above the project root is kept as written, as a `repo` path.
 */
export function resolveGuideLink(target: string): GuideLink {
  if (target.startsWith("#")) return { kind: "anchor", href: target };
  if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("//")) return { kind: "external", href: target };
  const hashAt = target.indexOf("#");
  const filePart = hashAt === -1 ? target : target.slice(0, hashAt);
  const fragment = hashAt === -1 ? "" : target.slice(hashAt + 1);
  const parts = ["docs", "guides"];
  for (const segment of filePart.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") {
      if (parts.length === 0) return { kind: "repo", path: target };
      parts.pop();
    } else parts.push(segment);
  }
  const resolved = parts.join("/");
  const guide = /^docs\/guides\/([^/]+)\.md$/.exec(resolved)?.[1];
  if (guide && isGuideName(guide)) return { kind: "guide", href: helpHref(guide, fragment || undefined) };
  return { kind: "repo", path: fragment ? `${resolved}#${fragment}` : resolved };
}
