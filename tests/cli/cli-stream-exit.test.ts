import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { qaDemoScriptBook } from "@/lib/environments/qa/demo-script";
import { demoReply } from "@/lib/llm/demo-model";
import { flattenMessages, startFakeOpenAIServer, type FakeOpenAIServer } from "../helpers/fake-openai-server";
import { runCli, spawnCli } from "./run-cli";

/**
 * `cli run` against a model server that drops a connection mid-response: the broken-off call is
 * asked again and the run ends; the process must then exit at once. The stream's idle timer was
 * not cleared when the connection closed, and kept the CLI alive for REFLEXION_MODEL_TIMEOUT_S
 * (here 60 s) after its run had ended.
 */

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "rp-cli-stream-"));
let server: FakeOpenAIServer;
beforeAll(async () => {
  server = await startFakeOpenAIServer({ respond: (messages) => demoReply([qaDemoScriptBook], flattenMessages(messages)) });
});
afterAll(async () => {
  await server.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe("CLI: model streams", () => {
  it("after a stream cut by a TCP close, the run ends and the process exits promptly (no timer left armed)", async () => {
    server.cutNextStream({ afterChunks: 2 });
    const child = spawnCli(
      ["run", "--env", "qa", "--tasks", "builtin", "--task-id", "qa-builtin-01", "--strategy", "none", "--model", "compatible:fake-model", "--json"],
      { REFLEXION_DB_PATH: path.join(tmp, "cut.sqlite"), OPENAI_COMPATIBLE_BASE_URL: server.baseUrl, REFLEXION_MODEL_TIMEOUT_S: "60" },
    );
    let stdout = "";
    let stderr = "";
    let runEndedAt: number | null = null;
    child.stdout?.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      if (runEndedAt === null && stdout.includes('"type":"run-end"')) runEndedAt = performance.now();
    });
    child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    const exitedAt = performance.now();
    expect(code, stderr).toBe(0);
    expect(runEndedAt).not.toBeNull();
    // The cut call was asked again: more requests than steps, and the run still ended.
    expect(server.chatRequests().length).toBeGreaterThan(1);
    // Generous: the process exits once its run has ended, far sooner than the 60 s limit.
    expect(exitedAt - runEndedAt!).toBeLessThan(20_000);
  }, 120_000);

  it("a base URL with user:password@ is refused at start-up with the message, and the password is never printed", async () => {
    const result = await runCli(["run", "--env", "qa", "--tasks", "builtin", "--task-id", "qa-builtin-01", "--model", "compatible:fake-model"], {
      REFLEXION_DB_PATH: path.join(tmp, "creds.sqlite"),
      OPENAI_COMPATIBLE_BASE_URL: `http://me:cli-secret-pw@127.0.0.1:${server.port}/v1`,
    });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/OPENAI_COMPATIBLE_BASE_URL must not contain a user name or password/);
    expect(result.stdout + result.stderr).not.toContain("cli-secret-pw");
  }, 120_000);
});
