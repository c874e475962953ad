import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { qaDemoScriptBook } from "@/lib/environments/qa";
import { demoReply } from "@/lib/llm/demo-model";
import { flattenMessages, startFakeOpenAIServer } from "../helpers/fake-openai-server";
import { runCli, spawnCli } from "./run-cli";

const root = path.resolve(__dirname, "../..");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cli-output-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Runs `cli … | head -n 1` in bash and returns the CLI's own exit status and stderr. */
function pipedIntoHead(args: string[], env: Record<string, string>): Promise<{ cliStatus: number; stderr: string; stdout: string }> {
  const command = `node --import tsx bin/cli.ts ${args.map((arg) => `'${arg}'`).join(" ")} | head -n 1; echo "status:\${PIPESTATUS[0]}" >&2`;
  return new Promise((resolve, reject) => {
    const child = spawn("bash", ["-c", command], { cwd: root, env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", NODE_ENV: "test", ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", () => resolve({ cliStatus: Number(/status:(\d+)/.exec(stderr)?.[1]), stderr: stderr.replace(/status:\d+\n?/, ""), stdout }));
  });
}

describe("CLI output", { tags: ["slow"] }, () => {
  it("output into a closed pipe (`| head`) ends quietly, with no stack trace", async () => {
    const result = await pipedIntoHead(["run", "--tasks", "builtin", "--task-id", "qa-builtin-02", "--strategy", "none", "--trials", "20", "--model", "demo", "--json"], {
      REFLEXION_DB_PATH: path.join(dir, "pipe.sqlite"),
    });
    expect(result.stdout.split("\n").filter(Boolean)).toHaveLength(1);
    expect(result.stderr).not.toMatch(/EPIPE|Error|at /);
    expect(result.cliStatus).toBe(0);
  }, 60_000);

  it("a provider failure gives the resume advice once, then the command", async () => {
    const server = await startFakeOpenAIServer({ respond: (messages) => demoReply([qaDemoScriptBook], flattenMessages(messages)) });
    try {
      server.failNext(10, { status: 503, message: "overloaded" });
      const result = await runCli(["run", "--tasks", "builtin", "--task-id", "qa-builtin-01", "--model", "compatible:fake-model"], {
        REFLEXION_DB_PATH: path.join(dir, "advice.sqlite"),
        OPENAI_COMPATIBLE_BASE_URL: server.baseUrl,
      });
      expect(result.code).toBe(1);
      expect(result.stdout.match(/resume the run/gi)).toHaveLength(1);
      expect(result.stdout.match(/npm run cli -- resume --run [0-9a-f-]{36}/g)).toHaveLength(1);
    } finally {
      await server.close();
    }
  }, 60_000);

  it("a bad REFLEXION_MODEL_TIMEOUT_S is refused before anything is recorded (exit 2, names the variable)", async () => {
    const result = await runCli(["run", "--tasks", "builtin", "--task-id", "qa-builtin-01", "--model", "demo", "--detach"], {
      REFLEXION_DB_PATH: path.join(dir, "bad-timeout.sqlite"),
      REFLEXION_MODEL_TIMEOUT_S: "-5",
    });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(/REFLEXION_MODEL_TIMEOUT_S must be a positive number of seconds \(got "-5"\)/);
  });

  it("`cli worker` keeps waiting for work until Ctrl-C, then stops cleanly", async () => {
    const child = spawnCli(["worker", "--concurrency", "1"], { REFLEXION_DB_PATH: path.join(dir, "idle-worker.sqlite") });
    let stderr = "";
    child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const closed = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
    let exitedEarly = false;
    void closed.then(() => (exitedEarly = true));
    // Ready first (on a loaded machine start-up alone can take seconds; a Ctrl-C before it just kills the process).
    const deadline = Date.now() + 15_000;
    while (!/executing queued runs/.test(stderr) && !exitedEarly && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(stderr).toMatch(/executing queued runs/);
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(exitedEarly).toBe(false);
    child.kill("SIGINT");
    expect(await closed).toBe(0);
    expect(stderr).toMatch(/stopped; at most 0 run\(s\) were in flight/);
  }, 40_000);
});
