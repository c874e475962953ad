/**
 * `npm run lint:docs` (part of `npm run lint`): fails (exit 1) when a relative link or image in
 * README.md or docs/**\/*.md points at a file that does not exist, or at a heading the target page
 * does not have. See scripts/doc-links-core.ts.
 */
import { findBrokenLinks, formatBrokenLinks, projectMarkdownFiles } from "./doc-links-core";

function main(): number {
  const root = process.cwd();
  const files = projectMarkdownFiles(root);
  const broken = findBrokenLinks(root, files);
  if (broken.length === 0) {
    console.log(`lint:docs: every relative link in ${files.length} Markdown files resolves`);
    return 0;
  }
  console.error(formatBrokenLinks(broken));
  console.error(`lint:docs: ${broken.length} broken link(s); fix the path or the heading it names.`);
  return 1;
}

try {
  process.exit(main());
} catch (error: unknown) {
  console.error(`lint:docs: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(2);
}
