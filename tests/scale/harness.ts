import { spawn, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { openNodePostgres } from "@/lib/db/pg/database";
import { PgRunStore } from "@/lib/db/pg/pg-store";
import { qaDemoScriptBook } from "@/lib/environments/qa/demo-script";
import { demoReply } from "@/lib/llm/demo-model";
import { createServerContext, type ServerContext } from "@/lib/server/app-context";
import { QueueingWorkerPool } from "@/lib/server/job-queue/queueing-pool";
import { flattenMessages, startFakeOpenAIServer, type FakeOpenAIServer, type FakeOpenAIServerOptions, type RecordedRequest } from "../helpers/fake-openai-server";
import { startPostgresServer, type PostgresServer } from "../helpers/postgres-server";

/**
 * Shared mode on one machine for the scale tests and `bench/scale`: the machine's
 * PostgreSQL in a temp dir (tests/helpers/postgres-server.ts), a fake OpenAI-compatible server
 * answering like the QA demo model after a fixed latency, a producer context in this process
 * (creates runs and experiments, reconciles them into pg-boss jobs) and `cli worker` child
 * processes — the same command a lab runs on other machines.
 */
export interface ScaleHarness {
  readonly pg: PostgresServer;
  readonly databaseUrl: string;
  readonly fake: FakeOpenAIServer;
  /** The environment every process gets (database, model server, job timings). */
  readonly env: Record<string, string>;
  /** The producer: creates runs, reconciles them into jobs; never drives a branch. */
  readonly producer: ServerContext;
  /** The producer's pool, to await a reconciliation. */
  readonly pool: QueueingWorkerPool;
  startWorker(options?: { concurrency?: number; env?: Record<string, string> }): WorkerProcess;
  stop(): Promise<void>;
}

/** A `cli worker` child process and the lines it printed. */
export interface WorkerProcess {
  readonly child: ChildProcess;
  readonly lines: string[];
  /** Runs this worker reported as started, in order. */
  started(): string[];
  /** Resolves when a printed line matches. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<string>;
  /** Resolves when the process has exited. */
  exited: Promise<number | null>;
}

/** The repository root (child processes run there). */
export const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../..");
// tsx's own CLI runs the script in a child process (a SIGKILL of the CLI would leave that child
// running): load tsx into one process instead, as its CLI does for its child.
export const TSX_ARGS = ["--require", path.join(ROOT, "node_modules/tsx/dist/preflight.cjs"), "--import", pathToFileURL(path.join(ROOT, "node_modules/tsx/dist/loader.mjs")).href];

/** Options of {@link startScaleHarness}. */
export interface ScaleHarnessOptions {
  /** The fake model's latency per call, ms. */
  latencyMs: number;
  /** `REFLEXION_RATE_LIMITS` for every process. */
  rateLimits?: string;
  /** Passed to the fake server (e.g. its own `rateLimit`). */
  fake?: Partial<FakeOpenAIServerOptions>;
  /** Extra environment for every process. */
  env?: Record<string, string>;
}

export async function startScaleHarness(options: ScaleHarnessOptions): Promise<ScaleHarness> {
  const pg = await startPostgresServer();
  const workers: WorkerProcess[] = [];
  try {
    const databaseUrl = await pg.createDatabase("scale");
    // The schema, as `cli db migrate` applies it (workers and app servers only check it).
    const migrator = new PgRunStore(openNodePostgres(databaseUrl, { max: 2 }), { migrate: "apply" });
    await migrator.ready();
    await migrator.close();
    const fake = await startFakeOpenAIServer({ latencyMs: options.latencyMs, respond: (messages) => demoReply([qaDemoScriptBook], flattenMessages(messages)), ...options.fake });
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rp-scale-"));
    const env: Record<string, string> = {
      REFLEXION_DATABASE_URL: databaseUrl,
      // Sign-in is not under test here (tests/auth covers it).
      REFLEXION_SIGN_IN: "off",
      // Used only while the store is not selected by the URL (the SQLite file is then shared on this machine).
      REFLEXION_DB_PATH: path.join(dir, "playground.sqlite"),
      OPENAI_COMPATIBLE_BASE_URL: fake.baseUrl,
      OPENAI_COMPATIBLE_API_KEY: "test-key-scale",
      REFLEXION_JOB_HEARTBEAT_S: "10",
      REFLEXION_JOB_SUPERVISE_S: "1",
      REFLEXION_JOB_RETRY_DELAY_S: "1",
      REFLEXION_JOB_RETRY_DELAY_MAX_S: "4",
      REFLEXION_JOB_POLL_S: "0.5",
      REFLEXION_JOB_NOTIFY_POLL_S: "0.5",
      REFLEXION_JOB_RECONCILE_MS: "500",
      REFLEXION_MODEL_TIMEOUT_S: "60",
      NEXT_TELEMETRY_DISABLED: "1",
      ...(options.rateLimits ? { REFLEXION_RATE_LIMITS: options.rateLimits } : {}),
      ...options.env,
    };
    const producer = createServerContext({ env: { ...process.env, ...env }, startWorkers: false, requestedBy: "test" });
    if (!(producer.workers instanceof QueueingWorkerPool)) throw new Error("REFLEXION_DATABASE_URL did not select the pg-boss queue");
    const pool = producer.workers;
    return {
      pg,
      databaseUrl,
      fake,
      env,
      producer,
      pool,
      startWorker(workerOptions = {}) {
        const worker = spawnWorker({ ...env, ...workerOptions.env }, workerOptions.concurrency ?? 2);
        workers.push(worker);
        return worker;
      },
      async stop() {
        for (const worker of workers) if (worker.child.exitCode === null && worker.child.signalCode === null) worker.child.kill("SIGTERM");
        await Promise.all(workers.map((worker) => Promise.race([worker.exited, sleep(20_000)])));
        for (const worker of workers) if (worker.child.exitCode === null && worker.child.signalCode === null) worker.child.kill("SIGKILL");
        await producer.workers.stop();
        await producer.jobs.stop({ graceful: false });
        await producer.store.close();
        await fake.close();
        await pg.stop();
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    for (const worker of workers) worker.child.kill("SIGKILL");
    await pg.stop();
    throw error;
  }
}

function spawnWorker(env: Record<string, string>, concurrency: number): WorkerProcess {
  const child = spawn(process.execPath, [...TSX_ARGS, "bin/cli.ts", "worker", "--concurrency", String(concurrency)], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const lines: string[] = [];
  const waiters: Array<{ pattern: RegExp; resolve: (line: string) => void }> = [];
  const onData = (chunk: Buffer) => {
    for (const line of chunk.toString("utf8").split("\n")) {
      if (line.trim() === "") continue;
      lines.push(line);
      for (const waiter of [...waiters]) {
        if (waiter.pattern.test(line)) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(line);
        }
      }
    }
  };
  child.stdout?.on("data", onData);
  child.stderr?.on("data", onData);
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return {
    child,
    lines,
    exited,
    started: () => lines.map((line) => /run (\S+) \(branch \S+\): started/.exec(line)?.[1]).filter((id): id is string => id !== undefined),
    waitFor(pattern, timeoutMs = 60_000) {
      const found = lines.find((line) => pattern.test(line));
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`worker printed no line matching ${pattern} within ${timeoutMs} ms; it printed:\n${lines.slice(-20).join("\n")}`)), timeoutMs);
        waiters.push({ pattern, resolve: (line) => (clearTimeout(timer), resolve(line)) });
      });
    },
  };
}

/** The chat requests' bodies hashed (messages, model, settings): equal hashes are the same call made twice. */
export function requestBodyHash(request: RecordedRequest): string {
  return createHash("sha256").update(JSON.stringify(request.body)).digest("hex");
}

/** Resolves when `done()` holds (polled every `everyMs`), or rejects after `timeoutMs` with `what`. */
export async function waitUntil(done: () => Promise<boolean> | boolean, what: string, timeoutMs = 120_000, everyMs = 250): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await done()) return;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(everyMs);
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
