import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { NextRequest } from "next/server";
import { beforeAll, describe, expect, it } from "vitest";
import { reflectionListResponseSchema } from "@/lib/domain/reflection-outcomes";

// The route uses the process-wide context: point it at a private database before importing it.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rp-reflections-"));
process.env.REFLEXION_DB_PATH = path.join(dir, "reflections.sqlite");

let route: typeof import("@/app/api/reflections/route");
let experimentId = "";
let reflexionRunIds: string[] = [];

/**
 * GET /api/reflections over ordinary runs made here with the demo model (a
 * scripted stand-in that fails trial 1 of a built-in QA task, reflects and
 * succeeds under Reflexion; ReAct only writes no reflection).
 */
beforeAll(async () => {
  route = await import("@/app/api/reflections/route");
  const { getServerContext } = await import("@/lib/server/app-context");
  const context = getServerContext();
  const record = await context.experiments.start({
    name: "reflections api",
    environment: "qa",
    taskSet: "builtin",
    taskIds: ["qa-builtin-01", "qa-builtin-02"],
    arms: [
      { label: "ReAct", strategy: "none", modelId: "demo" },
      { label: "Reflexion", strategy: "reflexion", modelId: "demo" },
    ],
    maxTrials: 3,
  });
  experimentId = record.id;
  for (const link of await context.store.experiments.listExperimentRuns(record.id)) {
    const run = await context.service.getRun(link.runId);
    await context.workers.untilSettled(run.rootBranchId);
    if (link.arm === "Reflexion") reflexionRunIds.push(link.runId);
  }
  reflexionRunIds = reflexionRunIds.sort();
});

async function get(query: string) {
  const response = await route.GET(new NextRequest(`http://127.0.0.1/api/reflections${query}`));
  return { status: response.status, body: (await response.json()) as unknown };
}

describe("GET /api/reflections", () => {
  it("lists an experiment's reflections: each Reflexion run's trial-1 reflection worked", async () => {
    const { status, body } = await get(`?experimentId=${experimentId}`);
    expect(status).toBe(200);
    const list = reflectionListResponseSchema.parse(body);
    expect(list.runs).toBe(4);
    expect(list.items.map((item) => item.runId).sort()).toEqual(reflexionRunIds);
    for (const item of list.items) {
      expect(item).toMatchObject({ arm: "Reflexion", experimentId, verdict: "helped", inNextMemory: true, recordedSource: null, strategy: "reflexion" });
      expect(item.failed.trial).toBe(1);
      expect(item.failed.outcome).not.toBe("success");
      expect(item.next?.outcome).toBe("success");
      expect(item.text.length).toBeGreaterThan(10);
    }
    expect(list.counts).toEqual({ helped: 2, notHelped: 0, noNextTrial: 0 });
  });

  it("filters by helped and by words, one run, and pages", async () => {
    const notHelped = reflectionListResponseSchema.parse((await get(`?experimentId=${experimentId}&helped=false`)).body);
    expect(notHelped.items).toEqual([]);
    expect(notHelped.counts.helped).toBe(2);

    const all = reflectionListResponseSchema.parse((await get(`?experimentId=${experimentId}`)).body);
    const word = all.items[0]!.text.split(/\s+/).find((w) => w.length > 6)!;
    const byWord = reflectionListResponseSchema.parse((await get(`?experimentId=${experimentId}&q=${encodeURIComponent(word)}`)).body);
    expect(byWord.items.length).toBeGreaterThan(0);
    expect(byWord.items.every((item) => item.text.toLowerCase().includes(word.toLowerCase()) || item.failed.lastActions.join(" ").toLowerCase().includes(word.toLowerCase()) || item.runTitle.toLowerCase().includes(word.toLowerCase()))).toBe(true);
    const none = reflectionListResponseSchema.parse((await get(`?experimentId=${experimentId}&q=zzqxnotaword`)).body);
    expect(none.total).toBe(0);

    const one = reflectionListResponseSchema.parse((await get(`?runId=${reflexionRunIds[0]}`)).body);
    expect(one.runs).toBe(1);
    expect(one.items.map((item) => item.runId)).toEqual([reflexionRunIds[0]]);

    const page1 = reflectionListResponseSchema.parse((await get(`?experimentId=${experimentId}&limit=1`)).body);
    expect(page1.items).toHaveLength(1);
    expect(page1.nextCursor).toBe("1");
    const page2 = reflectionListResponseSchema.parse((await get(`?experimentId=${experimentId}&limit=1&cursor=1`)).body);
    expect(page2.items[0]?.reflectionEventId).not.toBe(page1.items[0]?.reflectionEventId);
    expect(page2.nextCursor).toBeNull();

    // No experiment named: the recent runs (here, the same four).
    const recent = reflectionListResponseSchema.parse((await get("")).body);
    expect(recent.runs).toBe(4);
    expect(recent.total).toBe(2);
  });

  it("answers 400 naming the bad parameter, 404 for an unknown experiment or run", async () => {
    const bad = await get("?helped=maybe");
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain("helped");
    const limit = await get("?limit=0");
    expect(limit.status).toBe(400);
    expect(JSON.stringify(limit.body)).toContain("limit");
    // An empty parameter, as a form sends it, is "not set".
    expect((await get(`?experimentId=${experimentId}&helped=`)).status).toBe(200);
    // A search longer than the box allows: a sentence, not a raw schema message.
    const long = await get(`?q=${"a".repeat(501)}`);
    expect(long.status).toBe(400);
    expect(JSON.stringify(long.body)).toContain("The search is too long (501 characters): use at most 500");
    expect((await get(`?q=${"a".repeat(500)}`)).status).toBe(200);
    const missing = await get("?experimentId=no-such-experiment");
    expect(missing.status).toBe(404);
    expect(JSON.stringify(missing.body)).toContain("no-such-experiment");
  });
});
