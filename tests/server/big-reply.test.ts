import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunEvent, RunEventOf } from "@/lib/domain/events";
import { foldRun } from "@/lib/domain/fold-run";
import { MemoryRunStore } from "@/lib/db/memory-store";
import { createModelPort } from "@/lib/llm/model-port";
import { createServerContext, type ServerContext } from "@/lib/server/app-context";
import { startFakeOpenAIServer, type FakeOpenAIServer } from "../helpers/fake-openai-server";

/**
 * A model server streaming 10 MB for one Actor call, on the path a user's run takes (RunService →
 * worker pool → engine → the AI SDK's OpenAI-compatible provider → SSE), while an HTTP server in
 * the same process (sharing the event loop, as the web server does) answers other requests from
 * the same service. The run must pause within seconds with a message, the other requests must
 * keep being answered, and memory must stay bounded.
 */

let model: FakeOpenAIServer;
let context: ServerContext;
let web: Server;
let webUrl: string;

beforeAll(async () => {
  model = await startFakeOpenAIServer({ respond: () => "Thought 1: fine.\nAction 1: Finish[River Sallow]" });
  const env = { OPENAI_COMPATIBLE_BASE_URL: model.baseUrl };
  context = createServerContext({ store: new MemoryRunStore(), env, model: createModelPort({ env, maxRetries: 0 }), workers: { pollMs: 10 } });
  web = createServer((req, res) => {
    void context.service.listRuns(20).then(
      (runs) => {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ runs: runs.length }));
      },
      (error: unknown) => {
        res.writeHead(500);
        res.end(String(error));
      },
    );
  });
  await new Promise<void>((resolve) => web.listen(0, "127.0.0.1", resolve));
  webUrl = `http://127.0.0.1:${(web.address() as AddressInfo).port}/runs`;
});

afterAll(async () => {
  await context.workers.stop();
  await new Promise<void>((resolve) => web.close(() => resolve()));
  await model.close();
});

const ofType = <T extends RunEvent["type"]>(events: readonly RunEvent[], type: T) => events.filter((e): e is RunEventOf<T> => e.type === type);

describe("a 10 MB model reply", () => {
  it("pauses the run within seconds with output-too-large; the web server answers throughout; memory stays bounded", async () => {
    // A model that ignores max_tokens and streams 10 MB without a space in 64 KiB pieces (the worst case
    // for the tokenizer and the readers), then a normal answer after a resume.
    model.replyNext(1, { text: "Thought 1: " + "a".repeat(10 * 1024 * 1024), chunkChars: 64 * 1024, ignoreMaxTokens: true });
    // Warm up (module loading, the first request) before measuring.
    await fetch(webUrl).then((r) => r.json());

    const rssBefore = process.memoryUsage().rss;
    let maxRss = rssBefore;
    const latencies: number[] = [];
    let polling = true;
    const poller = (async () => {
      while (polling) {
        const sent = performance.now();
        const response = await fetch(webUrl);
        await response.json();
        latencies.push(performance.now() - sent);
        maxRss = Math.max(maxRss, process.memoryUsage().rss);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();

    const started = performance.now();
    const run = await context.service.createRun({ environment: "qa", taskSet: "builtin", taskId: "qa-builtin-01", strategy: "reflexion", modelId: "compatible:fake-model", maxTrials: 1 });
    await context.workers.untilSettled(run.rootBranchId);
    const seconds = (performance.now() - started) / 1000;
    // Keep polling a little after the pause: what follows it (events to subscribers) must not block either.
    await new Promise((resolve) => setTimeout(resolve, 300));
    polling = false;
    await poller;

    const events = (await context.service.events(run.id)).events;
    const state = foldRun(events);
    expect(state.status).toBe("paused");
    expect(state.pause?.reason).toBe("model-error");
    expect(state.pause?.detail).toMatch(/more than 262,144 bytes \(REFLEXION_MAX_OUTPUT_BYTES\)/);
    const [error] = ofType(events, "model-call-error");
    expect(error?.data).toMatchObject({ code: "output-too-large", role: "actor", step: 1, output: { limitBytes: 262_144 } });
    // Nothing of the reply was recorded or parsed as a step.
    expect(ofType(events, "model-call-end")).toHaveLength(0);
    expect(ofType(events, "step-thought")).toHaveLength(0);

    expect(seconds).toBeLessThan(10);
    expect(latencies.length).toBeGreaterThan(0);
    expect(Math.max(...latencies)).toBeLessThan(1000);
    // Bounded: well under the 10 MB reply's cost (the CLI reached 1 GB on it).
    expect(maxRss - rssBefore).toBeLessThan(200 * 1024 * 1024);

    // Resumed, the model answers normally and the run goes on.
    await context.service.resume(run.id);
    await context.workers.untilSettled(run.rootBranchId);
    const after = foldRun((await context.service.events(run.id)).events);
    expect(after.status).toBe("ended");
    expect(after.outcome).toBe("success");
  }, 60_000);
});
