import fs from "node:fs";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryRunStore } from "@/lib/db/memory-store";
import { createMcpServer } from "@/lib/mcp/server";
import { createServerContext, type ServerContext } from "@/lib/server/app-context";
import { reflectOnTraces, traceReflectionDeps } from "@/lib/server/trace-reflection";

/**
 * The MCP tools over an outside agent's imported traces (the docs' OTLP example) and the
 * reflections written on their failures with the demo model: what a coding assistant sees.
 */

let context: ServerContext;
let client: Client;
let runIds: string[] = [];

beforeAll(async () => {
  context = createServerContext({ store: new MemoryRunStore() });
  const bytes = new Uint8Array(fs.readFileSync(path.resolve("docs/examples/agent-traces.otlp.jsonl")));
  const imported = await context.traceImports.importFile({ name: "agent-traces.otlp.jsonl", bytes });
  runIds = imported.runIds;
  await reflectOnTraces(traceReflectionDeps(context), { experimentId: imported.experimentId, store: "my-agent" });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createMcpServer(context).connect(serverSide);
  client = new Client({ name: "test-client", version: "1.0.0" });
  await client.connect(clientSide);
}, 60_000);

afterAll(async () => {
  await client?.close();
  await context?.close();
});

async function call(name: string, args: Record<string, unknown> = {}) {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = result.content.map((part) => (part.type === "text" ? part.text : "")).join("");
  expect(result.isError, text).toBeFalsy();
  return JSON.parse(text) as Record<string, unknown> & { runs?: Array<{ id: string; family: string; outcome: string | null }>; trials?: Array<{ steps: unknown[]; verdict: unknown }>; entries?: Array<{ text: string; taskId: string }> };
}

describe("MCP over imported traces", () => {
  it("list_runs lists the imported traces under the external family, failures among them", async () => {
    const listed = await call("list_runs", { family: "external", limit: 50 });
    expect(listed.runs!.map((run) => run.id).sort()).toEqual([...runIds].sort());
    expect(listed.runs!.filter((run) => run.outcome === "failure").length).toBe(2);
  });

  it("get_trajectory returns a failed trace's recorded steps and its verdict from the trace", async () => {
    const failed = (await call("list_runs", { family: "external", outcome: "failure" })).runs![0]!;
    const trajectory = await call("get_trajectory", { runId: failed.id });
    const [trial] = trajectory.trials!;
    expect(trial!.steps.length).toBeGreaterThan(0);
    expect(JSON.stringify(trial!.verdict)).toMatch(/exact_match|fail/u);
  });

  it("get_reflections of the memory store returns the lessons written on the failures, by task", async () => {
    const all = await call("get_reflections", { store: "my-agent", family: "external" });
    expect(all.entries).toHaveLength(2);
    const one = await call("get_reflections", { store: "my-agent", task: all.entries![0]!.taskId });
    expect(one.entries!.map((entry) => entry.text)).toEqual([all.entries![0]!.text]);
  });

  it("get_reflections of a failed trace's run lists the lesson stored from it", async () => {
    const failed = (await call("list_runs", { family: "external", outcome: "failure" })).runs![0]!;
    const answer = (await call("get_reflections", { runId: failed.id })) as { reflections: unknown[]; stored: Array<{ store: string; text: string; reflectedOn: { kind: string } }> };
    expect(answer.reflections).toEqual([]);
    expect(answer.stored).toHaveLength(1);
    expect(answer.stored[0]).toMatchObject({ store: "my-agent", reflectedOn: { kind: "trace-reflection" } });
  });
});
