import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { Command } from "commander";
import { createMcpServer } from "@/lib/mcp/server";
import { cliContext } from "./context";

/**
 * `cli mcp`: the playground's read-only MCP server (lib/mcp/server.ts) over stdio, for Claude Desktop,
 * Claude Code, Cursor or an MCP inspector (docs/mcp.md). stdout carries the protocol's JSON-RPC
 * messages and nothing else: every console method writes to stderr while the server runs, and the
 * command prints nothing of its own to stdout. It ends when the client closes stdin (once the
 * requests it sent are answered) or on SIGINT / SIGTERM, then releases the database.
 */

/** Sends console.log / info / debug to stderr, so no library's log line lands in the protocol stream. */
function consoleToStderr(): void {
  const toStderr = (...args: unknown[]) => console.error(...args);
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
}

/** Longest wait for answers still being worked on once the client has closed stdin (ms). */
const DRAIN_MS = 30_000;

/**
 * Counts the requests the transport has received and not yet answered, so the command can let them
 * finish when stdin ends (a client that pipes its requests and closes stdin still gets its answers).
 */
function trackInFlight(transport: StdioServerTransport): { idle(): Promise<void> } {
  const pending = new Set<string | number>();
  let wake: (() => void) | null = null;
  const received = transport.onmessage;
  transport.onmessage = (message: JSONRPCMessage) => {
    if ("method" in message && "id" in message) pending.add(message.id);
    received?.(message);
  };
  const send = transport.send.bind(transport);
  transport.send = async (message: JSONRPCMessage) => {
    await send(message);
    if (!("method" in message) && "id" in message && message.id !== undefined && pending.delete(message.id) && pending.size === 0) wake?.();
  };
  return {
    idle: () =>
      pending.size === 0
        ? Promise.resolve()
        : new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, DRAIN_MS);
            wake = () => {
              clearTimeout(timer);
              resolve();
            };
          }),
  };
}

/** Registers `mcp`. */
export function registerMcpCommand(program: Command): void {
  program
    .command("mcp")
    .description("Serve the playground's read-only MCP tools (list_runs, get_trajectory, get_reflections, search_steps, list_experiments, get_experiment_summary) over stdio, for MCP clients (docs/mcp.md).")
    .action(async () => {
      consoleToStderr();
      const context = cliContext();
      const server = createMcpServer(context);
      try {
        const closed = new Promise<void>((resolve) => {
          const stop = () => resolve();
          process.stdin.once("end", stop);
          process.stdin.once("close", stop);
          process.once("SIGINT", stop);
          process.once("SIGTERM", stop);
        });
        const transport = new StdioServerTransport();
        await server.connect(transport);
        const inFlight = trackInFlight(transport);
        process.stderr.write(`reflexion-playground MCP server ready on stdio (read-only).\n`);
        await closed;
        await inFlight.idle();
      } finally {
        await server.close().catch(() => undefined);
        await context.close();
      }
    });
}
