import type { LanguageModelV3StreamPart } from "@ai-sdk/provider";
import { sql } from "drizzle-orm";
import { simulateReadableStream } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunEvent } from "@/lib/domain/events";
import { liveCallMessageSchema, type LiveCallMessage } from "@/lib/domain/live-call";
import { LIVE_CHANNEL, openNodePostgres } from "@/lib/db/pg/database";
import { PgRunStore } from "@/lib/db/pg/pg-store";
import { qaDemoScriptBook } from "@/lib/environments/qa";
import { demoReply } from "@/lib/llm/demo-model";
import { createModelPort } from "@/lib/llm/model-port";
import { createServerContext, type ServerContext } from "@/lib/server/app-context";
import { PgFanOut } from "@/lib/server/pg-notify-bus";
import { RunEventBus } from "@/lib/server/run-event-bus";
import { runEventStream } from "@/lib/server/run-event-stream";
import { startPostgresServer, type PostgresServer } from "../helpers/postgres-server";
import { promptText } from "../helpers/mock-model";
import { makeRunConfig } from "../helpers/run-config";

// Two app servers and a worker on one PostgreSQL database; each keeps one LISTEN
// connection and fans appends (and the worker's token deltas) out to its own SSE clients.

let server: PostgresServer;
beforeAll(async () => {
  server = await startPostgresServer();
}, 90_000);
afterAll(() => server?.stop());

const usage = {
  inputTokens: { total: 100, noCache: 100, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 10, text: 10, reasoning: undefined },
};

/** The demo model's replies, one character a chunk, 3 ms apart, once `gate` has resolved. */
function streamingModel(gate: Promise<void>) {
  return new MockLanguageModelV3({
    doStream: async (call) => {
      await gate;
      const text = demoReply([qaDemoScriptBook], promptText(call));
      const chunks: LanguageModelV3StreamPart[] = [
        { type: "text-start", id: "t" },
        ...text.split("").map((delta): LanguageModelV3StreamPart => ({ type: "text-delta", id: "t", delta })),
        { type: "text-end", id: "t" },
        { type: "finish", finishReason: { unified: "stop", raw: undefined }, usage },
      ];
      return { stream: simulateReadableStream({ chunks, initialDelayInMs: null, chunkDelayInMs: 3 }) };
    },
  });
}

async function freshDatabase(): Promise<string> {
  const url = await server.createDatabase("fanout");
  const migrator = new PgRunStore(openNodePostgres(url), { migrate: "apply" });
  await migrator.ready();
  await migrator.close();
  return url;
}

/** An "app server": its own pool of connections, its own bus and LISTEN connection; it drives nothing. */
function appServer(url: string): ServerContext {
  return createServerContext({ store: new PgRunStore(openNodePostgres(url, { max: 4 })), startWorkers: false });
}

/** Reads an SSE response until `run-end` (or `ms`), collecting run events and live-call messages. */
async function readStream(response: Response, ms = 30_000): Promise<{ events: RunEvent[]; live: LiveCallMessage[] }> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  const events: RunEvent[] = [];
  const live: LiveCallMessage[] = [];
  let buffer = "";
  const deadline = Date.now() + ms;
  while (!events.some((event) => event.type === "run-end")) {
    if (Date.now() > deadline) throw new Error(`no run-end within ${ms} ms (got ${events.length} events)`);
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let cut: number;
    while ((cut = buffer.indexOf("\n\n")) !== -1) {
      const message = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      const type = /^event: (.+)$/m.exec(message)?.[1];
      const data = /^data: (.+)$/m.exec(message)?.[1];
      if (type === "live-call" && data) live.push(liveCallMessageSchema.parse(JSON.parse(data)));
      if (type === "run-event" && data) events.push(JSON.parse(data) as RunEvent);
    }
  }
  await reader.cancel().catch(() => undefined);
  return { events, live };
}

describe("fan-out across app servers (pg_notify)", () => {
  it("SSE clients of two app servers see the same events in order, and the remote worker's token deltas, as a third process drives the run", async () => {
    const url = await freshDatabase();
    const a = appServer(url);
    const b = appServer(url);
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const worker = createServerContext({
      store: new PgRunStore(openNodePostgres(url, { max: 4 })),
      model: createModelPort({ resolveModel: () => streamingModel(gate), maxRetries: 0 }),
      workers: { pollMs: 20, intentPollMs: 20 },
    });
    await Promise.all([a.fanOut?.ready, b.fanOut?.ready, worker.fanOut?.ready]);
    expect(a.fanOut && b.fanOut && worker.fanOut).toBeTruthy();

    const run = await a.service.createRun({ environment: "qa", taskSet: "builtin", taskId: "qa-builtin-01", strategy: "reflexion", modelId: "demo", maxTrials: 1 });
    // What app server A's bus hears (only the fan-out publishes there: A appends nothing after creating the run).
    const heardOnA: RunEvent[] = [];
    const unsubscribe = a.bus.subscribe(run.id, (events) => heardOnA.push(...events));
    const abort = new AbortController();
    const clientA = readStream(runEventStream(a.service, a.bus, run.id, run.rootBranchId, 0, abort.signal));
    const clientB = readStream(runEventStream(b.service, b.bus, run.id, run.rootBranchId, 0, abort.signal));
    // The worker relays token deltas only of runs someone watches: it hears of A's and B's viewers over NOTIFY.
    await until(() => worker.fanOut?.watched(run.id) === true, "the worker hearing that the run is watched");
    open(); // the model answers once both clients are connected
    const [seenA, seenB] = await Promise.all([clientA, clientB]);
    abort.abort();
    unsubscribe();

    const stored = await a.store.list(run.id, run.rootBranchId);
    const ids = (events: RunEvent[]) => events.map((event) => `${event.seq}:${event.type}:${event.id}`);
    expect(ids(seenA.events)).toEqual(ids(stored));
    expect(ids(seenB.events)).toEqual(ids(stored));
    expect(stored.map((event) => event.seq)).toEqual(stored.map((_, i) => i + 1));
    // The worker's appends reached A's bus through NOTIFY (not only the streams' 1 s poll).
    expect(heardOnA.length).toBeGreaterThan(0);
    expect(heardOnA.every((event) => stored.some((s) => s.id === event.id))).toBe(true);
    // Token deltas of the call the worker drives reached both app servers' clients, and add up to what was recorded.
    const firstEnd = stored.find((event) => event.type === "model-call-end");
    if (firstEnd?.type !== "model-call-end") throw new Error("no model call was recorded");
    for (const seen of [seenA, seenB]) {
      const deltas = seen.live.filter((message) => message.kind === "token-delta" && message.trial === firstEnd.data.trial && message.step === firstEnd.data.step && message.role === firstEnd.data.role);
      expect(deltas.length).toBeGreaterThan(1);
      expect(deltas.map((message) => (message.kind === "token-delta" ? message.text : "")).join("")).toBe(firstEnd.data.outputText);
    }
    await worker.workers.stop();
    for (const context of [a, b, worker]) {
      await context.fanOut?.stop();
      await context.store.close();
    }
  }, 60_000);

  it("a missed notification costs latency, never data: with no LISTEN at all, a client still gets every event by seq", async () => {
    const url = await freshDatabase();
    const deaf = appServer(url);
    await deaf.fanOut?.stop();
    const writer = new PgRunStore(openNodePostgres(url, { max: 2 }));
    const run = await deaf.service.createRun({ environment: "qa", taskSet: "builtin", taskId: "qa-builtin-01", strategy: "none", modelId: "demo", maxTrials: 1 });
    const abort = new AbortController();
    const client = readStream(runEventStream(deaf.service, deaf.bus, run.id, run.rootBranchId, 0, abort.signal), 20_000);
    await writer.append(run.id, run.rootBranchId, [{ type: "run-end", data: { outcome: "failure", trials: 0 } }]);
    const seen = await client;
    abort.abort();
    expect(seen.events.map((event) => event.type)).toEqual(["run-start", "run-end"]);
    await writer.close();
    await deaf.store.close();
  }, 30_000);

  it("reconnects its LISTEN connection after the server drops it, and fans out again", async () => {
    const url = await freshDatabase();
    const store = new PgRunStore(openNodePostgres(url, { max: 2 }));
    const writer = new PgRunStore(openNodePostgres(url, { max: 2 }));
    const bus = new RunEventBus();
    const fanOut = new PgFanOut(store, bus);
    await fanOut.start();
    const run = await writer.createRun({ config: makeRunConfig(), title: "Q?" });
    const heard: RunEvent[] = [];
    // The run-start's own notification may or may not arrive after this subscription: count the pauses only.
    bus.subscribe(run.id, (events) => heard.push(...events.filter((event) => event.type === "run-pause")));
    const pause = (detail: string) => ({ type: "run-pause" as const, data: { reason: "user" as const, detail } });
    await writer.append(run.id, run.rootBranchId, [pause("before")]);
    await until(() => heard.length === 1, "the first notification");
    // Drop every LISTEN connection (as a database restart or a network cut would).
    const admin = openNodePostgres(url, { max: 1 });
    await admin.db.execute(sql`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE 'LISTEN%' AND pid <> pg_backend_pid()`);
    await until(() => fanOut.connects >= 2, "a reconnect");
    await writer.append(run.id, run.rootBranchId, [pause("after")]);
    await until(() => heard.length === 2, "a notification after the reconnect");
    expect(heard.map((event) => (event.type === "run-pause" ? event.data.detail : event.type))).toEqual(["before", "after"]);
    expect(fanOut.connects).toBe(2);
    await fanOut.stop();
    await admin.close();
    await store.close();
    await writer.close();
  }, 30_000);
});

describe("token deltas of remote workers", () => {
  it("are relayed only while someone watches the run, in order, long texts cut to fit NOTIFY's payload limit", async () => {
    const url = await freshDatabase();
    const workerStore = new PgRunStore(openNodePostgres(url, { max: 2 }));
    const viewerStore = new PgRunStore(openNodePostgres(url, { max: 2 }));
    const workerBus = new RunEventBus();
    const viewerBus = new RunEventBus();
    const workerFanOut = new PgFanOut(workerStore, workerBus);
    const viewerFanOut = new PgFanOut(viewerStore, viewerBus);
    await Promise.all([workerFanOut.start(), viewerFanOut.start()]);
    // Everything that crosses the database on the live channel.
    const tap = openNodePostgres(url, { max: 1 });
    let notifications = 0;
    const stopTap = await tap.listen([LIVE_CHANNEL], () => notifications++, () => undefined);
    const base = { branchId: "b1", role: "actor" as const, trial: 1, step: 1, startedAt: "2026-12-01T10:00:00.000Z" };

    workerBus.publishLive("run-x", { kind: "token-delta", ...base, text: "nobody watches" });
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(notifications).toBe(0);

    const received: LiveCallMessage[] = [];
    const unsubscribe = viewerBus.subscribeLive("run-x", (message) => received.push(message));
    await until(() => workerFanOut.watched("run-x"), "the worker hearing of the viewer");
    const long = "é".repeat(4500) + "\ud83d\ude00" + "x".repeat(10); // > 8000 bytes as one JSON payload
    workerBus.publishLive("run-x", { kind: "call-start", ...base });
    workerBus.publishLive("run-x", { kind: "token-delta", ...base, text: long });
    workerBus.publishLive("run-x", { kind: "call-end", ...base });
    await until(() => received.some((message) => message.kind === "call-end"), "the relayed call-end");
    expect(received[0]?.kind).toBe("call-start");
    const text = received.map((message) => (message.kind === "token-delta" ? message.text : "")).join("");
    expect(text).toBe(long);
    expect(received.filter((message) => message.kind === "token-delta").length).toBeGreaterThan(1);
    // The tap is a connection of its own: its copies of the notifications may arrive a little after the viewer's.
    await until(() => notifications >= received.length, "the tap to see every relayed notification");
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(notifications).toBe(received.length);
    unsubscribe();
    await stopTap();
    await Promise.all([workerFanOut.stop(), viewerFanOut.stop()]);
    await Promise.all([tap.close(), workerStore.close(), viewerStore.close()]);
  }, 30_000);
});

async function until(probe: () => boolean, what: string, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
