/**
 * Which files of docs/ the help pages may show as images, and at which address. Pure: the route
 * that serves them (app/help/images/[...path]/route.ts, through lib/server/help-images.ts) and the
 * guide renderer share these rules, so a guide never links an image the route would refuse.
 *
 * An image is served when its path under docs/ is made only of plain names (letters, digits, `.`,
 * `_`, `-`; no name starting with a dot, so no `..`, no hidden file, no encoded character) and its
 * extension is one of {@link HELP_IMAGE_TYPES}.
 */

/** The URL prefix the docs' images are served under: `/help/images/<path under docs/>`. */
export const HELP_IMAGE_PREFIX = "/help/images";

/** Served image extensions (lower case, no dot) → their Content-Type. Nothing else is served. */
export const HELP_IMAGE_TYPES = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  webp: "image/webp",
  svg: "image/svg+xml",
} as const satisfies Readonly<Record<string, string>>;

/** One path segment: a plain name that does not start with a dot. */
const SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;

/** Folders below docs/ an image may sit in, at most; a deeper path is refused. */
const MAX_DEPTH = 4;

/**
 * The checked path of an image under docs/ (`images/presenter-mode.png`) and its Content-Type,
 * from the URL's path segments after {@link HELP_IMAGE_PREFIX}; `null` when any segment is not a
 * plain name, the path is too deep, or the extension is not an image one. It never touches the
 * disk: the server still resolves the file and checks it stays inside docs/.
 */
export function helpImageFile(segments: readonly string[]): { path: string; contentType: string } | null {
  if (segments.length === 0 || segments.length > MAX_DEPTH + 1) return null;
  if (!segments.every((segment) => SEGMENT.test(segment) && !segment.includes(".."))) return null;
  const name = segments.at(-1) ?? "";
  const dot = name.lastIndexOf(".");
  if (dot <= 0) return null;
  const extension = name.slice(dot + 1);
  if (!Object.hasOwn(HELP_IMAGE_TYPES, extension)) return null;
  return { path: segments.join("/"), contentType: HELP_IMAGE_TYPES[extension as keyof typeof HELP_IMAGE_TYPES] };
}

/**
 * The help-page address of `repoPath`, a file named from the project root (`docs/images/x.png`,
 * as lib/help/guide-links.ts resolves a guide's image), or `null` when it is not under docs/ or
 * {@link helpImageFile} refuses it.
 */
export function helpImageHref(repoPath: string): string | null {
  if (!repoPath.startsWith("docs/")) return null;
  const file = helpImageFile(repoPath.slice("docs/".length).split("/"));
  return file === null ? null : `${HELP_IMAGE_PREFIX}/${file.path}`;
}
