import fs from "node:fs";
import path from "node:path";
import { helpImageFile, helpImageHref } from "@/lib/help/guide-images";

// The help pages' images are the files in docs/ themselves, read where `next start` runs (the
// project root), so a screenshot updated in the repository shows in the app without a copy step.

/** The docs folder under the project root (the working directory of `next build` / `next start`). */
const DOCS_DIR = path.join(process.cwd(), "docs");

/** An image of docs/ ready to send: its bytes, Content-Type and last modification time. */
export interface HelpImage {
  body: Buffer;
  contentType: string;
  modified: Date;
}

/**
 * The absolute path of the image at `segments` under docs/, or `null` when the name is refused
 * ({@link helpImageFile}), the file is missing or not a regular file, or its real path (symbolic
 * links followed) lies outside docs/.
 */
function locate(segments: readonly string[], docsDir: string): { file: string; contentType: string } | null {
  const checked = helpImageFile(segments);
  if (checked === null) return null;
  try {
    const root = fs.realpathSync(docsDir);
    const file = fs.realpathSync(path.join(root, ...checked.path.split("/")));
    if (!file.startsWith(root + path.sep)) return null;
    if (!fs.statSync(file).isFile()) return null;
    return { file, contentType: checked.contentType };
  } catch {
    return null;
  }
}

/**
 * The image at `segments` (the URL path after `/help/images`, decoded, e.g. `["images",
 * "presenter-mode.png"]`), or `null` for anything that is not an existing image file inside docs/.
 * Never throws for a bad name; a file that vanishes between the checks and the read is `null` too.
 * `docsDir`: the folder served (the project's docs/; tests pass a temporary one).
 */
export function readHelpImage(segments: readonly string[], docsDir: string = DOCS_DIR): HelpImage | null {
  const found = locate(segments, docsDir);
  if (found === null) return null;
  try {
    return { body: fs.readFileSync(found.file), contentType: found.contentType, modified: fs.statSync(found.file).mtime };
  } catch {
    return null;
  }
}

/**
 * The help-page address of the image `repoPath` (named from the project root, `docs/images/x.png`)
 * when the route will serve it, else `null`: the guide renderer shows a real image only then.
 */
export function servedHelpImageHref(repoPath: string): string | null {
  const href = helpImageHref(repoPath);
  if (href === null) return null;
  return locate(repoPath.slice("docs/".length).split("/"), DOCS_DIR) === null ? null : href;
}
