import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// The route uses the process-wide context: point it at a private database before importing it.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rp-mcp-route-"));
process.env.REFLEXION_DB_PATH = path.join(dir, "mcp-route.sqlite");

let route: typeof import("@/app/api/mcp/route");
let runId = "";

beforeAll(async () => {
  route = await import("@/app/api/mcp/route");
  const { getServerContext } = await import("@/lib/server/app-context");
  const context = getServerContext();
  const run = await context.service.createRun({ environment: "qa", taskSet: "builtin", taskId: "qa-builtin-02", strategy: "reflexion", modelId: "demo" });
  await context.workers.untilSettled(run.rootBranchId);
  runId = run.id;
}, 60_000);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** The route's handlers as the client's fetch: each request goes to POST, GET or DELETE of app/api/mcp/route.ts. */
async function routeFetch(url: string | URL, init?: RequestInit): Promise<Response> {
  const request = new Request(url, init);
  const handler = { POST: route.POST, GET: route.GET, DELETE: route.DELETE }[request.method as "POST" | "GET" | "DELETE"];
  return handler ? handler(request) : new Response(null, { status: 405 });
}

describe("POST /api/mcp (Streamable HTTP, stateless)", () => {
  it("serves the SDK's Streamable HTTP client: tools listed, get_trajectory answered", async () => {
    const client = new Client({ name: "http-test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL("http://127.0.0.1:3000/api/mcp"), { fetch: routeFetch }));
    try {
      expect((await client.listTools()).tools).toHaveLength(6);
      const result = (await client.callTool({ name: "get_trajectory", arguments: { runId } })) as CallToolResult;
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toMatchObject({ run: { id: runId, taskId: "qa-builtin-02" } });
      expect((result.structuredContent as { trials: unknown[] }).trials.length).toBeGreaterThan(0);
    } finally {
      await client.close();
    }
  });

  it("refuses another site's page (Origin) with 403 and GET with 405", async () => {
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" });
    const headers = { "content-type": "application/json", accept: "application/json, text/event-stream", host: "127.0.0.1:3000" };
    const foreign = await route.POST(new Request("http://127.0.0.1:3000/api/mcp", { method: "POST", body, headers: { ...headers, origin: "http://evil.example" } }));
    expect(foreign.status).toBe(403);
    const get = await route.GET();
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST");
  });
});
