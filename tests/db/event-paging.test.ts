import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { draft, type EventDraft, type RunEvent } from "@/lib/domain/events";
import type { BranchId, RunId } from "@/lib/domain/ids";
import { MemoryRunStore } from "@/lib/db/memory-store";
import { SqliteRunStore } from "@/lib/db/sqlite-store";
import type { RunStore } from "@/lib/db/store";
import { readEventPages } from "@/lib/query/event-pages";
import { readStoredEventPage } from "@/lib/server/event-page";
import { makeRunConfig } from "../helpers/run-config";
import { sharedPglite } from "./pg-test-stores";

// The run page reads a long run's events in bounded pages (GET …/events?after=&limit=): every event
// must arrive exactly once and in seq order, across page boundaries, fork segments, and appends
// made while the client is between pages.

const tempDir = fs.mkdtempSync(path.join(os.tmpdir(), "rp-paging-"));
const pglite = sharedPglite();
beforeAll(() => pglite.open(), 60_000);
afterAll(async () => {
  await pglite.close();
  fs.rmSync(tempDir, { recursive: true, force: true });
});

/** `count` small events (a trial start, then pause/resume pairs): cheap to store, each with its own seq. */
function drafts(count: number, label: string): EventDraft[] {
  return Array.from({ length: count }, (_, index) =>
    index % 2 === 0 ? draft("run-pause", { reason: "user", detail: `${label}-${index}` }) : draft("run-resume", { reason: "user" }),
  );
}

async function appendMany(store: RunStore, runId: RunId, branchId: BranchId, count: number, label: string): Promise<void> {
  for (let start = 0; start < count; start += 500) await store.append(runId, branchId, drafts(Math.min(500, count - start), `${label}-${start}`));
}

/** Reads a branch through the same page loop the run page uses, over the server's page reader. */
async function pageThrough(store: RunStore, runId: RunId, branchId: BranchId, limit: number, between?: (pageIndex: number) => Promise<void>) {
  const received: RunEvent[] = [];
  let pages = 0;
  const pending: Array<Promise<void>> = [];
  const last = await readEventPages(
    async (after) => {
      // Whatever `between` appends lands after the page just read and before the next request.
      await Promise.all(pending.splice(0));
      const page = await readStoredEventPage(store, runId, branchId, after, limit);
      return { ...page, nextAfter: page.events.at(-1)?.seq ?? after };
    },
    0,
    (page) => {
      received.push(...page.events);
      if (between) pending.push(between(pages));
      pages += 1;
    },
  );
  return { received, pages, last };
}

function expectExactlyOnceInOrder(received: readonly RunEvent[], expected: readonly RunEvent[]): void {
  expect(received.map((event) => event.seq)).toEqual(expected.map((event) => event.seq));
  expect(received.map((event) => event.id)).toEqual(expected.map((event) => event.id));
  expect(new Set(received.map((event) => event.id)).size).toBe(received.length);
}

const stores: Array<[string, () => Promise<RunStore>]> = [
  ["memory", async () => new MemoryRunStore()],
  ["sqlite", async () => new SqliteRunStore(path.join(tempDir, `paging-${Math.random().toString(36).slice(2)}.sqlite`))],
  ["postgres (PGlite)", () => pglite.makeStore()],
];

describe.each(stores)("event paging (%s store)", { timeout: 60_000 }, (_name, makeStore) => {
  it("reads a 6,000-event run in pages of 997: every event once, in order", async () => {
    const store = await makeStore();
    const run = await store.createRun({ config: makeRunConfig(), title: "long" });
    await appendMany(store, run.id, run.rootBranchId, 5999, "root");
    const all = await store.list(run.id, run.rootBranchId);
    expect(all).toHaveLength(6000);
    const { received, pages, last } = await pageThrough(store, run.id, run.rootBranchId, 997);
    expectExactlyOnceInOrder(received, all);
    expect(pages).toBe(Math.ceil(6000 / 997));
    expect(last).toBe(6000);
    // A page that ends exactly at the last event says no more follow.
    const exact = await readStoredEventPage(store, run.id, run.rootBranchId, 5000, 1000);
    expect(exact.events).toHaveLength(1000);
    expect(exact.more).toBe(false);
  });

  it("keeps every event exactly once when events are appended between pages", async () => {
    const store = await makeStore();
    const run = await store.createRun({ config: makeRunConfig(), title: "live" });
    await appendMany(store, run.id, run.rootBranchId, 2999, "before");
    // The run goes on while the client reads: 250 more events after each of the first four pages.
    const { received } = await pageThrough(store, run.id, run.rootBranchId, 800, async (pageIndex) => {
      if (pageIndex < 4) await store.append(run.id, run.rootBranchId, drafts(250, `during-${pageIndex}`));
    });
    const all = await store.list(run.id, run.rootBranchId);
    expect(all).toHaveLength(4000);
    expectExactlyOnceInOrder(received, all);
  });

  it("pages across a fork's segments (the parent's prefix, then the branch's own events)", async () => {
    const store = await makeStore();
    const run = await store.createRun({ config: makeRunConfig(), title: "forked" });
    await appendMany(store, run.id, run.rootBranchId, 3000, "parent");
    const fork = await store.createBranch({ runId: run.id, parentBranchId: run.rootBranchId, forkSeq: 1234 });
    await appendMany(store, run.id, fork.id, 2000, "fork");
    const all = await store.list(run.id, fork.id);
    expect(all).toHaveLength(1234 + 2000);
    // 1234 is not a multiple of 250: one page holds the end of the parent's prefix and the start of the fork's own events.
    const { received } = await pageThrough(store, run.id, fork.id, 250);
    expectExactlyOnceInOrder(received, all);
    expect(received.filter((event) => event.branchId === run.rootBranchId)).toHaveLength(1234);
  });
});

describe("readEventPages", () => {
  it("refuses a page that says more follow without moving forward, instead of looping", async () => {
    await expect(readEventPages(async () => ({ events: [], nextAfter: 5, more: true }), 5, () => undefined)).rejects.toThrow(/did not move forward/);
  });
});
