import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiErrorSchema, taskListResponseSchema, taskSetListResponseSchema } from "@/lib/domain/api";
import { MAX_TASK_SET_INFLATED_MB, MAX_TASK_SET_TASKS, MAX_TASKS_PAGE } from "@/lib/domain/workload-limits";
import { runCli } from "../cli/run-cli";

// The routes share one process-wide context: a private database.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rp-task-set-limits-"));
const dbPath = path.join(dir, "api.sqlite");
process.env.REFLEXION_DB_PATH = dbPath;
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const HUMANEVAL = path.resolve(__dirname, "../../../shared/data/humaneval/HumanEval.jsonl.gz");

let routes: { taskSets: typeof import("@/app/api/task-sets/route"); taskSet: typeof import("@/app/api/task-sets/[taskSetId]/route"); tasks: typeof import("@/app/api/tasks/route") };

beforeAll(async () => {
  routes = {
    taskSets: await import("@/app/api/task-sets/route"),
    taskSet: await import("@/app/api/task-sets/[taskSetId]/route"),
    tasks: await import("@/app/api/tasks/route"),
  };
});

/** HumanEval's records, repeated under new task ids until there are `n` lines. */
function humanEvalLines(n: number): string {
  const records = gunzipSync(fs.readFileSync(HUMANEVAL)).toString("utf8").split("\n").filter((line) => line.trim() !== "").map((line) => JSON.parse(line) as Record<string, unknown>);
  return Array.from({ length: n }, (_, i) => JSON.stringify({ ...records[i % records.length], task_id: `Copy/${i}` })).join("\n");
}

function hotpotFile(n: number): string {
  return JSON.stringify(
    Array.from({ length: n }, (_, i) => ({ _id: `q${i}`, question: `After ${i}?`, answer: String(i + 1), supporting_facts: [["N", 0]], context: [["N", [`${i + 1} follows ${i}.`]]] })),
  );
}

function upload(body: Record<string, unknown>): Promise<Response> {
  return routes.taskSets.POST(new Request("http://test/api/task-sets", { method: "POST", body: JSON.stringify(body) }));
}

async function listed() {
  return taskSetListResponseSchema.parse(await (await routes.taskSets.GET()).json()).taskSets;
}

function tasksPage(query: string): Promise<Response> {
  return routes.tasks.GET(new NextRequest(`http://test/api/tasks?${query}`));
}

describe("task sets have a bounded size", () => {
  it("a code set of more records than MAX_TASK_SET_TASKS is refused from its line count, naming both limits; nothing is stored", async () => {
    const lines = humanEvalLines(MAX_TASK_SET_TASKS + 1);
    const response = await upload({ environment: "code", name: "many.jsonl.gz", content: gzipSync(lines).toString("base64"), encoding: "base64" });
    expect(response.status).toBe(413);
    const message = apiErrorSchema.parse(await response.json()).error.message;
    expect(message).toContain(`many.jsonl.gz holds 10,001 records, more than a task set may: a task set holds at most 10,000 tasks and ${MAX_TASK_SET_INFLATED_MB} MB of decompressed text. Nothing was stored. Split the file`);
    expect(await listed()).toEqual([]);
  });

  it("a .gz that inflates past MAX_TASK_SET_INFLATED_MB (below the generic 128) is refused with the task-set limit", async () => {
    const bomb = gzipSync(Buffer.alloc((MAX_TASK_SET_INFLATED_MB + 1) * 1024 * 1024, 0x20));
    const response = await upload({ environment: "code", name: "bomb.jsonl.gz", content: bomb.toString("base64"), encoding: "base64" });
    expect(response.status).toBe(413);
    expect(apiErrorSchema.parse(await response.json()).error.message).toMatch(/bomb\.jsonl\.gz is larger than 64 MB once decompressed: a task set holds at most 10,000 tasks and 64 MB .*Nothing was stored/);
    expect(await listed()).toEqual([]);
  });

  it("real HumanEval (164 tasks, gzip'd) is accepted and listed with its stored count", async () => {
    const response = await upload({ environment: "code", name: "HumanEval.jsonl.gz", content: fs.readFileSync(HUMANEVAL).toString("base64"), encoding: "base64" });
    expect(response.status).toBe(201);
    expect(taskListResponseSchema.parse(await response.json())).toMatchObject({ total: 164, offset: 0 });
    expect((await listed()).map((set) => [set.name, set.taskCount])).toContainEqual(["HumanEval.jsonl.gz", 164]);
  });
});

describe("GET /api/tasks answers a page; DELETE removes a set", () => {
  it("pages a 1,500-task set; the upload answers the first page; limit is capped", async () => {
    const response = await upload({ environment: "qa", name: "dev.json", content: hotpotFile(1_500) });
    expect(response.status).toBe(201);
    const first = taskListResponseSchema.parse(await response.json());
    expect(first.tasks).toHaveLength(MAX_TASKS_PAGE);
    expect(first.total).toBe(1_500);
    const id = first.taskSet.id;

    const rest = taskListResponseSchema.parse(await (await tasksPage(`env=qa&taskSet=${id}&offset=1000`)).json());
    expect(rest).toMatchObject({ total: 1_500, offset: 1_000 });
    expect(rest.tasks.map((task) => task.id)).toEqual(Array.from({ length: 500 }, (_, i) => `q${1_000 + i}`));

    const tooMany = await tasksPage(`env=qa&taskSet=${id}&limit=5000`);
    expect(tooMany.status).toBe(400);
    expect(apiErrorSchema.parse(await tooMany.json()).error.message).toMatch(/limit is at most 1000; page through a larger set with offset/);
  });

  it("DELETE /api/task-sets/:id answers 204, then 404; builtin is refused", async () => {
    const created = taskListResponseSchema.parse(await (await upload({ environment: "qa", name: "gone.json", content: hotpotFile(3) })).json());
    const id = created.taskSet.id;
    const params = (taskSetId: string) => ({ params: Promise.resolve({ taskSetId }) });
    const deleted = await routes.taskSet.DELETE(new Request(`http://test/api/task-sets/${id}`, { method: "DELETE" }), params(id));
    expect(deleted.status).toBe(204);
    expect((await listed()).map((set) => set.id)).not.toContain(id);
    expect((await tasksPage(`env=qa&taskSet=${id}`)).status).toBe(404);
    const again = await routes.taskSet.DELETE(new Request(`http://test/api/task-sets/${id}`, { method: "DELETE" }), params(id));
    expect(again.status).toBe(404);
    expect(apiErrorSchema.parse(await again.json()).error.message).toMatch(/No task set .*task-sets list/);
    const builtin = await routes.taskSet.DELETE(new Request("http://test/api/task-sets/builtin", { method: "DELETE" }), params("builtin"));
    expect(builtin.status).toBe(400);
  });

  it("cli task-sets list and delete work on the same database", async () => {
    const created = taskListResponseSchema.parse(await (await upload({ environment: "qa", name: "cli.json", content: hotpotFile(2) })).json());
    const env = { REFLEXION_DB_PATH: dbPath };
    const list = await runCli(["task-sets", "list"], env);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(new RegExp(`^${created.taskSet.id}\\tqa\\t2 tasks\\t.*\\tcli\\.json$`, "m"));
    const deleted = await runCli(["task-sets", "delete", "--id", created.taskSet.id], env);
    expect(deleted.code).toBe(0);
    expect((await listed()).map((set) => set.id)).not.toContain(created.taskSet.id);
    const missing = await runCli(["task-sets", "delete", "--id", created.taskSet.id], env);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/No task set/);
  }, 60_000);
});
