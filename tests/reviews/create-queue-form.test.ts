// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { createElement } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { CreateQueueForm } from "@/components/reviews/create-queue-form";

vi.mock("next/navigation", () => ({ useRouter: () => ({ push: () => undefined, replace: () => undefined }) }));

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe("CreateQueueForm", () => {
  it("the Name placeholder is the name the queue would get: the experiment's name and arms, or Search: <query> in query mode", () => {
    vi.stubGlobal("fetch", async () => new Response(JSON.stringify({ experiments: [] }), { status: 200, headers: { "content-type": "application/json" } }));
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(createElement(QueryClientProvider, { client }, createElement(CreateQueueForm)));
    const name = () => screen.getByTestId("review-name").getAttribute("placeholder");
    expect(name()).toBe("the experiment's name and arms");
    fireEvent.click(screen.getByTestId("review-source-query"));
    expect(name()).toBe("Search: the query");
    fireEvent.change(screen.getByTestId("review-query"), { target: { value: "  family:qa outcome:failure " } });
    expect(name()).toBe("Search: family:qa outcome:failure");
    expect(name()).not.toMatch(/experiment|arms/);
  });
});
