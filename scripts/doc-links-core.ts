/**
 * The checks behind `npm run lint:docs`: every relative link and image in the project's Markdown
 * (README.md and docs/**\/*.md) must point at a file or folder that exists, and a `#anchor` on a
 * Markdown target (or on the same page) must name one of that page's headings. Links are read
 * with mdast-util-from-markdown (CommonMark), so code spans and fenced blocks are not mistaken for
 * links. External links (`https:`, `mailto:` …) are not fetched.
 */
import fs from "node:fs";
import path from "node:path";
import { fromMarkdown } from "mdast-util-from-markdown";
import { toString } from "mdast-util-to-string";
import type { Nodes } from "mdast";
import { headingSlug } from "../lib/utils/heading-slug";

export { headingSlug };

/** One link that does not resolve: the Markdown file (relative to the root), its 1-based line, the target as written and why. */
export interface BrokenLink {
  file: string;
  line: number;
  target: string;
  reason: string;
}

interface ParsedPage {
  links: { target: string; line: number }[];
  anchors: Set<string>;
}

function parsePage(markdown: string): ParsedPage {
  const links: ParsedPage["links"] = [];
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  const visit = (node: Nodes): void => {
    if (node.type === "link" || node.type === "image" || node.type === "definition") {
      links.push({ target: node.url, line: node.position?.start.line ?? 0 });
    }
    if (node.type === "heading") anchors.add(headingSlug(toString(node), seen));
    if ("children" in node) for (const child of node.children) visit(child);
  };
  visit(fromMarkdown(markdown));
  return { links, anchors };
}

/** True for links this check leaves alone: a scheme (`https:`, `mailto:` …) or a protocol-relative `//host`. */
function isExternal(target: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("//");
}

/**
 * Checks the links of `files` (paths relative to `root`). A link's file part is resolved against
 * the linking file's folder (or `root` when it starts with `/`); a `#fragment` is checked against
 * the headings of the target when that is a Markdown file.
 * @returns the broken links, in file order; empty when every link resolves.
 */
export function findBrokenLinks(root: string, files: readonly string[]): BrokenLink[] {
  const pages = new Map<string, ParsedPage>();
  const pageOf = (absolute: string): ParsedPage => {
    let page = pages.get(absolute);
    if (!page) {
      page = parsePage(fs.readFileSync(absolute, "utf8"));
      pages.set(absolute, page);
    }
    return page;
  };
  const broken: BrokenLink[] = [];
  for (const file of files) {
    const absoluteFile = path.resolve(root, file);
    for (const { target, line } of pageOf(absoluteFile).links) {
      if (target === "" || isExternal(target)) continue;
      const hashAt = target.indexOf("#");
      const filePart = (hashAt === -1 ? target : target.slice(0, hashAt)).replace(/\?.*$/, "");
      const fragment = hashAt === -1 ? null : target.slice(hashAt + 1);
      let decoded: string;
      try {
        decoded = decodeURIComponent(filePart);
      } catch {
        broken.push({ file, line, target, reason: "the link is not valid URL encoding" });
        continue;
      }
      const resolved = decoded === "" ? absoluteFile : decoded.startsWith("/") ? path.join(root, decoded) : path.resolve(path.dirname(absoluteFile), decoded);
      if (!fs.existsSync(resolved)) {
        broken.push({ file, line, target, reason: `no file or folder ${path.relative(root, resolved) || "."}` });
        continue;
      }
      if (fragment && resolved.endsWith(".md") && fs.statSync(resolved).isFile()) {
        const anchor = decodeURIComponent(fragment).toLowerCase();
        if (!pageOf(resolved).anchors.has(anchor)) {
          broken.push({ file, line, target, reason: `no heading #${anchor} in ${path.relative(root, resolved)}` });
        }
      }
    }
  }
  return broken;
}

/** README.md and every `.md` under docs/, relative to `root`, sorted; a missing docs/ folder is no error. */
export function projectMarkdownFiles(root: string): string[] {
  const files = fs.existsSync(path.join(root, "README.md")) ? ["README.md"] : [];
  const docs = path.join(root, "docs");
  if (fs.existsSync(docs)) {
    for (const entry of fs.readdirSync(docs, { recursive: true, encoding: "utf8" })) {
      if (entry.endsWith(".md")) files.push(path.join("docs", entry));
    }
  }
  return files.sort();
}

/** One line per broken link, `file:line: target — reason`, for the terminal. */
export function formatBrokenLinks(broken: readonly BrokenLink[]): string {
  return broken.map((b) => `${b.file}:${b.line}: ${b.target} — ${b.reason}`).join("\n");
}
