import type { Element, ElementContent, Root } from "hast";
import ReactMarkdown, { type Components } from "react-markdown";
import remarkGfm from "remark-gfm";
import { resolveGuideLink } from "@/lib/help/guide-links";
import { headingSlug } from "@/lib/utils/heading-slug";

/** The text of a hast node and its descendants, as GitHub reads a heading's text for its anchor. */
function textOf(node: ElementContent): string {
  if (node.type === "text") return node.value;
  if (node.type === "element") return node.children.map(textOf).join("");
  return "";
}

/**
 * A rehype step that gives every heading GitHub's anchor as its `id` (lib/utils/heading-slug.ts,
 * the rule the doc-link check uses), so `/help/<guide>#section` and the guides' own `#section`
 * links land on the heading.
 */
function rehypeHeadingIds() {
  return (tree: Root) => {
    const seen = new Map<string, number>();
    const visit = (node: Root | Element): void => {
      for (const child of node.children) {
        if (child.type !== "element") continue;
        if (/^h[1-6]$/.test(child.tagName)) child.properties.id = headingSlug(textOf(child), seen);
        else visit(child);
      }
    };
    visit(tree);
  };
}

const codeClass = "rounded bg-slate-100 px-1 py-px font-mono text-[0.9em] text-slate-900";

/**
 * The in-app address of a guide's image, from its path in the project (`docs/images/x.png`), or
 * `null` when the app cannot serve it (lib/server/help-images.ts `servedHelpImageHref`).
 */
export type GuideImageHref = (repoPath: string) => string | null;

/**
 * Element styles for the guides (no typography plugin): headings, lists, code blocks, links and
 * images; `imageHref` says which images the app serves.
 */
const componentsFor = (imageHref: GuideImageHref | undefined): Components => ({
  h1: ({ id, children }) => (
    <h1 id={id} className="scroll-mt-4 text-xl font-semibold text-slate-900">
      {children}
    </h1>
  ),
  h2: ({ id, children }) => (
    <h2 id={id} className="mt-8 scroll-mt-4 border-b border-slate-200 pb-1 text-lg font-semibold text-slate-900">
      {children}
    </h2>
  ),
  h3: ({ id, children }) => (
    <h3 id={id} className="mt-6 scroll-mt-4 text-base font-semibold text-slate-900">
      {children}
    </h3>
  ),
  h4: ({ id, children }) => (
    <h4 id={id} className="mt-4 scroll-mt-4 text-sm font-semibold text-slate-900">
      {children}
    </h4>
  ),
  p: ({ children }) => <p className="mt-3">{children}</p>,
  strong: ({ children }) => <strong className="font-semibold text-slate-900">{children}</strong>,
  em: ({ children }) => <em className="italic">{children}</em>,
  ul: ({ children }) => <ul className="mt-3 list-disc space-y-1 pl-6">{children}</ul>,
  ol: ({ children }) => <ol className="mt-3 list-decimal space-y-1 pl-6">{children}</ol>,
  blockquote: ({ children }) => <blockquote className="mt-3 border-l-4 border-slate-300 pl-4 text-slate-600">{children}</blockquote>,
  code: ({ children }) => <code className={codeClass}>{children}</code>,
  // A fenced block: its <code> drops the inline chip so the block reads as one surface. A long
  // command scrolls sideways, so the block is a Tab stop: the keyboard can scroll it too (WCAG 2.1.1).
  pre: ({ children }) => (
    <pre tabIndex={0} className="mt-3 overflow-x-auto rounded-md border border-slate-200 bg-slate-100 p-3 font-mono text-[13px] leading-snug text-slate-900 [&>code]:bg-transparent [&>code]:p-0">
      {children}
    </pre>
  ),
  // GitHub tables (remark-gfm): a wide table scrolls sideways inside its own focusable box.
  table: ({ children }) => (
    <div tabIndex={0} className="mt-3 overflow-x-auto">
      <table className="w-full border-collapse text-left text-[13px]">{children}</table>
    </div>
  ),
  th: ({ children }) => <th className="border border-slate-300 bg-slate-100 px-2 py-1 font-semibold text-slate-900">{children}</th>,
  td: ({ children }) => <td className="border border-slate-200 px-2 py-1 align-top">{children}</td>,
  a: ({ href, children }) => {
    const link = resolveGuideLink(href ?? "");
    if (link.kind === "repo") {
      return (
        <span>
          {children} (<code className={codeClass} title="A file of the project: open it in the repository">{link.path}</code>)
        </span>
      );
    }
    return (
      // eslint-disable-next-line no-restricted-syntax -- "external" is a link kind here, not the imported-traces task family
      <a href={link.href} className="font-medium text-sky-800 underline" rel={link.kind === "external" ? "noreferrer" : undefined}>
        {children}
      </a>
    );
  },
  // An image the app serves shows with its alt text as the caption (hidden from screen readers,
  // which read the alt text already). Markdown puts an image inside a paragraph or a list item, so
  // the wrapper and caption are spans: a <figure> inside a <p> is invalid HTML. An image the app
  // cannot serve names its file instead of showing a broken image.
  img: ({ src, alt }) => {
    const written = typeof src === "string" ? src : "";
    const link = resolveGuideLink(written);
    const href = link.kind === "repo" && imageHref ? imageHref(link.path) : null;
    if (href !== null) {
      return (
        <span className="mt-3 block">
          {/* eslint-disable-next-line @next/next/no-img-element -- a file of docs/ served as it is (app/help/images): next/image's optimiser would add nothing offline. */}
          <img src={href} alt={alt ?? ""} loading="lazy" decoding="async" className="block h-auto max-w-full rounded-md border border-slate-200" />
          {alt ? (
            <span aria-hidden="true" className="mt-1 block text-xs text-slate-500">
              {alt}
            </span>
          ) : null}
        </span>
      );
    }
    return (
      <span className="text-slate-600">
        [Screenshot: {alt || "image"} — <code className={codeClass}>{link.kind === "repo" ? link.path : written}</code>]
      </span>
    );
  },
});

/**
 * A user guide's Markdown rendered for the help pages: headings carry GitHub's anchors, links to
 * other guides open their help page, links to other project files name the file, GitHub tables
 * render as tables (remark-gfm), images the app serves (`imageHref`) show, the others are named by
 * their file. No raw HTML (react-markdown's default, `skipHtml`). A server component: rendered at
 * build time.
 */
export function GuideMarkdown({ markdown, imageHref }: { markdown: string; imageHref?: GuideImageHref }) {
  return (
    <div className="text-sm leading-relaxed text-slate-700">
      <ReactMarkdown components={componentsFor(imageHref)} remarkPlugins={[remarkGfm]} rehypePlugins={[rehypeHeadingIds]} skipHtml>
        {markdown}
      </ReactMarkdown>
    </div>
  );
}
