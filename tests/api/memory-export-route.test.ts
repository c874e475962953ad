import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { foldRun } from "@/lib/domain/fold-run";
import { memoryExportSchema } from "@/lib/domain/memory-export";

// The route uses the process-wide context: point it at a private database before importing it.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rp-memory-export-"));
process.env.REFLEXION_DB_PATH = path.join(dir, "memory-export.sqlite");

let route: typeof import("@/app/api/memory-stores/[name]/reflections/route");
let runId = "";
let reflection = "";

/** A Reflexion run of a built-in QA task with the demo model (fails trial 1, reflects, succeeds) that writes its reflection to store `team`. */
beforeAll(async () => {
  route = await import("@/app/api/memory-stores/[name]/reflections/route");
  const { getServerContext } = await import("@/lib/server/app-context");
  const context = getServerContext();
  const run = await context.service.createRun({ environment: "qa", taskSet: "builtin", taskId: "qa-builtin-01", strategy: "reflexion", modelId: "demo", writeMemory: { store: "team" } });
  await context.workers.untilSettled(run.rootBranchId);
  runId = run.id;
  reflection = foldRun((await context.service.events(run.id)).events).trials[0]!.reflection!.text;
}, 60_000);

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function get(name: string, query = "") {
  const response = await route.GET(new NextRequest(`http://127.0.0.1/api/memory-stores/${encodeURIComponent(name)}/reflections${query}`), { params: Promise.resolve({ name }) });
  return { status: response.status, type: response.headers.get("content-type") ?? "", text: await response.text() };
}

describe("GET /api/memory-stores/<name>/reflections", () => {
  it("answers the run's reflection as JSON with its source, and as one plain-text line", async () => {
    const json = await get("team", "?task=qa-builtin-01&family=qa");
    expect(json.status).toBe(200);
    const body = memoryExportSchema.parse(JSON.parse(json.text));
    expect(body.store).toBe("team");
    expect(body.entries).toHaveLength(1);
    expect(body.entries[0]).toMatchObject({ text: reflection, kind: "reflection", environment: "qa", taskId: "qa-builtin-01", source: { runId, trial: 1 } });

    const text = await get("team", "?task=qa-builtin-01&format=text");
    expect(text.status).toBe(200);
    expect(text.type).toMatch(/^text\/plain/u);
    expect(text.text).toBe(`${reflection.replace(/\s+/gu, " ").trim()}\n`);
    // Another task has nothing yet; an empty parameter counts as not set.
    expect(JSON.parse((await get("team", "?task=qa-builtin-02&family=")).text)).toEqual({ store: "team", entries: [] });
  });

  it("404 names the existing stores; 400 names a bad parameter", async () => {
    const missing = await get("nope");
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.text)).toEqual({ error: { code: "not-found", message: "No memory store nope. The stores are: team." } });
    const format = await get("team", "?format=xml");
    expect(format.status).toBe(400);
    expect(JSON.parse(format.text).error.message).toMatch(/^Bad query: format: .*"json".*"text"/u);
    const unknown = await get("team", "?taskId=qa-builtin-01");
    expect(unknown.status).toBe(400);
    expect(JSON.parse(unknown.text).error.message).toMatch(/taskId.*Parameters: task, family, format/u);
    expect((await get("team", "?limit=0")).status).toBe(400);
    const badName = await get("bad name!");
    expect(badName.status).toBe(400);
    expect(JSON.parse(badName.text).error.message).toMatch(/^"bad name!" is not a memory store name: a memory store name is 1–64 letters/u);
  });
});
