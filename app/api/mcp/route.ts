import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { createMcpServer } from "@/lib/mcp/server";
import { getServerContext } from "@/lib/server/app-context";
import { handle } from "@/lib/server/http-errors";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** JSON-RPC bodies are small (tool calls with a few arguments). */
const MAX_MCP_BODY_BYTES = 256 * 1024;

/**
 * True when the request comes from a page of another site: MCP's Streamable HTTP transport must
 * check `Origin` (DNS rebinding). MCP clients send no Origin; a browser on this app sends its own.
 */
function foreignOrigin(request: Request): boolean {
  const origin = request.headers.get("origin");
  if (origin === null) return false;
  try {
    return new URL(origin).host !== (request.headers.get("host") ?? new URL(request.url).host);
  } catch {
    return true;
  }
}

/**
 * `POST /api/mcp`: the read-only MCP server (lib/mcp/server.ts) over Streamable HTTP, stateless
 * (no session; a new server and transport per request, answers as JSON rather than an SSE stream).
 * Clients connect to `http://127.0.0.1:3000/api/mcp` (docs/mcp.md). A request with another site's
 * `Origin` is refused (403).
 */
export const POST = handle(async (request: Request) => {
  if (foreignOrigin(request)) return Response.json({ error: { code: "forbidden", message: "MCP requests from another site's page are refused." } }, { status: 403 });
  const server = createMcpServer(getServerContext());
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true, maxRequestBodySize: MAX_MCP_BODY_BYTES });
  await server.connect(transport);
  const response = await transport.handleRequest(request);
  // Stateless: the answer is complete (JSON, not a stream), so the per-request server can go.
  void server.close().catch(() => undefined);
  return response;
});

/** The stateless server offers no server-to-client stream and no session to end (MCP allows 405 for both). */
function notAllowed(): Response {
  return Response.json({ error: { code: "method-not-allowed", message: "Send MCP JSON-RPC requests with POST; this server is stateless (no SSE stream, no session)." } }, { status: 405, headers: { allow: "POST" } });
}
// Through handle() like every route, so an anonymous or under-privileged client gets 401/403 before the 405.
export const GET = handle(async () => notAllowed());
export const DELETE = handle(async () => notAllowed());
