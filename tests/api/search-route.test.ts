import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { foldRun } from "@/lib/domain/fold-run";
import type { TrialSearchResult } from "@/lib/domain/search-query";

// The route uses the process-wide context: point it at a private database before importing it.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rp-search-route-"));
process.env.REFLEXION_DB_PATH = path.join(dir, "search.sqlite");

let route: typeof import("@/app/api/search/route");
let runId = "";
let trials = 0;

beforeAll(async () => {
  route = await import("@/app/api/search/route");
  const { getServerContext } = await import("@/lib/server/app-context");
  const context = getServerContext();
  const run = await context.service.createRun({ environment: "qa", taskSet: "builtin", taskId: "qa-builtin-01", strategy: "reflexion", modelId: "demo" });
  await context.workers.untilSettled(run.rootBranchId);
  runId = run.id;
  trials = foldRun((await context.service.events(run.id)).events).trials.length;
}, 60_000);

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function get(query: string) {
  const response = await route.GET(new NextRequest(`http://127.0.0.1/api/search${query}`));
  return { status: response.status, body: (await response.json()) as unknown };
}

describe("GET /api/search", () => {
  it("answers the run's trials for a run: query, normalized, and a limit", async () => {
    const all = await get(`?q=${encodeURIComponent(`run:${runId}  trial>=1`)}`);
    expect(all.status).toBe(200);
    const body = all.body as TrialSearchResult;
    expect(trials).toBeGreaterThan(1);
    expect(body.total).toBe(trials);
    expect(body.normalized).toBe(`run:${runId} trial>=1`);
    expect(body.hits.map((hit) => hit.trial)).toEqual(Array.from({ length: trials }, (_, i) => i + 1));
    const limited = (await get(`?q=${encodeURIComponent(`run:${runId}`)}&limit=1`)).body as TrialSearchResult;
    expect(limited.hits).toHaveLength(1);
    expect(limited.truncated).toBe(true);
  });

  it("400 with the parser's message and offset for a bad query, and for a bad limit", async () => {
    const bad = await get(`?q=${encodeURIComponent("outcome:failure cost:1")}`);
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: { code: "invalid-query", message: expect.stringContaining("cost>=3") as unknown, offset: 16 } });
    const limit = await get("?q=&limit=0");
    expect(limit.status).toBe(400);
    expect(limit.body).toMatchObject({ error: { code: "invalid-input" } });
  });
});
