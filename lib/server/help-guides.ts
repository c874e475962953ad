import fs from "node:fs";
import path from "node:path";
import { GUIDE_TITLES, isGuideName, type GuideName } from "@/lib/help/help-map";

// The second server module app pages may import (eslint.config.mjs): the help pages render the
// guides at build time (force-static), so the Markdown is read once by `next build`, never by a
// browser. Never import it from a "use client" file.

/** The folder of the user guides, under the project root (the working directory of `next build` / `next start`). */
const GUIDES_DIR = path.join(process.cwd(), "docs", "guides");

/**
 * The user guides that exist on disk and are listed in {@link GUIDE_TITLES}, in the map's order.
 * A `.md` file in docs/guides that the map does not list is not served (its title and help
 * sections would be unknown); tests/help/help-map.test.ts fails when the two disagree.
 */
export function listGuides(): GuideName[] {
  const onDisk = new Set(fs.readdirSync(GUIDES_DIR).filter((file) => file.endsWith(".md")).map((file) => file.slice(0, -3)));
  return (Object.keys(GUIDE_TITLES) as GuideName[]).filter((name) => onDisk.has(name));
}

/**
 * The Markdown of guide `name` (docs/guides/<name>.md), or `null` when `name` is not a listed
 * guide or its file is missing. The name is checked against the map before any path is built,
 * so no request can read another file.
 */
export function readGuide(name: string): string | null {
  if (!isGuideName(name)) return null;
  try {
    return fs.readFileSync(path.join(GUIDES_DIR, `${name}.md`), "utf8");
  } catch {
    return null;
  }
}
