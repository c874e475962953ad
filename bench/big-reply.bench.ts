/**
 * Big-reply benchmark (part of `npm run bench`): an OpenAI-compatible model server streams 10 MB
 * for one Actor call, ignoring max_tokens, while an HTTP server in the same process (sharing the
 * event loop, as the web server does) answers requests from the same service every 50 ms.
 * Prints, per way of streaming (64 KiB pieces without a space — the worst case for the tokenizer
 * and the readers — and 16-character pieces, the most per-piece work):
 * - time from starting the run until it paused (the output limit, REFLEXION_MAX_OUTPUT_BYTES,
 *   256 KiB by default, stops the call);
 * - the largest event-loop delay meanwhile (perf_hooks.monitorEventLoopDelay, 10 ms resolution);
 * - the slowest answer of the concurrent HTTP requests;
 * - the largest RSS of the process meanwhile.
 * Asserts nothing (the test tests/server/big-reply.test.ts does, generously). Before the limit and
 * the linear readers, the same reply held the web server's event loop for about 15 minutes.
 */
import fs from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { monitorEventLoopDelay, performance } from "node:perf_hooks";
import { foldRun } from "@/lib/domain/fold-run";
import { SqliteRunStore } from "@/lib/db/sqlite-store";
import { createModelPort } from "@/lib/llm/model-port";
import { createServerContext } from "@/lib/server/app-context";
import { startFakeOpenAIServer } from "../tests/helpers/fake-openai-server";

const REPLY_BYTES = 10 * 1024 * 1024;

interface Figures {
  secondsToPause: number;
  status: string;
  maxLoopDelayMs: number;
  maxRequestMs: number;
  requests: number;
  maxRssMb: number;
}

async function measure(chunkChars: number): Promise<Figures> {
  const model = await startFakeOpenAIServer({ respond: () => "Thought 1: fine.\nAction 1: Finish[River Sallow]" });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "big-reply-bench-"));
  const env = { OPENAI_COMPATIBLE_BASE_URL: model.baseUrl };
  const context = createServerContext({ store: new SqliteRunStore(path.join(dir, "runs.db")), env, model: createModelPort({ env, maxRetries: 0 }), workers: { pollMs: 10 } });
  const web = createServer((_req, res) => {
    void context.service.listRuns(20).then((runs) => res.end(JSON.stringify({ runs: runs.length })));
  });
  await new Promise<void>((resolve) => web.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(web.address() as AddressInfo).port}/`;
  try {
    await (await fetch(url)).text();
    model.replyNext(1, { text: "Thought 1: " + "a".repeat(REPLY_BYTES - 11), chunkChars, ignoreMaxTokens: true });
    const delay = monitorEventLoopDelay({ resolution: 10 });
    let maxRss = process.memoryUsage().rss;
    let maxRequestMs = 0;
    let requests = 0;
    let polling = true;
    const poller = (async () => {
      while (polling) {
        const sent = performance.now();
        await (await fetch(url)).text();
        maxRequestMs = Math.max(maxRequestMs, performance.now() - sent);
        requests += 1;
        maxRss = Math.max(maxRss, process.memoryUsage().rss);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();
    delay.enable();
    const started = performance.now();
    const run = await context.service.createRun({ environment: "qa", taskSet: "builtin", taskId: "qa-builtin-01", strategy: "reflexion", modelId: "compatible:fake-model", maxTrials: 1 });
    await context.workers.untilSettled(run.rootBranchId);
    const secondsToPause = (performance.now() - started) / 1000;
    await new Promise((resolve) => setTimeout(resolve, 200));
    polling = false;
    await poller;
    delay.disable();
    const state = foldRun((await context.service.events(run.id)).events);
    return { secondsToPause, status: state.status, maxLoopDelayMs: delay.max / 1e6, maxRequestMs, requests, maxRssMb: maxRss / 1024 / 1024 };
  } finally {
    await context.workers.stop();
    await context.close?.();
    await new Promise<void>((resolve) => web.close(() => resolve()));
    await model.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  console.log(`Big reply: a model server streams ${REPLY_BYTES / 1024 / 1024} MB for one Actor call (output limit 256 KiB)`);
  for (const [label, chunkChars] of [["64 KiB pieces", 64 * 1024], ["16-character pieces", 16]] as const) {
    const f = await measure(chunkChars);
    console.log(
      `  ${label.padEnd(20)} run ${f.status} after ${f.secondsToPause.toFixed(2)} s · max event-loop delay ${f.maxLoopDelayMs.toFixed(0)} ms · slowest concurrent request ${f.maxRequestMs.toFixed(0)} ms (${f.requests} requests) · max RSS ${f.maxRssMb.toFixed(0)} MB`,
    );
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
