import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServerContext } from "@/lib/server/app-context";
import { runCliWithInput } from "../cli/run-cli";

const root = path.resolve(__dirname, "../..");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rp-mcp-stdio-"));
const dbPath = path.join(dir, "stdio.sqlite");
let runId = "";

/** The database the server reads: one demo Reflexion run. */
beforeAll(async () => {
  const context = createServerContext({ env: { REFLEXION_DB_PATH: dbPath } });
  try {
    const run = await context.service.createRun({ environment: "qa", taskSet: "builtin", taskId: "qa-builtin-01", strategy: "reflexion", modelId: "demo" });
    await context.workers.untilSettled(run.rootBranchId);
    runId = run.id;
  } finally {
    await context.close();
  }
}, 60_000);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("cli mcp over stdio", () => {
  it("answers list_runs to the SDK's stdio client, started as docs/mcp.md configures it (npm --prefix <clone> run --silent cli -- mcp, from another folder)", { timeout: 60_000 }, async () => {
    let stderr = "";
    const transport = new StdioClientTransport({
      command: "npm",
      args: ["--prefix", root, "run", "--silent", "cli", "--", "mcp"],
      // Not the clone: a client starts the server from wherever it runs.
      cwd: os.tmpdir(),
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", REFLEXION_ENV_FILES: "off", REFLEXION_DB_PATH: dbPath },
      stderr: "pipe",
    });
    transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const client = new Client({ name: "stdio-test", version: "1.0.0" });
    try {
      // Anything but JSON-RPC on the server's stdout would fail the handshake or this call.
      await client.connect(transport);
      expect(client.getServerVersion()).toMatchObject({ name: "reflexion-playground" });
      const result = (await client.callTool({ name: "list_runs", arguments: { limit: 5 } })) as CallToolResult;
      expect(result.isError, stderr).toBeFalsy();
      const runs = (result.structuredContent as { runs: Array<{ id: string; outcome: string | null }> }).runs;
      expect(runs).toEqual([expect.objectContaining({ id: runId, family: "qa", taskId: "qa-builtin-01", outcome: "success" })]);
    } finally {
      await client.close();
    }
    expect(stderr).toContain("MCP server ready on stdio");
  });

  it("answers every request a client pipes in before it closes stdin, prints only JSON-RPC on stdout and exits 0", { timeout: 60_000 }, async () => {
    const lines = [
      { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "pipe", version: "1" } } },
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "search_steps", arguments: { query: "dunmere", limit: 3 } } },
      { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "get_trajectory", arguments: { runId: "no-such-run" } } },
    ];
    const result = await runCliWithInput(["mcp"], { REFLEXION_DB_PATH: dbPath }, lines.map((line) => `${JSON.stringify(line)}\n`).join(""));
    expect(result.code, result.stderr).toBe(0);
    // JSON-RPC answers may come in any order (search_steps refreshes the search index first): match them by id.
    const answers = result.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { id: number; result: { isError?: boolean; structuredContent?: { matches: Array<{ runId: string }> }; content: Array<{ text: string }> } })
      .sort((a, b) => a.id - b.id);
    expect(answers.map((answer) => answer.id)).toEqual([1, 2, 3]);
    expect(answers[1]!.result.structuredContent!.matches.map((match) => match.runId)).toContain(runId);
    expect(answers[2]!.result.isError).toBe(true);
    expect(answers[2]!.result.content[0]!.text).toMatch(/^No run no-such-run\./u);
  });
});
