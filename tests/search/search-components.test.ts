// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { createElement, type ReactNode } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { TrialHit, TrialSearchResult } from "@/lib/domain/search-query";
import { QueryBox } from "@/components/search/query-box";
import { SearchResults } from "@/components/search/search-results";
import { SearchLauncher } from "@/components/search/search-launcher";

// next/link needs the app router; a plain anchor is what it renders.
vi.mock("next/link", () => ({ default: ({ href, children, ...rest }: { href: string; children?: ReactNode }) => createElement("a", { href, ...rest }, children) }));

afterEach(cleanup);

describe("QueryBox", () => {
  it("Enter searches with the typed query; a bad query shows the parser's message at its character instead", () => {
    const onSearch = vi.fn();
    render(createElement(QueryBox, { onSearch }));
    const input = screen.getByRole("searchbox");
    fireEvent.change(input, { target: { value: "family:household colour:red" } });
    fireEvent.submit(input.closest("form")!);
    expect(onSearch).not.toHaveBeenCalled();
    const alert = screen.getByRole("alert");
    expect(alert.textContent).toContain('unknown field "colour"');
    expect(alert.textContent).toContain("(at character 18)");
    expect(input.getAttribute("aria-invalid")).toBe("true");
    fireEvent.change(input, { target: { value: " family:household repeat>=3 " } });
    expect(screen.queryByRole("alert")).toBeNull();
    fireEvent.submit(input.closest("form")!);
    expect(onSearch).toHaveBeenCalledWith("family:household repeat>=3");
  });

  it("the Fields button opens the grammar help (aria-expanded), listing every field; Escape closes it", () => {
    render(createElement(QueryBox, { onSearch: () => undefined, initialQuery: "experiment:e1", error: { message: "from the server", offset: 2 } }));
    expect((screen.getByRole("searchbox") as HTMLInputElement).value).toBe("experiment:e1");
    expect(screen.getByRole("alert").textContent).toContain("from the server (at character 3)");
    const toggle = screen.getByRole("button", { name: "Fields" });
    expect(toggle.getAttribute("aria-expanded")).toBe("false");
    fireEvent.click(toggle);
    expect(toggle.getAttribute("aria-expanded")).toBe("true");
    const help = screen.getByTestId("query-box-help");
    for (const field of ["family:", "action:", "tag:", "reflection:", "repeat > >= < <= ="]) expect(help.textContent).toContain(field);
    fireEvent.keyDown(help, { key: "Escape" });
    expect(screen.queryByTestId("query-box-help")).toBeNull();
  });
});

const hit = (trial: number, overrides: Partial<TrialHit> = {}): TrialHit => ({
  runId: "run-1",
  branchId: "branch-1",
  runTitle: "Household mug",
  family: "household",
  strategy: "none",
  taskId: "household-builtin-01",
  experimentId: null,
  arm: null,
  trial,
  outcome: "halted",
  costUsd: null,
  steps: 6,
  repeat: 3,
  repeatedAction: "go to desk 1",
  eventId: `start-${trial}`,
  matches: [],
  ...overrides,
});

describe("SearchResults", () => {
  it("rows link to the node on the run page, with snippet, outcome, repeat and cost; 'showing N of M'", () => {
    const result: TrialSearchResult = {
      query: "desklamp",
      normalized: "desklamp",
      hits: [hit(1, { eventId: "e7", costUsd: 0.0123, outcome: "failure", matches: [{ eventId: "e7", field: "thought", step: 2, snippet: "…find the desklamp…" }] }), hit(2)],
      total: 5,
      truncated: true,
      tookMs: 3.2,
    };
    render(createElement(SearchResults, { result }));
    expect(screen.getByText(/Showing 2 of 5 trials/u)).toBeTruthy();
    const rows = screen.getAllByTestId("search-result-row");
    expect(rows).toHaveLength(2);
    const links = [...rows[0]!.querySelectorAll("a")].map((a) => a.getAttribute("href"));
    expect(links).toEqual(["/runs/run-1?branch=branch-1&node=e7", "/runs/run-1?branch=branch-1&node=e7"]);
    expect(rows[0]!.textContent).toContain("thought 2:…find the desklamp…");
    expect(rows[0]!.textContent).toContain("failure");
    expect(rows[0]!.textContent).toContain("$0.0123");
    expect(rows[1]!.querySelector("a")!.getAttribute("href")).toBe("/runs/run-1?branch=branch-1&node=start-2");
    expect(rows[1]!.textContent).toContain("go to desk 1");
  });

  it("says nothing matched, with the query as understood", () => {
    render(createElement(SearchResults, { result: { query: "x", normalized: "tag:none", hits: [], total: 0, truncated: false, tookMs: 1 } }));
    expect(screen.getByText("No trial matches")).toBeTruthy();
    expect(screen.getByText("tag:none")).toBeTruthy();
  });
});

describe("SearchLauncher", () => {
  it("is a GET form to /search with the query as q, prefilled; a bad query is not submitted", () => {
    render(createElement(SearchLauncher, { prefill: "experiment:e1" }));
    const input = screen.getByRole("searchbox") as HTMLInputElement;
    const form = input.closest("form")!;
    expect(form.getAttribute("action")).toBe("/search");
    expect(form.getAttribute("method")).toBe("get");
    expect([input.name, input.value]).toEqual(["q", "experiment:e1"]);
    fireEvent.change(input, { target: { value: "experiment:" } });
    // fireEvent answers false when a handler called preventDefault: the browser would not navigate.
    expect(fireEvent.submit(form)).toBe(false);
    expect(screen.getByRole("alert").textContent).toContain("write a value after experiment:");
  });
});
