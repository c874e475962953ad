import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { afterAll, describe, expect, it } from "vitest";
import { GET } from "@/app/help/images/[...path]/route";
import { GuideMarkdown } from "@/components/help/guide-markdown";
import { helpImageFile, helpImageHref } from "@/lib/help/guide-images";
import { listGuides, readGuide } from "@/lib/server/help-guides";
import { readHelpImage, servedHelpImageHref } from "@/lib/server/help-images";

const DOCS = path.join(process.cwd(), "docs");

/** The route's answer for the URL path after `/help/images`, split as Next passes a catch-all. */
function get(segments: string[], headers: Record<string, string> = {}): Promise<Response> {
  const request = new Request(`http://127.0.0.1/help/images/${segments.map(encodeURIComponent).join("/")}`, { headers });
  return GET(request, { params: Promise.resolve({ path: segments }) });
}

describe("GET /help/images/<path under docs/>", () => {
  it("serves a png of docs/images byte for byte, as image/png, nosniff, cached, with an ETag", async () => {
    const response = await get(["images", "presenter-mode.png"]);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/png");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("cache-control")).toMatch(/max-age=\d+/);
    const body = Buffer.from(await response.arrayBuffer());
    expect(body.equals(fs.readFileSync(path.join(DOCS, "images", "presenter-mode.png")))).toBe(true);
    expect(body.subarray(1, 4).toString("latin1")).toBe("PNG");

    const again = await get(["images", "presenter-mode.png"], { "if-none-match": response.headers.get("etag")! });
    expect(again.status).toBe(304);
  });

  it("serves a screenshot at the top of docs/, and an SVG under a policy that forbids scripts", async () => {
    expect((await get(["screenshot.png"])).headers.get("content-type")).toBe("image/png");
    const svg = await get(["images", "experiment-bands.svg"]);
    expect(svg.status).toBe(200);
    expect(svg.headers.get("content-type")).toBe("image/svg+xml");
    const policy = svg.headers.get("content-security-policy") ?? "";
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("sandbox");
    expect(policy).not.toMatch(/script-src/);
  });

  it.each([
    ["a ../ traversal to a guide", ["..", "docs", "guides", "teaching.md"]],
    ["a ../ traversal out of the project to an image-looking name", ["images", "..", "..", "public", "icon.svg"]],
    ["an encoded traversal left encoded", ["%2e%2e", "package.json"]],
    ["an encoded slash inside one segment", ["images%2f..%2f..%2fpackage.json"]],
    ["a decoded traversal inside one segment", ["../package.json"]],
    ["a Markdown file of docs/", ["guides", "teaching.md"]],
    ["a JSON file of docs/", ["reflexion.check.schema.json"]],
    ["an image extension in capitals", ["images", "PRESENTER-MODE.PNG"]],
    ["a hidden file", ["images", ".presenter-mode.png"]],
    ["a missing image", ["images", "no-such-screenshot.png"]],
    ["a folder named like an image", ["images.png"]],
    ["nothing", []],
  ])("answers 404 for %s", async (_label, segments) => {
    const response = await get(segments);
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
  });

  describe("a symbolic link in the served folder that points outside it", () => {
    // A temporary docs folder, so the test never writes into the repository's docs/.
    const sandbox = fs.mkdtempSync(path.join(os.tmpdir(), "rp-help-images-"));
    const docs = path.join(sandbox, "docs");
    const secret = path.join(sandbox, "secret.png");
    fs.mkdirSync(path.join(docs, "images"), { recursive: true });
    fs.copyFileSync(path.join(DOCS, "images", "presenter-mode.png"), secret);
    fs.copyFileSync(path.join(DOCS, "images", "presenter-mode.png"), path.join(docs, "images", "inside.png"));
    fs.symlinkSync(secret, path.join(docs, "images", "escape.png"));
    afterAll(() => fs.rmSync(sandbox, { recursive: true, force: true }));

    it("is refused although it names an existing png, while a real file beside it is served", () => {
      expect(fs.statSync(path.join(docs, "images", "escape.png")).isFile()).toBe(true);
      expect(readHelpImage(["images", "escape.png"], docs)).toBeNull();
      expect(readHelpImage(["images", "inside.png"], docs)?.contentType).toBe("image/png");
    });
  });
});

describe("the guides' images", () => {
  it("map a docs/ path to /help/images only for a plain image name", () => {
    expect(helpImageHref("docs/images/presenter-mode.png")).toBe("/help/images/images/presenter-mode.png");
    expect(helpImageHref("docs/screenshot.png")).toBe("/help/images/screenshot.png");
    expect(helpImageHref("public/icon.svg")).toBeNull();
    expect(helpImageHref("docs/guides/teaching.md")).toBeNull();
    expect(helpImageFile(["images", "a.webp"])).toEqual({ path: "images/a.webp", contentType: "image/webp" });
    expect(helpImageFile(["images", "a.gif"])).toBeNull();
  });

  it("render as a lazy <img> with the alt text when the app serves the file, as a named file when it does not", () => {
    const markdown = "![The presenter view](../images/presenter-mode.png)\n\n![Gone](../images/no-such-screenshot.png)\n";
    const html = renderToStaticMarkup(createElement(GuideMarkdown, { markdown, imageHref: servedHelpImageHref }));
    expect(html).toMatch(/<img src="\/help\/images\/images\/presenter-mode\.png" alt="The presenter view" loading="lazy"/);
    expect(html).toContain("[Screenshot: Gone — <code");
    expect(html).toContain("docs/images/no-such-screenshot.png");
    expect(html).not.toContain('src="/help/images/images/no-such-screenshot.png"');
  });

  it.each(listGuides())("include at least one screenshot the help page %s shows", (guide) => {
    const html = renderToStaticMarkup(createElement(GuideMarkdown, { markdown: readGuide(guide)!, imageHref: servedHelpImageHref }));
    const sources = [...html.matchAll(/<img src="([^"]+)" alt="([^"]*)"/g)];
    expect(sources.length).toBeGreaterThan(0);
    for (const [, src, alt] of sources) {
      expect(src).toMatch(/^\/help\/images\//);
      expect(alt?.length).toBeGreaterThan(20);
    }
    expect(html).not.toContain("[Screenshot:");
  });
});
