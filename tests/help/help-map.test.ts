import fs from "node:fs";
import path from "node:path";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { fromMarkdown } from "mdast-util-from-markdown";
import { toString } from "mdast-util-to-string";
import type { Nodes } from "mdast";
import { describe, expect, it } from "vitest";
import { GuideMarkdown } from "@/components/help/guide-markdown";
import { resolveGuideLink } from "@/lib/help/guide-links";
import { EMPTY_STATE_HELP, GUIDE_TITLES, HELP_BY_ROUTE, helpForPath, helpHref, type GuideName, type HelpTarget } from "@/lib/help/help-map";
import { listGuides, readGuide } from "@/lib/server/help-guides";
import { headingSlug } from "@/lib/utils/heading-slug";

const GUIDES_DIR = path.join(process.cwd(), "docs", "guides");

/** A guide's headings as the doc-link check reads them: depth, text and GitHub anchor, in order. */
function headingsOf(guide: GuideName): { depth: number; text: string; slug: string }[] {
  const seen = new Map<string, number>();
  const headings: { depth: number; text: string; slug: string }[] = [];
  const visit = (node: Nodes): void => {
    if (node.type === "heading") {
      const text = toString(node);
      headings.push({ depth: node.depth, text, slug: headingSlug(text, seen) });
    }
    if ("children" in node) for (const child of node.children) visit(child);
  };
  visit(fromMarkdown(fs.readFileSync(path.join(GUIDES_DIR, `${guide}.md`), "utf8")));
  return headings;
}

const mapped: [string, HelpTarget][] = [...Object.entries(HELP_BY_ROUTE), ...Object.entries(EMPTY_STATE_HELP).map(([list, target]): [string, HelpTarget] => [`empty ${list}`, target])];

describe("the help map", () => {
  it("lists exactly the guides in docs/guides, each titled by its one # heading", () => {
    const onDisk = fs.readdirSync(GUIDES_DIR).filter((file) => file.endsWith(".md")).map((file) => file.slice(0, -3)).sort();
    expect(Object.keys(GUIDE_TITLES).sort()).toEqual(onDisk);
    expect(listGuides().sort()).toEqual(onDisk);
    for (const guide of listGuides()) {
      const h1s = headingsOf(guide).filter((heading) => heading.depth === 1);
      expect(h1s.map((heading) => heading.text), guide).toEqual([GUIDE_TITLES[guide]]);
    }
  });

  it.each(mapped)("%s → a section that is a heading of its guide", (_where, { guide, section }) => {
    expect(headingsOf(guide).map((heading) => heading.slug)).toContain(section);
  });

  it("picks the longest matching route prefix, and no section for pages no guide covers", () => {
    expect(helpForPath("/")).toEqual(HELP_BY_ROUTE["/"]);
    expect(helpForPath("/experiments")).toEqual(HELP_BY_ROUTE["/experiments"]);
    expect(helpForPath("/experiments/abc/overlay")).toEqual(HELP_BY_ROUTE["/experiments"]);
    expect(helpForPath("/runs/r1")).toEqual(HELP_BY_ROUTE["/runs"]);
    expect(helpForPath("/templatesx")).toBeNull();
    expect(helpForPath("/help/teaching")).toBeNull();
    expect(helpHref("teaching", "writing-a-lesson")).toBe("/help/teaching#writing-a-lesson");
  });
});

describe("guide links", () => {
  it("turns links between guides into help pages and other files into project paths", () => {
    expect(resolveGuideLink("#switching-to-a-real-model")).toEqual({ kind: "anchor", href: "#switching-to-a-real-model" });
    expect(resolveGuideLink("running-a-lab.md")).toEqual({ kind: "guide", href: "/help/running-a-lab" });
    expect(resolveGuideLink("./teaching.md#writing-a-lesson")).toEqual({ kind: "guide", href: "/help/teaching#writing-a-lesson" });
    expect(resolveGuideLink("../statistics.md")).toEqual({ kind: "repo", path: "docs/statistics.md" });
    expect(resolveGuideLink("../sharing-runs.md#bundles")).toEqual({ kind: "repo", path: "docs/sharing-runs.md#bundles" });
    expect(resolveGuideLink("../../README.md#project-layout")).toEqual({ kind: "repo", path: "README.md#project-layout" });
    expect(resolveGuideLink("../../../etc/passwd")).toEqual({ kind: "repo", path: "../../../etc/passwd" });
    expect(resolveGuideLink("https://example.org/x")).toEqual({ kind: "external", href: "https://example.org/x" });
    expect(resolveGuideLink("notes.md")).toEqual({ kind: "repo", path: "docs/guides/notes.md" });
  });
});

describe("a rendered guide", () => {
  it.each(Object.keys(GUIDE_TITLES) as GuideName[])("%s: every heading carries the anchor the doc-link check expects, and one h1", (guide) => {
    const markdown = readGuide(guide);
    expect(markdown).not.toBeNull();
    const html = renderToStaticMarkup(createElement(GuideMarkdown, { markdown: markdown! }));
    const ids = [...html.matchAll(/<h([1-6]) id="([^"]*)"/g)].map((match) => match[2]);
    expect(ids).toEqual(headingsOf(guide).map((heading) => heading.slug));
    expect(html.match(/<h1[ >]/g)).toHaveLength(1);
    // No link leaves the app for a file it does not serve: guide links open help pages.
    for (const [, href] of html.matchAll(/<a href="([^"]*)"/g)) expect(href).toMatch(/^(#|\/help\/|https?:|mailto:)/);
  });

  it("renders GitHub tables as tables, never as rows of pipes", () => {
    const html = renderToStaticMarkup(createElement(GuideMarkdown, { markdown: "| Field | Meaning |\n| --- | --- |\n| `order` | position |\n" }));
    expect(html).toContain("<table");
    expect(html).toMatch(/<th[^>]*>Field<\/th>/);
    expect(html).toMatch(/<td[^>]*><code[^>]*>order<\/code><\/td>/);
    for (const guide of Object.keys(GUIDE_TITLES) as GuideName[]) {
      expect(renderToStaticMarkup(createElement(GuideMarkdown, { markdown: readGuide(guide)! }))).not.toMatch(/\| ?--- ?\|/);
    }
  });

  it("does not read files that are not listed guides", () => {
    expect(readGuide("../architecture")).toBeNull();
    expect(readGuide("no-such-guide")).toBeNull();
  });
});
