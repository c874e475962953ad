// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { createElement, type ReactNode } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { DeadLetterListResponse, DeadLetterRow } from "@/lib/domain/dead-letter-actions";
import type { RateLimitView } from "@/lib/domain/rate-limit-view";
import { DeadLettersPanel } from "@/components/jobs/dead-letters-panel";
import { RateLimitsView } from "@/components/jobs/rate-limits-panel";

/**
 * The /jobs dead-letter actions in a DOM (happy-dom + Testing Library), against a fake of the API
 * routes kept in memory: Retry shows its pending state, announces the server's sentence and reloads
 * the list (the letter is gone); Discard asks first (Esc keeps, focus returns), then removes; a
 * refused retry shows the server's message; a letter the server would refuse offers no Retry and
 * says why; the empty states stay; the rate-limit view shows limits and blocks by provider + model.
 */

// next/link needs the app router; a plain anchor is what it renders.
vi.mock("next/link", () => ({ default: ({ href, children, ...rest }: { href: string; children?: ReactNode }) => createElement("a", { href, ...rest }, children) }));

const letter = (id: string, overrides: Partial<DeadLetterRow> = {}): DeadLetterRow => ({
  id,
  runId: `run-${id}-0000-4000-8000-000000000000`,
  branchId: `branch-${id}`,
  priority: "interactive",
  error: "simulated: the database went away",
  attempts: 5,
  createdAt: "2026-12-01T10:00:00.000Z",
  failedAt: "2026-12-01T10:01:00.000Z",
  branch: { status: "running", outcome: null, queuedAgain: false },
  retryRefusal: null,
  ...overrides,
});

interface FakeApi {
  letters: DeadLetterRow[];
  mode?: DeadLetterListResponse["mode"];
  /** When set, retries wait for this promise before answering. */
  hold?: Promise<void>;
  /** Answer a retry with this 409 message instead. */
  refuse?: string;
  calls: string[];
}

function installFetch(api: FakeApi) {
  const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
  vi.stubGlobal("fetch", async (input: string, init?: { method?: string }) => {
    const method = init?.method ?? "GET";
    api.calls.push(`${method} ${input}`);
    if (method === "GET" && input === "/api/jobs/dead-letters") {
      return json(200, { mode: api.mode ?? "pg-boss", stats: { queued: 0, active: 0, failed: api.letters.length }, deadLetters: api.letters });
    }
    const retry = /^\/api\/jobs\/dead-letters\/([^/]+)\/retry$/.exec(input);
    if (method === "POST" && retry) {
      await api.hold;
      if (api.refuse) return json(409, { error: { code: "conflict", message: api.refuse } });
      const found = api.letters.find((candidate) => candidate.id === retry[1]);
      api.letters = api.letters.filter((candidate) => candidate.id !== retry[1]);
      return json(200, { letterId: retry[1], runId: found?.runId, branchId: found?.branchId, outcome: "requeued", message: `Run ${found?.runId}: its branch job is queued again.` });
    }
    const discard = /^\/api\/jobs\/dead-letters\/([^/]+)\/discard$/.exec(input);
    if (method === "POST" && discard) {
      api.letters = api.letters.filter((candidate) => candidate.id !== discard[1]);
      return json(200, { discarded: discard[1] });
    }
    return json(404, { error: { code: "not-found", message: `no route ${method} ${input}` } });
  });
}

function renderPanel() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(createElement(QueryClientProvider, { client }, createElement(DeadLettersPanel)));
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe("/jobs dead-letter actions", () => {
  it("Retry shows its pending state, announces what the server did and reloads the list", async () => {
    let release: () => void = () => undefined;
    const api: FakeApi = { letters: [letter("aaaa1111"), letter("bbbb2222")], hold: new Promise<void>((resolve) => (release = resolve)), calls: [] };
    installFetch(api);
    renderPanel();
    const rows = await screen.findAllByTestId("dead-letter-row");
    expect(rows).toHaveLength(2);
    const retry = within(rows[0]!).getByRole("button", { name: /Retry the job of run run-aaaa/ });
    fireEvent.click(retry);
    await waitFor(() => expect(within(rows[0]!).getByRole("button", { name: /Retry the job/ }).textContent).toBe("Retrying…"));
    expect(within(rows[0]!).getByRole("button", { name: /Retry the job/ })).toHaveProperty("disabled", true);
    await act(async () => release());
    expect((await screen.findByTestId("dead-letters-announcement")).textContent).toMatch(/run-aaaa.*queued again/);
    await waitFor(() => expect(screen.getAllByTestId("dead-letter-row")).toHaveLength(1));
    expect(api.calls.filter((call) => call === "GET /api/jobs/dead-letters").length).toBeGreaterThanOrEqual(2);
  });

  it("Discard asks first: Esc keeps the letter and gives focus back, the confirm button removes it", async () => {
    const api: FakeApi = { letters: [letter("cccc3333")], calls: [] };
    installFetch(api);
    renderPanel();
    const row = await screen.findByTestId("dead-letter-row");
    const discard = within(row).getByRole("button", { name: /Discard the dead letter of run run-cccc/ });
    fireEvent.click(discard);
    const group = within(row).getByRole("group", { name: /Confirm discarding/ });
    const confirm = within(group).getByRole("button", { name: "Discard" });
    expect(document.activeElement).toBe(confirm);
    expect(api.calls.some((call) => call.startsWith("POST"))).toBe(false);
    fireEvent.keyDown(confirm, { key: "Escape" });
    expect(within(row).queryByRole("group", { name: /Confirm discarding/ })).toBeNull();
    expect(document.activeElement?.getAttribute("aria-label")).toMatch(/Discard the dead letter/);

    fireEvent.click(within(row).getByRole("button", { name: /Discard the dead letter/ }));
    fireEvent.click(within(row).getByRole("button", { name: "Discard" }));
    expect((await screen.findByTestId("dead-letters-announcement")).textContent).toMatch(/discarded; the run's log is unchanged/);
    expect(api.calls).toContain("POST /api/jobs/dead-letters/cccc3333/discard");
    expect(await screen.findByText(/No job has failed every attempt/)).toBeTruthy();
  });

  it("a refused retry shows the server's sentence; a letter the server would refuse offers no Retry and says why", async () => {
    const refusal = "Run x already ended (success) — nothing to retry; its log holds the whole run. Discard the letter.";
    const api: FakeApi = {
      letters: [letter("dddd4444"), letter("eeee5555", { branch: { status: "ended", outcome: "success", queuedAgain: false }, retryRefusal: refusal })],
      refuse: "Run y is paused (user) — a job would not drive it. Resume the run, then discard the letter.",
      calls: [],
    };
    installFetch(api);
    renderPanel();
    const [open, ended] = await screen.findAllByTestId("dead-letter-row");
    expect(within(ended!).queryByRole("button", { name: /Retry the job/ })).toBeNull();
    expect(within(ended!).getByText(refusal)).toBeTruthy();
    expect(within(ended!).getByTestId("dead-letter-branch").textContent).toBe("Run ended since (success)");
    fireEvent.click(within(open!).getByRole("button", { name: /Retry the job/ }));
    expect((await within(open!).findByRole("alert")).textContent).toMatch(/is paused .* Resume the run/);
    expect(screen.getAllByTestId("dead-letter-row")).toHaveLength(2);
  });

  it("the embedded mode keeps its empty state (no queue, what to set)", async () => {
    installFetch({ letters: [], mode: "in-process", calls: [] });
    renderPanel();
    expect(await screen.findByText("No job queue in the embedded mode")).toBeTruthy();
    expect(screen.getByText(/REFLEXION_DATABASE_URL/)).toBeTruthy();
    expect(screen.queryByRole("button", { name: /Retry/ })).toBeNull();
  });
});

describe("/jobs rate-limit view", () => {
  it("shows each pattern's limits, the counters' scope and the blocked provider + model", () => {
    const view: RateLimitView = {
      counters: "shared",
      limits: [
        { pattern: "compatible:fake-model", scope: "model", requestsPerMinute: 300, tokensPerMinute: null, concurrent: 4, windowSeconds: 10, requestsPerWindow: 50, tokensPerWindow: null },
        { pattern: "openai", scope: "provider", requestsPerMinute: null, tokensPerMinute: 200000, concurrent: null, windowSeconds: 60, requestsPerWindow: null, tokensPerWindow: 200000 },
      ],
      blocked: [{ modelId: "compatible:fake-model", keys: 2, until: "2026-12-01T10:00:30.000Z" }],
      adaptive: {
        mode: "on",
        models: [
          { modelId: "compatible:fake-model", keys: 1, processes: 3, ratePerS: 9.96, measuredRatePerS: 9.61, concurrency: 7, inFlight: 5, rateLimited: 12, started: 1500, pausedUntil: null },
          { modelId: "openai:gpt-4o-mini", keys: 1, processes: 1, ratePerS: null, measuredRatePerS: 3.24, concurrency: null, inFlight: 4, rateLimited: 0, started: 40, pausedUntil: null },
        ],
      },
      problem: null,
      readAt: "2026-12-01T10:00:00.000Z",
    };
    render(createElement(RateLimitsView, { view }));
    expect(screen.getByText("shared through PostgreSQL")).toBeTruthy();
    const table = screen.getByTestId("rate-limits");
    const [, model, provider] = within(table).getAllByRole("row");
    expect(model!.textContent).toMatch(/compatible:fake-model\s*\(this model\)300 \(50 per 10 s\)no limit410 s/);
    expect(provider!.textContent).toMatch(/openai\s*\(every model of the provider\)no limit200,000no limit60 s/);
    expect(screen.getByTestId("rate-limit-blocks").textContent).toMatch(/compatible:fake-model until .*\(2 API keys\)/);
    const [learnt, open] = screen.getAllByTestId("adaptive-limit");
    expect(learnt!.textContent).toMatch(/^compatible:fake-model: 9\.6 req\/s of ~10 learnt, concurrency 7 · 12 of 1,500 requests answered 429 · 3 processes$/);
    expect(open!.textContent).toMatch(/^openai:gpt-4o-mini: 3\.2 req\/s no limit learnt \(no 429 yet\), 4 in flight · 0 of 40/);
  });

  it("says how to configure limits when there are none, and that per-process blocks are not shown", () => {
    render(createElement(RateLimitsView, { view: { counters: "off", limits: [], blocked: null, adaptive: { mode: "off", models: [] }, problem: null, readAt: "2026-12-01T10:00:00.000Z" } }));
    expect(screen.getByTestId("rate-limits-empty").textContent).toMatch(/Set REFLEXION_RATE_LIMITS/);
    expect(screen.getByTestId("adaptive-limits").textContent).toMatch(/REFLEXION_ADAPTIVE_LIMITS=off/);
    expect(screen.getByText("off")).toBeTruthy();
  });
});
