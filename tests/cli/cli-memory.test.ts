import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { foldRun } from "@/lib/domain/fold-run";
import { memoryExportSchema } from "@/lib/domain/memory-export";
import { createServerContext } from "@/lib/server/app-context";
import { runCli } from "./run-cli";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cli-memory-"));
const env = { REFLEXION_DB_PATH: path.join(dir, "memory.sqlite") };
let runId = "";
let reflection = "";

/** The database the CLI reads: one demo Reflexion run (fails trial 1, reflects, succeeds) that wrote its reflection to store `team`. */
beforeAll(async () => {
  const context = createServerContext({ env });
  try {
    const run = await context.service.createRun({ environment: "qa", taskSet: "builtin", taskId: "qa-builtin-01", strategy: "reflexion", modelId: "demo", writeMemory: { store: "team" } });
    await context.workers.untilSettled(run.rootBranchId);
    runId = run.id;
    reflection = foldRun((await context.service.events(run.id)).events).trials[0]!.reflection!.text;
  } finally {
    await context.close();
  }
}, 60_000);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("cli memory list / export", { tags: ["slow"] }, () => {
  it("lists the store, exports its reflection as text and as JSON to a file, and names the stores for an unknown one", async () => {
    const listed = await runCli(["memory", "list"], env);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toBe("team\t30d\t1 entries\t1 tasks\n");

    const text = await runCli(["memory", "export", "--store", "team", "--task", "qa-builtin-01", "--format", "text"], env);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toBe(`${reflection.replace(/\s+/gu, " ").trim()}\n`);

    const out = path.join(dir, "out", "team.json");
    const json = await runCli(["memory", "export", "--store", "team", "--family", "qa", "--out", out], env);
    expect(json.code, json.stderr).toBe(0);
    expect(json.stdout).toBe("");
    expect(json.stderr).toContain(`Wrote 1 entry of memory store team to ${out}.`);
    const exported = memoryExportSchema.parse(JSON.parse(fs.readFileSync(out, "utf8")));
    expect(exported.entries.map((entry) => [entry.text, entry.kind, entry.source.runId, entry.taskId])).toEqual([[reflection, "reflection", runId, "qa-builtin-01"]]);

    const unknown = await runCli(["memory", "export", "--store", "nope", "--format", "text"], env);
    expect(unknown.code).toBe(2);
    expect(unknown.stdout).toBe("");
    expect(unknown.stderr).toContain("error: No memory store nope. The stores are: team.");
  });
});
