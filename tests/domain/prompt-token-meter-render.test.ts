import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { meterLevel, meterText, PromptTokenMeter, type ContextUse } from "@/components/inspector/prompt-token-meter";

/** The inspector's token meter: the prompt's count against the model's window, warning from 80 %. */

const use = (promptTokens: number, window: number, exact = true): ContextUse => ({ promptTokens, window, tokenizer: exact ? "o200k_base" : "o200k_base+25%", exact });
const textOf = (html: string) => html.replace(/<[^>]+>/g, "").replace(/&#x27;/g, "'");

describe("PromptTokenMeter", () => {
  it("shows the count, the window and the share; ~ when the count is an estimate", () => {
    expect(meterText(use(3_912, 128_000))).toBe("3,912 / 128,000 tokens (3%)");
    expect(meterText(use(900, 128_000, false))).toBe("~900 / 128,000 tokens (<1%)");
    const html = renderToStaticMarkup(createElement(PromptTokenMeter, { contextUse: use(3_912, 128_000) }));
    expect(html).toContain('data-testid="prompt-token-meter"');
    expect(html).toContain('data-level="ok"');
    expect(textOf(html)).toBe("3,912 / 128,000 tokens (3%)");
  });

  it("warns from 80 % of the window and marks a prompt over it", () => {
    expect(meterLevel(use(3_276, 4_097))).toBe("ok");
    expect(meterLevel(use(3_278, 4_097))).toBe("warn");
    expect(meterLevel(use(9_812, 4_097))).toBe("over");
    const warn = renderToStaticMarkup(createElement(PromptTokenMeter, { contextUse: use(3_500, 4_097) }));
    expect(warn).toContain('data-level="warn"');
    expect(warn).toContain("bg-amber-500");
    expect(textOf(warn)).toBe("3,500 / 4,097 tokens (85%) — close to the model's context window");
    expect(textOf(renderToStaticMarkup(createElement(PromptTokenMeter, { contextUse: use(9_812, 4_097) })))).toContain("over the model's context window");
  });

  it("renders nothing for a call recorded before the count existed", () => {
    expect(renderToStaticMarkup(createElement(PromptTokenMeter, { contextUse: null }))).toBe("");
  });
});

describe("PromptViewer", () => {
  it("shows the call's meter above the prompt when the call has a count, nothing when it has none", async () => {
    const { PromptViewer } = await import("@/components/inspector/prompt-viewer");
    const messages = [{ role: "user" as const, content: "Question: where?\nThought 1:" }];
    const withMeter = renderToStaticMarkup(createElement(PromptViewer, { messages, contextUse: use(3_912, 128_000) }));
    expect(withMeter.indexOf('data-testid="prompt-token-meter"')).toBeGreaterThan(-1);
    expect(withMeter.indexOf('data-testid="prompt-token-meter"')).toBeLessThan(withMeter.indexOf('data-testid="inspector-prompt"'));
    expect(renderToStaticMarkup(createElement(PromptViewer, { messages, contextUse: null }))).not.toContain("prompt-token-meter");
  });
});
