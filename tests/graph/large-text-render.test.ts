import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { foldRun } from "@/lib/domain/fold-run";
import { deriveRunGraph, type RunGraphViewNode } from "@/lib/graph";
import { COLLAPSE_CHARS, NODE_TEXT_CHARS, base64Bytes, isLongText, nodeText, segmentText, textPreview, withPlaceholders } from "@/lib/graph/text-preview";
import { LongText } from "@/components/ui/long-text";
import { TextBlock } from "@/components/inspector/blocks";
import { twoTrialReflexionRun } from "./fixtures";
import { renderGraphNode as renderNode } from "../helpers/render-node";

/**
 * Large text in the UI. Long observations, completions and
 * prompts start collapsed with "show more"; base64 and data URIs appear as
 * placeholders with their size; model text is never rendered as HTML. Also the
 * step markers on the graph: reasoning taken out, ignored text,
 * a cut-off completion, a reflection stored with a warning.
 */

const PNG_BASE64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==".repeat(40);
const DATA_URI = `data:image/png;base64,${PNG_BASE64}`;
const HOSTILE = `<img src=x onerror="alert(1)"><script>alert(2)</script><b>bold</b>`;


describe("text previews (pure)", () => {
  it("finds data URIs and long base64 runs, with their decoded size, and leaves long words alone", () => {
    const segments = segmentText(`before ${DATA_URI} middle ${"AQIDBA9+".repeat(40)} after ${"a".repeat(300)}`);
    expect(segments.map((s) => s.kind)).toEqual(["text", "binary", "text", "binary", "text"]);
    const [, uri, , bare] = segments;
    expect(uri).toMatchObject({ kind: "binary", label: "data URI image/png", bytes: base64Bytes(PNG_BASE64), chars: DATA_URI.length });
    expect(bare).toMatchObject({ kind: "binary", label: "base64", bytes: 240 });
    expect(segments.at(-1)).toEqual({ kind: "text", text: ` after ${"a".repeat(300)}` });
    expect(withPlaceholders(`x ${DATA_URI} y`)).toMatch(/^x \[data URI image\/png · \d+\.\d KB\] y$/);
  });

  it("collapses by length or by line count, and previews at a line end", () => {
    expect(isLongText("short")).toBe(false);
    expect(isLongText("x".repeat(COLLAPSE_CHARS + 1))).toBe(true);
    expect(isLongText("line\n".repeat(80))).toBe(true);
    const text = Array.from({ length: 300 }, (_, i) => `Line ${i} of a very long Wikipedia page.`).join("\n");
    const { preview, hiddenChars } = textPreview(text);
    expect(preview.split("\n")).toHaveLength(20);
    expect(preview.endsWith("page.")).toBe(true);
    expect(preview.length + hiddenChars).toBe(text.length);
  });

  it("caps what a graph node shows", () => {
    const shown = nodeText(`${"word ".repeat(5_000)}${DATA_URI}`);
    expect(shown.length).toBeLessThanOrEqual(NODE_TEXT_CHARS + 1);
    expect(nodeText(`see ${DATA_URI}`)).toMatch(/^see \[data URI image\/png · /);
  });
});

describe("large and hostile text in the inspector", () => {
  it("starts a long observation collapsed with a keyboard-reachable Show more, and never includes the hidden part", () => {
    const observation = `${"Paragraph of a long page. ".repeat(900)}THE-END-MARKER`;
    const html = renderToStaticMarkup(createElement(TextBlock, null, observation));
    expect(html).toContain('data-collapsed="true"');
    expect(html).toMatch(/<button type="button" data-testid="long-text-toggle" aria-expanded="false"[^>]*>Show more \([\d,]+ more characters of [\d,]+\)<\/button>/);
    expect(html).not.toContain("THE-END-MARKER");
    expect(html.length).toBeLessThan(observation.length / 4);
  });

  it("shows a data URI as a placeholder with its size", () => {
    const html = renderToStaticMarkup(createElement(LongText, { text: `Screenshot: ${DATA_URI}` }));
    expect(html).toContain('data-testid="binary-placeholder"');
    expect(html).toMatch(/\[data URI image\/png · [\d.]+ KB\]/);
    expect(html).not.toContain(PNG_BASE64.slice(0, 60));
  });

  it("renders model text with HTML in it as text, never as elements", () => {
    const html = renderToStaticMarkup(createElement(TextBlock, null, HOSTILE));
    expect(html).not.toContain("<img");
    expect(html).not.toContain("<script");
    expect(html).not.toContain("<b>");
    expect(html).toContain("&lt;img src=x onerror=&quot;alert(1)&quot;&gt;");
  });
});

describe("run graph nodes with real-model markers and large text", () => {
  const run = twoTrialReflexionRun();
  for (const event of run.log.events) {
    if (event.type === "step-thought" && event.data.trial === 1 && event.data.step === 1) {
      event.data.reasoning = "<think>Arthur's was first, surely.</think>";
      event.data.text = `${HOSTILE} I need to search both magazines.`;
    }
    if (event.type === "step-action" && event.data.trial === 1 && event.data.step === 1) {
      event.data.ignored = "Observation 1: (made up by the model)";
      event.data.truncated = true;
    }
    if (event.type === "step-observation" && event.data.trial === 1 && event.data.step === 1) event.data.text = `${"Arthur's Magazine was a periodical. ".repeat(700)}${DATA_URI}`;
    if (event.type === "reflection-end") event.data.warning = "the reflection repeats one already in memory";
  }
  const graph = deriveRunGraph(foldRun(run.log.events));
  const node = (type: RunGraphViewNode["type"], trial: number, step?: number) =>
    graph.nodes.find((n) => n.type === type && n.data.trial === trial && (step === undefined || ("step" in n.data && n.data.step === step)))!;

  it("marks the thought whose reasoning was taken out, and escapes its HTML", () => {
    const html = renderNode(node("thought", 1, 1));
    expect(html).toContain('data-testid="reasoning-badge"');
    expect(html).not.toContain("<img");
    expect(html).toContain("&lt;script&gt;");
    expect(renderNode(node("thought", 1, 2))).not.toContain("reasoning-badge");
  });

  it("marks an action with ignored text and one from a cut-off completion", () => {
    const html = renderNode(node("action", 1, 1));
    expect(html).toContain('data-testid="ignored-badge"');
    expect(html).toContain("(made up by the model)");
    expect(html).toContain('data-testid="truncated-badge"');
    expect(renderNode(node("action", 2, 1))).not.toContain("ignored-badge");
  });

  it("keeps a 25,000-character observation out of its node and shows the data URI as a placeholder", () => {
    const html = renderNode(node("observation", 1, 1));
    expect(html.length).toBeLessThan(6_000);
    expect(html).not.toContain(PNG_BASE64.slice(0, 60));
  });

  it("flags a reflection stored with a warning", () => {
    const html = renderNode(node("reflection", 1));
    expect(html).toContain('data-testid="reflection-warning-badge"');
    expect(html).toContain("repeats one already in memory");
  });
});
