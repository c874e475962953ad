// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { createElement } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { DeleteTaskSet } from "@/components/home/delete-task-set";
import type { TaskSetListResponse } from "@/lib/domain/api";
import { queryKeys } from "@/lib/query";

/**
 * "Delete this uploaded set" under the task-set picker, against a fake DELETE /api/task-sets/:id:
 * it asks first (a refusal of the question sends nothing), deletes, drops the set from the cached
 * list and calls back; the server's refusal is shown in place.
 */

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const listed: TaskSetListResponse = {
  taskSets: [
    { id: "s1", name: "dev.json", environment: "qa", taskCount: 7_405, createdAt: "2026-12-01T10:00:00.000Z" },
    { id: "s2", name: "other.json", environment: "qa", taskCount: 3, createdAt: "2026-12-01T09:00:00.000Z" },
  ],
};

function mount(onDeleted: () => void, status: number, body?: unknown) {
  const calls: Array<{ url: string; method: string }> = [];
  vi.stubGlobal("fetch", vi.fn(async (url: string, init: RequestInit) => {
    calls.push({ url, method: init.method ?? "GET" });
    if (init.method === "GET") return new Response(JSON.stringify(listed), { status: 200 });
    return new Response(body === undefined ? null : JSON.stringify(body), { status });
  }));
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  client.setQueryData(queryKeys.taskSets(), listed);
  render(createElement(QueryClientProvider, { client }, createElement(DeleteTaskSet, { taskSetId: "s1", name: "dev.json", onDeleted })));
  return { calls, client };
}

describe("DeleteTaskSet", () => {
  it("asks, deletes, drops the set from the list and calls back", async () => {
    const onDeleted = vi.fn();
    const confirm = vi.fn().mockReturnValueOnce(false).mockReturnValueOnce(true);
    vi.stubGlobal("confirm", confirm);
    const { calls, client } = mount(onDeleted, 204);
    fireEvent.click(screen.getByTestId("delete-task-set"));
    expect(confirm).toHaveBeenCalledWith(expect.stringContaining('Delete the uploaded task set "dev.json"? Runs already made on it keep their tasks'));
    expect(calls.filter((call) => call.method === "DELETE")).toEqual([]);
    fireEvent.click(screen.getByTestId("delete-task-set"));
    await waitFor(() => expect(onDeleted).toHaveBeenCalledTimes(1));
    expect(calls).toContainEqual({ url: "/api/task-sets/s1", method: "DELETE" });
    expect(client.getQueryData<TaskSetListResponse>(queryKeys.taskSets())?.taskSets.map((set) => set.id)).not.toContain("s1");
  });

  it("shows the server's refusal", async () => {
    const onDeleted = vi.fn();
    vi.stubGlobal("confirm", vi.fn(() => true));
    mount(onDeleted, 404, { error: { code: "not-found", message: "No task set s1. List the uploaded sets with GET /api/task-sets." } });
    fireEvent.click(screen.getByTestId("delete-task-set"));
    expect(await screen.findByRole("alert")).toHaveProperty("textContent", "No task set s1. List the uploaded sets with GET /api/task-sets.");
    expect(onDeleted).not.toHaveBeenCalled();
  });
});
