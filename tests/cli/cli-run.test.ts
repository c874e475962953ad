import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { qaDemoScriptBook } from "@/lib/environments/qa/demo-script";
import { demoReply } from "@/lib/llm/demo-model";
import { flattenMessages, startFakeOpenAIServer, type FakeOpenAIServer } from "../helpers/fake-openai-server";
import { parseJsonLines, runCli, spawnCli } from "./run-cli";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "rp-cli-"));
const hotpot = path.resolve(__dirname, "../../../shared/data/hotpotqa/hotpotqa-distractor-reflexion-sample100.json");
const dbEnv = (name: string) => ({ REFLEXION_DB_PATH: path.join(tmp, `${name}.sqlite`) });
const servers: FakeOpenAIServer[] = [];

afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
});

const demoResponder = (messages: Parameters<typeof flattenMessages>[0]) => demoReply([qaDemoScriptBook], flattenMessages(messages));

describe("CLI: tasks", () => {
  it("lists the built-in tasks, id first", async () => {
    const result = await runCli(["tasks", "--env", "qa", "--tasks", "builtin"], dbEnv("tasks"));
    expect(result.code).toBe(0);
    const lines = result.stdout.trim().split("\n");
    expect(lines.length).toBeGreaterThanOrEqual(10);
    for (const line of lines) expect(line).toMatch(/^qa-builtin-\d+\t.+\?/);
  });

  it("lists the tasks of a HotpotQA file", async () => {
    const result = await runCli(["tasks", "--env", "qa", "--tasks", hotpot], dbEnv("tasks"));
    expect(result.code).toBe(0);
    const lines = result.stdout.trim().split("\n");
    expect(lines).toHaveLength(100);
    expect(lines[0]).toMatch(/^5a7613c15542994ccc9186bf\tVIVA Media AG/);
  });

  it("names the problem when the file is missing", async () => {
    const result = await runCli(["tasks", "--tasks", path.join(tmp, "nope.json")], dbEnv("tasks"));
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/No such file/);
  });
});

describe("CLI: run with the demo model", { tags: ["slow"] }, () => {
  it("reflexion: a failed trial, a reflection, then a successful trial (stored envelopes)", async () => {
    const env = dbEnv("demo");
    const result = await runCli(["run", "--env", "qa", "--tasks", "builtin", "--task-id", "qa-builtin-01", "--strategy", "reflexion", "--model", "demo", "--json"], env);
    expect(result.code, result.stderr).toBe(0);
    const events = parseJsonLines(result.stdout);
    for (const event of events) expect(Object.keys(event)).toEqual(expect.arrayContaining(["id", "runId", "branchId", "seq", "type", "data"]));
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    const outcomes = events.flatMap((e) => (e.type === "trial-end" ? [e.data.outcome] : []));
    expect(outcomes[0]).not.toBe("success");
    expect(outcomes.at(-1)).toBe("success");
    const firstReflection = events.findIndex((e) => e.type === "reflection-end");
    const lastSuccess = events.findIndex((e) => e.type === "trial-end" && e.data.outcome === "success");
    expect(firstReflection).toBeGreaterThan(-1);
    expect(firstReflection).toBeLessThan(lastSuccess);
    expect(events.at(-1)).toMatchObject({ type: "run-end", data: { outcome: "success" } });

    // The run is in the shared database: listing it again works from another process.
    const again = await runCli(["tasks", "--tasks", "builtin"], env);
    expect(again.code).toBe(0);
  });

  it("none (ReAct only): never succeeds and never reflects", async () => {
    const result = await runCli(["run", "--tasks", "builtin", "--task-id", "qa-builtin-01", "--strategy", "none", "--model", "demo", "--json"], dbEnv("demo"));
    expect(result.code, result.stderr).toBe(0);
    const events = parseJsonLines(result.stdout);
    const outcomes = events.flatMap((e) => (e.type === "trial-end" ? [e.data.outcome] : []));
    expect(outcomes).toHaveLength(5);
    expect(outcomes).not.toContain("success");
    expect(events.some((e) => e.type === "reflection-end")).toBe(false);
    expect(events.at(-1)).toMatchObject({ type: "run-end", data: { outcome: "failure" } });
  });

  it("prints each trial's verdict and reflection without --json", async () => {
    const result = await runCli(["run", "--tasks", "builtin", "--task-id", "qa-builtin-02", "--model", "demo", "--trials", "3"], dbEnv("demo"));
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/Trial 1 verdict: (failure|halted)/);
    expect(result.stdout).toMatch(/Reflection after trial 1: .+/);
    expect(result.stdout).toMatch(/Trial 2 verdict: success/);
    expect(result.stdout).toMatch(/oracle/);
  });

  it("exits 2 on bad input, with a one-line message", async () => {
    const badStrategy = await runCli(["run", "--tasks", "builtin", "--task-id", "qa-builtin-01", "--strategy", "bogus"], dbEnv("demo"));
    expect(badStrategy.code).toBe(2);
    expect(badStrategy.stderr).toMatch(/Allowed choices are none, reflexion/);
    const tooMany = await runCli(["run", "--tasks", "builtin", "--task-id", "qa-builtin-01", "--trials", "1000"], dbEnv("demo"));
    expect(tooMany.code).toBe(2);
    // The message names the flag (then commander shows the command's help).
    expect(tooMany.stderr.split("\n")[0]).toBe("error: option '--trials <n>' argument '1000' is invalid. expected a whole number from 1 to 50");
    const folder = await runCli(["run", "--tasks", tmp, "--task-id", "x"], dbEnv("demo"));
    expect(folder.code).toBe(2);
    expect(folder.stderr).toMatch(/is a folder/);
  });

  it("refuses to resume a run that has ended, without replaying it", async () => {
    const env = dbEnv("resume-ended");
    const first = await runCli(["run", "--tasks", "builtin", "--task-id", "qa-builtin-03", "--model", "demo", "--json"], env);
    const runId = parseJsonLines(first.stdout)[0]!.runId;
    const again = await runCli(["resume", "--run", runId, "--json"], env);
    expect(again.code).toBe(2);
    expect(again.stdout).toBe("");
    expect(again.stderr).toMatch(/is ended; only a paused or interrupted run can be resumed/);
  });

  it("rejects an unknown task id with a message saying where to look", async () => {
    const result = await runCli(["run", "--tasks", "builtin", "--task-id", "nope", "--model", "demo"], dbEnv("demo"));
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/Task "nope" is not in the Built-in task set/);
  });
});

describe("CLI: run against an OpenAI-compatible server", { tags: ["slow"] }, () => {
  it("completes, and trial 2's Actor request carries trial 1's reflection", async () => {
    const server = await startFakeOpenAIServer({ respond: demoResponder });
    servers.push(server);
    const result = await runCli(
      ["run", "--tasks", "builtin", "--task-id", "qa-builtin-01", "--strategy", "reflexion", "--model", "compatible:fake-model", "--json"],
      { ...dbEnv("compatible"), OPENAI_COMPATIBLE_BASE_URL: server.baseUrl },
    );
    expect(result.code, result.stderr).toBe(0);
    const events = parseJsonLines(result.stdout);
    expect(events.at(-1)).toMatchObject({ type: "run-end", data: { outcome: "success" } });
    const reflection = events.find((e) => e.type === "reflection-end");
    if (reflection?.type !== "reflection-end") throw new Error("no reflection-end");
    const requests = server.chatRequests().map((r) => flattenMessages(Array.isArray(r.body?.messages) ? r.body.messages : []));
    expect(requests.every((text) => text.length > 0)).toBe(true);
    const trial2Calls = events.filter((e) => e.type === "model-call-end" && e.data.trial === 2 && e.data.role === "actor");
    expect(trial2Calls.length).toBeGreaterThan(0);
    const withReflection = requests.filter((text) => text.includes(reflection.data.text));
    expect(withReflection.length).toBeGreaterThanOrEqual(trial2Calls.length);
    // Streamed: the server saw stream: true.
    expect(server.chatRequests().every((r) => r.body?.stream === true)).toBe(true);
  });

  it("loses no recorded event when the model server dies mid-run and comes back", async () => {
    const server = await startFakeOpenAIServer({ respond: demoResponder });
    const env = { ...dbEnv("outage"), OPENAI_COMPATIBLE_BASE_URL: server.baseUrl };
    let calls = 0;
    server.setResponder((messages) => {
      calls += 1;
      if (calls === 3) setTimeout(() => void server.close(), 20);
      return demoResponder(messages);
    });
    const first = await runCli(["run", "--tasks", "builtin", "--task-id", "qa-builtin-01", "--model", "compatible:fake-model", "--json"], env);
    expect(first.code).toBe(1);
    expect(first.stderr).toMatch(/resume --run/);
    const before = parseJsonLines(first.stdout);
    expect(before.at(-1)).toMatchObject({ type: "run-pause", data: { reason: "model-error" } });
    expect(before.some((e) => e.type === "model-call-error")).toBe(true);

    const revived = await startFakeOpenAIServer({ respond: demoResponder, port: server.port });
    servers.push(revived);
    const runId = before[0]!.runId;
    const second = await runCli(["resume", "--run", runId, "--json"], env);
    expect(second.code, second.stderr).toBe(0);
    const after = parseJsonLines(second.stdout);
    // Everything recorded before the outage is still there, unchanged, and nothing is doubled.
    expect(after.slice(0, before.length)).toEqual(before);
    expect(new Set(after.map((e) => e.id)).size).toBe(after.length);
    expect(after.map((e) => e.seq)).toEqual(after.map((_, i) => i + 1));
    expect(after.at(-1)).toMatchObject({ type: "run-end", data: { outcome: "success" } });
  }, 60_000);
});

describe("CLI: the playground process is killed mid-run", { tags: ["slow"] }, () => {
  it("keeps every recorded event, shows the run as interrupted, and resumes it to the end", async () => {
    // Slow streams (80 ms between chunks) so the kill lands while trial 2 is running.
    const server = await startFakeOpenAIServer({ respond: demoResponder, chunkDelayMs: 80 });
    servers.push(server);
    const env = { ...dbEnv("kill9"), OPENAI_COMPATIBLE_BASE_URL: server.baseUrl };
    const child = spawnCli(["run", "--tasks", "builtin", "--task-id", "qa-builtin-01", "--model", "compatible:fake-model", "--json"], env);
    let stdout = "";
    child.stdout?.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    const deadline = Date.now() + 30_000;
    while (!stdout.includes('"type":"reflection-end"') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    child.kill("SIGKILL");
    await new Promise((resolve) => child.on("close", resolve));

    const { SqliteRunStore } = await import("@/lib/db/sqlite-store");
    const store = new SqliteRunStore(env.REFLEXION_DB_PATH);
    const [run] = await store.listRuns(1);
    if (!run) throw new Error("the killed CLI stored no run");
    const before = await store.list(run.id, run.rootBranchId);
    await store.close();
    expect(before.length).toBeGreaterThan(3);
    expect(before.some((e) => e.type === "run-end")).toBe(false);
    // What the killed process printed is a prefix of what is stored.
    const printed = parseJsonLines(stdout.split("\n").slice(0, -1).join("\n"));
    expect(before.slice(0, printed.length)).toEqual(printed);

    const resumed = await runCli(["resume", "--run", run.id, "--json"], env);
    expect(resumed.code, resumed.stderr).toBe(0);
    const after = parseJsonLines(resumed.stdout);
    expect(after.slice(0, before.length)).toEqual(before);
    expect(after[before.length]).toMatchObject({ type: "run-resume", data: { reason: "recovery" } });
    expect(new Set(after.map((e) => e.id)).size).toBe(after.length);
    expect(after.map((e) => e.seq)).toEqual(after.map((_, i) => i + 1));
    expect(after.at(-1)).toMatchObject({ type: "run-end", data: { outcome: "success" } });
  }, 60_000);
});
