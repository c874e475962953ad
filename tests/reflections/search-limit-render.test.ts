import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it, vi } from "vitest";

/** The Reflections search box takes at most 500 characters; a longer `?q=` in a link is cut, and the page says so (no raw schema message). */
const search = { value: "" };
vi.mock("next/navigation", () => ({
  useSearchParams: () => new URLSearchParams(search.value),
  useRouter: () => ({ replace: () => undefined, push: () => undefined }),
  usePathname: () => "/reflections",
}));

const { ReflectionsPage, SEARCH_MAX } = await import("@/components/reflections/reflections-page");

function render(query: string): string {
  search.value = query;
  return renderToStaticMarkup(createElement(QueryClientProvider, { client: new QueryClient() }, createElement(ReflectionsPage)));
}

describe("the reflections search box", () => {
  it("has maxLength 500 and no warning for an ordinary search", () => {
    expect(SEARCH_MAX).toBe(500);
    const html = render("q=lookup");
    expect(html).toMatch(/data-testid="reflections-search"[^>]*maxLength="500"|maxLength="500"[^>]*data-testid="reflections-search"/);
    expect(html).not.toContain("reflections-search-too-long");
  });

  it("cuts a too-long ?q= to 500 characters and says so", () => {
    const html = render(`q=${"a".repeat(800)}`);
    expect(html).toContain('data-testid="reflections-search-too-long"');
    expect(html).toContain("The search in the link was 800 characters long");
    expect(html).toContain(`value="${"a".repeat(500)}"`);
    expect(html).not.toContain("a".repeat(501));
  });
});
