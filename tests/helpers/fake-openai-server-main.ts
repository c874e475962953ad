/**
 * Runs the fake OpenAI-compatible server as a standalone process, answering
 * like the offline demo model (the QA demo script book, then the demo model's
 * generic fallback):
 *
 *   npx tsx tests/helpers/fake-openai-server-main.ts --port 1234 [--chunk-delay-ms 20] [--hang-requests 3]
 *
 * `--hang-requests N`: the first N chat requests are accepted and never answered
 * (a model server that stopped answering); later ones are answered.
 *
 * Port: `--port`, else the PORT env var, else a free one. It prints
 * `Fake OpenAI-compatible server listening on http://127.0.0.1:<port>/v1`
 * (one line, so scripts can wait for it) and stops on SIGINT/SIGTERM.
 * Point the app at it with `OPENAI_COMPATIBLE_BASE_URL=<that URL>` and model
 * id `compatible:fake-model`.
 */
import { parseArgs } from "node:util";
import { qaDemoScriptBook } from "@/lib/environments/qa/demo-script";
import { demoReply } from "@/lib/llm/demo-model";
import { flattenMessages, startFakeOpenAIServer } from "./fake-openai-server";

function parseNonNegativeInt(value: string | undefined, name: string, max: number): number | undefined {
  if (value === undefined || value === "") return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > max) {
    console.error(`${name} must be an integer between 0 and ${max}, got "${value}".`);
    process.exit(2);
  }
  return n;
}

const { values } = parseArgs({
  options: { port: { type: "string" }, "chunk-delay-ms": { type: "string" }, "hang-requests": { type: "string" } },
  strict: true,
});

const port = parseNonNegativeInt(values.port ?? process.env.PORT, "--port / PORT", 65_535) ?? 0;
const chunkDelayMs = parseNonNegativeInt(values["chunk-delay-ms"], "--chunk-delay-ms", 10_000) ?? 0;
const hangRequests = parseNonNegativeInt(values["hang-requests"], "--hang-requests", 1_000_000) ?? 0;

async function main(): Promise<void> {
  const server = await startFakeOpenAIServer({
    port,
    chunkDelayMs,
    respond: (messages) => demoReply([qaDemoScriptBook], flattenMessages(messages)),
  });
  if (hangRequests > 0) server.hangNext(hangRequests);
  console.log(`Fake OpenAI-compatible server listening on ${server.baseUrl}`);

  let closing = false;
  const shutdown = () => {
    if (closing) return;
    closing = true;
    void server.close().finally(() => process.exit(0));
  };
  process.on("SIGINT", shutdown);
  process.on("SIGTERM", shutdown);
}

main().catch((error: unknown) => {
  console.error(`Could not start the fake server: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
