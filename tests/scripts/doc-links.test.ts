import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { findBrokenLinks, formatBrokenLinks, headingSlug, projectMarkdownFiles } from "../../scripts/doc-links-core";

/** A small project: a README, docs/ with a guide in a subfolder, an image and a folder link. */
function writeFixture(dir: string, files: Record<string, string>): void {
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
}

describe("doc link check", () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "doc-links-"));
    writeFixture(dir, {
      "README.md": [
        "# Project",
        "",
        "See [the guide](docs/guides/teach.md#writing-a-lesson), [decisions](docs/decisions) and ![shot](docs/shot.png).",
        "[Up here](#project) · [site](https://example.org/missing.md) · `[not a link](nowhere.md)`",
        "",
        "```bash",
        "echo '[in code](gone.md)'",
        "```",
      ].join("\n"),
      "docs/shot.png": "png",
      "docs/decisions/0001-x.md": "# X\n",
      "docs/guides/teach.md": "# Teaching\n\n## Writing a lesson\n\nBack to [the README](../../README.md#project).\n",
    });
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("passes a project whose links all resolve, ignoring external links and code", () => {
    const files = projectMarkdownFiles(dir);
    expect(files).toEqual(["README.md", path.join("docs", "decisions", "0001-x.md"), path.join("docs", "guides", "teach.md")]);
    expect(findBrokenLinks(dir, files)).toEqual([]);
  });

  it("flags a link to a missing file with its file and line", () => {
    fs.appendFileSync(path.join(dir, "docs/guides/teach.md"), "\nSee [limits](../limits.md).\n");
    const broken = findBrokenLinks(dir, projectMarkdownFiles(dir));
    expect(broken).toEqual([{ file: path.join("docs", "guides", "teach.md"), line: 7, target: "../limits.md", reason: `no file or folder ${path.join("docs", "limits.md")}` }]);
  });

  it("flags an anchor that names no heading of the target page, and a missing image", () => {
    fs.writeFileSync(path.join(dir, "README.md"), "# Project\n\n[gone](docs/guides/teach.md#authoring) ![x](docs/missing.png) [self](#nope)\n");
    const broken = findBrokenLinks(dir, ["README.md"]);
    expect(broken.map((b) => [b.line, b.target, b.reason])).toEqual([
      [3, "docs/guides/teach.md#authoring", `no heading #authoring in ${path.join("docs", "guides", "teach.md")}`],
      [3, "docs/missing.png", `no file or folder ${path.join("docs", "missing.png")}`],
      [3, "#nope", "no heading #nope in README.md"],
    ]);
  });

  it("finds no broken link in the project's own README.md and docs/", () => {
    const root = path.resolve(__dirname, "../..");
    expect(formatBrokenLinks(findBrokenLinks(root, projectMarkdownFiles(root)))).toBe("");
  });

  it("slugs headings as GitHub does, numbering repeats", () => {
    const seen = new Map<string, number>();
    expect(headingSlug("The paper's own runs", seen)).toBe("the-papers-own-runs");
    expect(headingSlug("Sharing runs: bundles and OpenTelemetry", seen)).toBe("sharing-runs-bundles-and-opentelemetry");
    expect(headingSlug("Measured (bench:scale)", seen)).toBe("measured-benchscale");
    expect(headingSlug("A/B", seen)).toBe("ab");
    expect(headingSlug("A/B", seen)).toBe("ab-1");
  });
});
