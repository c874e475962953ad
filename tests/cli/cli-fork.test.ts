import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseJsonLines, runCli } from "./run-cli";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "rp-cli-fork-"));
const env = { REFLEXION_DB_PATH: path.join(tmp, "db.sqlite") };

describe("CLI: replay and fork", { tags: ["slow"] }, () => {
  it("replay --mode recorded of a finished run makes 0 live calls and reproduces the trial outcomes", async () => {
    const first = await runCli(["run", "--tasks", "builtin", "--task-id", "qa-builtin-04", "--model", "demo", "--json"], env);
    expect(first.code, first.stderr).toBe(0);
    const original = parseJsonLines(first.stdout);
    const runId = original[0]!.runId;
    const calls = original.filter((e) => e.type === "model-call-end").length;
    expect(first.stderr).toContain(`: ${calls} live, 0 cached`);
    const replay = await runCli(["replay", "--run", runId, "--mode", "recorded", "--json"], env);
    expect(replay.code, replay.stderr).toBe(0);
    expect(replay.stderr).toContain(`: 0 live, ${calls} cached`);
    const replayed = parseJsonLines(replay.stdout);
    const outcomes = (events: typeof original) => events.flatMap((e) => (e.type === "trial-end" ? [e.data.outcome] : []));
    expect(outcomes(replayed)).toEqual(outcomes(original));
    expect(replayed[1]).toMatchObject({ type: "branch-start", data: { forkSeq: 1, replayMode: "recorded", reason: "replay" } });
  });

  it("fork editing trial 1's reflection makes live calls only from trial 2 on", async () => {
    const first = await runCli(["run", "--tasks", "builtin", "--task-id", "qa-builtin-05", "--model", "demo", "--json"], env);
    const original = parseJsonLines(first.stdout);
    const reflection = original.find((e) => e.type === "reflection-end")!;
    const checkpoint = original.find((e) => e.type === "checkpoint" && e.seq > reflection.seq)!;
    const fork = await runCli(
      ["fork", "--run", reflection.runId, "--at", String(checkpoint.seq), "--edit-reflection", reflection.id, "--text", "Trust the first page you find.", "--json"],
      env,
    );
    expect(fork.code, fork.stderr).toBe(0);
    const events = parseJsonLines(fork.stdout);
    const branchId = events.at(-1)!.branchId;
    const own = events.filter((e) => e.branchId === branchId);
    expect(own[0]).toMatchObject({ type: "branch-start", seq: checkpoint.seq + 1 });
    const calls = own.flatMap((e) => (e.type === "model-call-end" ? [e.data] : []));
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.every((call) => call.trial >= 2)).toBe(true);
    expect(calls[0]?.source).toBe("live");
    const live = Number(/: (\d+) live, (\d+) cached/.exec(fork.stderr)?.[1]);
    expect(live).toBe(calls.filter((call) => call.source === "live").length);
  });

  it("refuses a fork point that is not a checkpoint and lists the checkpoints", async () => {
    const first = await runCli(["run", "--tasks", "builtin", "--task-id", "qa-builtin-06", "--model", "demo", "--json"], env);
    const runId = parseJsonLines(first.stdout)[0]!.runId;
    const fork = await runCli(["fork", "--run", runId, "--at", "2"], env);
    expect(fork.code).toBe(2);
    expect(fork.stderr).toMatch(/Forks start at a checkpoint: seq 2 is a trial-start event\. Checkpoints here: 1 \(run start\)/);
  });
});
