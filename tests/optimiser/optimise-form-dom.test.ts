// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { createElement, type ReactNode } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { OptimisationView, OptimisePanel } from "@/components/experiments/optimise-panel";
import { parseTokenBudgetField } from "@/lib/domain/optimiser/budget-field";
import { optimisationKeys } from "@/lib/query/optimisation-queries";
import { makeOptimisationRecord } from "./optimisation-store-contract";

/**
 * The optimise form in a DOM (happy-dom + Testing Library) against a fake `fetch`: a malformed
 * token budget is an inline error and Optimise stays disabled (nothing is posted); a valid one is
 * sent as a number; the arm select defaults to the first reflecting arm for the Self-Reflection and
 * its choice is sent; an optimisation whose lease expired reads "interrupted" and offers Resume.
 */

vi.mock("next/link", () => ({ default: ({ href, children, ...rest }: { href: string; children?: ReactNode }) => createElement("a", { href, ...rest }, children) }));

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function mount(element: ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  client.setQueryData(optimisationKeys.list(), []);
  const posts: Array<{ url: string; body: unknown }> = [];
  vi.stubGlobal("fetch", async (input: string, init?: { method?: string; body?: string }) => {
    if (init?.method === "POST") {
      posts.push({ url: input, body: JSON.parse(init.body ?? "{}") });
      return new Response(JSON.stringify({ optimisation: makeOptimisationRecord() }), { status: 202, headers: { "content-type": "application/json" } });
    }
    return new Response(JSON.stringify({ optimisations: [] }), { headers: { "content-type": "application/json" } });
  });
  render(createElement(QueryClientProvider, { client }, element));
  return posts;
}

describe("the optimise form", () => {
  const arms = [
    { label: "react", strategy: "none" as const },
    { label: "reflexion", strategy: "reflexion" as const },
  ];

  it("refuses a token budget that is not a whole number: inline error, Optimise disabled, nothing posted; a valid one is sent as tokens with the chosen arm", async () => {
    const posts = mount(createElement(OptimisePanel, { experimentId: "exp-1", usesDemo: false, arms }));
    const budget = screen.getByTestId("optimise-budget");
    const button = screen.getByTestId("optimise-start") as HTMLButtonElement;
    const arm = screen.getByTestId("optimise-arm") as HTMLSelectElement;
    expect(arm.value).toBe("reflexion");

    fireEvent.change(budget, { target: { value: "abc" } });
    expect(screen.getByTestId("optimise-budget-error").textContent).toContain('"abc" is not a number');
    expect(budget.getAttribute("aria-invalid")).toBe("true");
    expect(button.disabled).toBe(true);
    fireEvent.submit(button.closest("form")!);
    expect(posts).toEqual([]);

    fireEvent.change(budget, { target: { value: "20000" } });
    expect(screen.queryByTestId("optimise-budget-error")).toBeNull();
    expect(button.disabled).toBe(false);
    fireEvent.submit(button.closest("form")!);
    await waitFor(() => expect(posts).toHaveLength(1));
    expect(posts[0]).toMatchObject({ url: "/api/optimisations", body: { experimentId: "exp-1", role: "reflector", arm: "reflexion", budget: { tokens: 20000 } } });
  });

  it("for the Actor the arm defaults to the first arm, and the choice is sent", async () => {
    const posts = mount(createElement(OptimisePanel, { experimentId: "exp-1", usesDemo: false, arms }));
    fireEvent.change(screen.getByLabelText("Template"), { target: { value: "actor" } });
    const arm = screen.getByTestId("optimise-arm") as HTMLSelectElement;
    expect(arm.value).toBe("react");
    fireEvent.change(arm, { target: { value: "reflexion" } });
    fireEvent.submit(screen.getByTestId("optimise-start").closest("form")!);
    await waitFor(() => expect(posts).toHaveLength(1));
    expect(posts[0]!.body).toMatchObject({ role: "actor", arm: "reflexion", budget: null });
  });

  it("reads a running optimisation whose lease expired as interrupted, names its arm, and Resume posts to the resume route", async () => {
    const record = makeOptimisationRecord({ status: "running", lease: { owner: "host:1:dead", expiresAt: 1_000 } });
    const posts = mount(createElement(OptimisationView, { record, now: 2_000 }));
    expect(screen.getByTestId("optimisation").getAttribute("data-status")).toBe("interrupted");
    expect(screen.getByTestId("optimisation-arm").textContent).toContain("reflexion");
    fireEvent.click(screen.getByTestId("optimisation-resume"));
    await waitFor(() => expect(posts).toHaveLength(1));
    expect(posts[0]!.url).toBe(`/api/optimisations/${record.id}/resume`);
    cleanup();
    mount(createElement(OptimisationView, { record: { ...record, lease: { owner: "host:1:live", expiresAt: 3_000 } }, now: 2_000 }));
    expect(screen.getByTestId("optimisation").getAttribute("data-status")).toBe("running");
    expect(screen.queryByTestId("optimisation-resume")).toBeNull();
  });
});

describe("parseTokenBudgetField", () => {
  it("empty is no limit; whole numbers 1 … 1e9 are tokens; anything else says what to enter", () => {
    expect(parseTokenBudgetField("  ")).toEqual({ ok: true, tokens: null });
    expect(parseTokenBudgetField("2,000,000")).toEqual({ ok: true, tokens: 2_000_000 });
    expect(parseTokenBudgetField("1000000000")).toEqual({ ok: true, tokens: 1_000_000_000 });
    for (const bad of ["abc", "12.5", "-3", "1e6"]) expect(parseTokenBudgetField(bad)).toMatchObject({ ok: false, error: expect.stringContaining("whole number of tokens from 1 to 1,000,000,000") });
    expect(parseTokenBudgetField("0")).toMatchObject({ ok: false, error: expect.stringContaining("out of range") });
    expect(parseTokenBudgetField("1000000001")).toMatchObject({ ok: false, error: expect.stringContaining("out of range") });
  });
});

describe("polling the optimisation list", () => {
  it("polls while one runs under a live lease, not for an interrupted or finished one", async () => {
    const { pollWhileRunning, OPTIMISATION_POLL_MS } = await import("@/lib/query/optimisation-queries");
    const running = makeOptimisationRecord({ status: "running", lease: { owner: "host:1:a", expiresAt: 5_000 } });
    expect(pollWhileRunning([running], 1_000)).toBe(OPTIMISATION_POLL_MS);
    expect(pollWhileRunning([running], 6_000)).toBe(false);
    expect(pollWhileRunning([makeOptimisationRecord({ status: "running" })], 1_000)).toBe(false);
    expect(pollWhileRunning([makeOptimisationRecord({ status: "done" })], 1_000)).toBe(false);
  });
});
