import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { asBranchId, asRunId } from "@/lib/domain/ids";
import { openNodePostgres } from "@/lib/db/pg/database";
import { PgRunStore } from "@/lib/db/pg/pg-store";
import { createServerContext, workerSettings } from "@/lib/server/app-context";
import { startPostgresServer, type PostgresServer } from "../helpers/postgres-server";

// In shared mode (REFLEXION_DATABASE_URL) every CLI command
// must exit when it is done — the pg pools, pg-boss and the LISTEN connection of its context are
// closed — with its documented exit code; a foreground `cli run` drives only its own run; `cli
// experiment run` hands its runs to the `cli worker` processes and ends when they do.

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../..");
// tsx loaded into one process (its CLI would spawn a child a kill would leave running), as tests/scale/harness.ts does.
const TSX_ARGS = ["--require", path.join(ROOT, "node_modules/tsx/dist/preflight.cjs"), "--import", pathToFileURL(path.join(ROOT, "node_modules/tsx/dist/loader.mjs")).href];
/** Longest a command may take, start-up of tsx on a busy 2-core machine included (a hang is killed then). */
const EXIT_BOUND_MS = 60_000;

interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

let server: PostgresServer;
let url: string;
let dir: string;
let env: Record<string, string>;

beforeAll(async () => {
  server = await startPostgresServer();
  // A password in the URL (ignored by the test server's trust auth) that must never be printed.
  url = (await server.createDatabase("cli_exit")).replace("postgres@", "postgres:s3cret-pw@");
  const migrator = new PgRunStore(openNodePostgres(url, { max: 2 }), { migrate: "apply" });
  await migrator.ready();
  await migrator.close();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "rp-cli-exit-"));
  env = {
    REFLEXION_DATABASE_URL: url,
    // Sign-in is not under test here (tests/auth covers it).
    REFLEXION_SIGN_IN: "off",
    // Must stay unused: everything goes to PostgreSQL.
    REFLEXION_DB_PATH: path.join(dir, "unused.sqlite"),
    REFLEXION_JOB_POLL_S: "0.5",
    REFLEXION_JOB_NOTIFY_POLL_S: "0.5",
    REFLEXION_JOB_RECONCILE_MS: "500",
    REFLEXION_JOB_SUPERVISE_S: "1",
  };
}, 90_000);

afterAll(async () => {
  await server?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** Runs the CLI to its end (killed after {@link EXIT_BOUND_MS}: then `code` is null). */
function cli(args: string[], extraEnv: Record<string, string> = {}, removeEnv: string[] = []): Promise<CliResult> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env, ...extraEnv };
  for (const name of removeEnv) delete childEnv[name];
  const started = Date.now();
  const child = spawn(process.execPath, [...TSX_ARGS, "bin/cli.ts", ...args], { cwd: ROOT, env: childEnv, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  const timer = setTimeout(() => child.kill("SIGKILL"), EXIT_BOUND_MS);
  return new Promise((resolve) => {
    child.once("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, ms: Date.now() - started });
    });
  });
}

async function query<T extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

/** Branch jobs of the run in pg-boss (any state); none while pg-boss has not made its schema yet. */
async function jobsOf(runId: string): Promise<Array<{ state: string }>> {
  const [{ made } = { made: null }] = await query<{ made: string | null }>(`select to_regclass('pgboss.job')::text as made`);
  if (made === null) return [];
  return query<{ state: string }>(`select state from pgboss.job where name = 'reflexion-branch-drive' and data->>'runId' = $1`, [runId]);
}

async function withStore<T>(body: (store: PgRunStore) => Promise<T>): Promise<T> {
  const store = new PgRunStore(openNodePostgres(url, { max: 2 }));
  try {
    return await body(store);
  } finally {
    await store.close();
  }
}

const QA_RUN = ["run", "--env", "qa", "--tasks", "builtin", "--task-id", "qa-builtin-07", "--strategy", "reflexion", "--model", "demo", "--memory-window", "2"];

describe("CLI commands exit in shared mode", { tags: ["slow"] }, () => {
  let detachedId = "";

  it("run --detach prints the id, enqueues the run's pg-boss job and exits 0", async () => {
    const result = await cli([...QA_RUN.slice(0, -2), "--detach"]);
    expect(result.code, result.stderr).toBe(0);
    detachedId = result.stdout.trim();
    expect(detachedId).toMatch(/^[0-9a-f-]{36}$/);
    expect(result.stderr).toMatch(/Queued run .* A worker executes it: a `npm run cli -- worker` process/);
    expect(await jobsOf(detachedId)).toEqual([{ state: "created" }]);
    expect(fs.existsSync(env.REFLEXION_DB_PATH!)).toBe(false);
  }, 90_000);

  it("run (foreground, demo model) prints its status line and exits 0, driving only its own run (the queued one stays queued)", async () => {
    const result = await cli(QA_RUN);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/Run \S+: ended \(success\); tokens in\/out/);
    expect(result.stdout).toMatch(/model calls \(demo model: a scripted stand-in, not an LLM\): \d+ live, \d+ cached/);
    expect(result.stderr).not.toMatch(/\[jobs\]|reconcile/);
    // The run queued before is untouched: its job still waits, nothing was appended past its start.
    expect(await jobsOf(detachedId)).toEqual([{ state: "created" }]);
    const events = await withStore(async (store) => {
      const run = await store.getRun(asRunId(detachedId));
      return run ? store.list(run.id, run.rootBranchId) : [];
    });
    expect(events.length).toBeGreaterThan(0);
    expect(events.map((event) => event.type)).not.toContain("trial-start");
  }, 90_000);

  it("run that pauses at a breakpoint exits 0; resume drives it here to its end and exits 0", async () => {
    const paused = await cli([...QA_RUN, "--break-after", "evaluation"]);
    expect(paused.code, paused.stderr).toBe(0);
    const resumeLine = /Continue with: npm run cli -- resume --run (\S+)/.exec(paused.stdout);
    expect(resumeLine, paused.stdout).not.toBeNull();
    const resumed = await cli(["resume", "--run", resumeLine![1]!]);
    // It pauses again after the next evaluation, or ends: either way the command returns with exit code 0.
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toMatch(/: (paused|ended)/);
  }, 150_000);

  it("run stopped by its budget exits 3; run paused by a provider failure exits 1 (both with their closing lines)", async () => {
    const budget = await cli([...QA_RUN, "--budget-tokens", "500"]);
    expect(budget.code, budget.stderr).toBe(3);
    expect(budget.stdout).toMatch(/^Budget exhausted: .* spent; resume with `npm run cli -- resume --run \S+ --budget-tokens \d+`/m);
    // Nothing listens on port 9: every call is refused, retried, and the run pauses with a model-call-error.
    const refused = await cli([...QA_RUN.slice(0, -4), "--model", "compatible:nobody-home"], { OPENAI_COMPATIBLE_BASE_URL: "http://127.0.0.1:9/v1", OPENAI_COMPATIBLE_API_KEY: "test-key" });
    expect(refused.code, refused.stderr).toBe(1);
    expect(refused.stdout).toMatch(/Resume with: npm run cli -- resume --run \S+/);
  }, 150_000);

  it("run --detach with a provider that is not configured prints the error and exits 2 at once", async () => {
    const result = await cli([...QA_RUN.slice(0, -4), "--model", "openai:gpt-4o-mini", "--detach"], {}, ["OPENAI_API_KEY"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/error: OpenAI is not configured/);
    expect(result.stdout).toBe("");
  }, 90_000);

  it("runs lists the runs and exits 0", async () => {
    const result = await cli(["runs"]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(`${detachedId}\tqa-builtin-07\treflexion\tdemo\tqueued`);
    expect(result.stdout.trim().split("\n").length).toBeGreaterThanOrEqual(3);
  }, 90_000);

  it("a bad REFLEXION_RATE_LIMITS: runs and worker print the message and exit 2", async () => {
    for (const args of [["runs"], ["worker"]]) {
      const result = await cli(args, { REFLEXION_RATE_LIMITS: "openai=lots" });
      expect(result.code, `${args[0]}: ${result.stderr}`).toBe(2);
      expect(result.stderr).toMatch(/error: .*REFLEXION_RATE_LIMITS/);
    }
  }, 150_000);

  it("REFLEXION_CONCURRENCY=0 is refused by a worker (it would work no jobs) and without REFLEXION_DATABASE_URL", async () => {
    const worker = await cli(["worker"], { REFLEXION_CONCURRENCY: "0" });
    expect(worker.code).toBe(2);
    expect(worker.stderr).toMatch(/REFLEXION_CONCURRENCY=0 is for an app server that only serves pages/);
    const embedded = await cli(["runs"], { REFLEXION_CONCURRENCY: "0" }, ["REFLEXION_DATABASE_URL"]);
    expect(embedded.code).toBe(2);
    expect(embedded.stderr).toMatch(/REFLEXION_CONCURRENCY must be a positive whole number .* needs shared mode, REFLEXION_DATABASE_URL/);
  }, 150_000);
});

describe("cli experiment run in shared mode hands its runs to the workers", { tags: ["slow"] }, () => {
  it("a cli worker drives every run (its 'started' lines); the command ends when they do, with the summary and exit 0; the worker names PostgreSQL without the password", async () => {
    const worker = spawn(process.execPath, [...TSX_ARGS, "bin/cli.ts", "worker", "--concurrency", "2"], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let workerOut = "";
    worker.stdout.on("data", (chunk: Buffer) => (workerOut += chunk.toString("utf8")));
    worker.stderr.on("data", (chunk: Buffer) => (workerOut += chunk.toString("utf8")));
    const workerExit = new Promise<number | null>((resolve) => worker.once("exit", (code) => resolve(code)));
    try {
      const result = await cli(["experiment", "run", "--env", "code", "--tasks", "builtin", "--task-ids", "code-py-02,code-js-02", "--arms", "none,reflexion", "--model", "demo", "--json"]);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toMatch(/Its runs are handed to the workers/);
      const summary = JSON.parse(result.stdout.trim().split("\n").at(-1) ?? "{}") as { type?: string; experimentId?: string; arms?: Array<{ tasks: number }> };
      expect(summary.type).toBe("experiment-summary");
      const links = await withStore((store) => store.experiments.listExperimentRuns(summary.experimentId ?? ""));
      expect(links).toHaveLength(4);
      // Every run was driven by the worker, and has ended.
      const started = [...workerOut.matchAll(/run (\S+) \(branch \S+\): started/g)].map((match) => match[1]);
      for (const link of links) expect(started).toContain(link.runId);
      const statuses = await withStore(async (store) => Promise.all(links.map(async (link) => (await store.getBranchSummary((await store.getRun(asRunId(link.runId)))?.rootBranchId ?? asBranchId("none")))?.status)));
      expect(statuses).toEqual(["ended", "ended", "ended", "ended"]);
      // Start-up line: the PostgreSQL URL without its password, not a SQLite file.
      expect(workerOut).toMatch(/\[worker\] \S+: executing queued runs from postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:\d+\/cli_exit_\d+_\d+\./);
      expect(workerOut).not.toContain("s3cret-pw");
      expect(workerOut).not.toContain("sqlite");
    } finally {
      worker.kill("SIGTERM");
      expect(await workerExit).toBe(0);
    }
    expect(workerOut).toMatch(/\[worker\] stopped;/);
  }, 180_000);

  it("--here drives the runs in the CLI process (no worker running, no job sent) and exits 0 when they ended", async () => {
    const result = await cli(["experiment", "run", "--env", "qa", "--tasks", "builtin", "--task-ids", "qa-builtin-02", "--arms", "none,reflexion", "--model", "demo", "--here", "--json"]);
    expect(result.code, result.stderr).toBe(0);
    const summary = JSON.parse(result.stdout.trim().split("\n").at(-1) ?? "{}") as { experimentId?: string };
    const links = await withStore((store) => store.experiments.listExperimentRuns(summary.experimentId ?? ""));
    expect(links).toHaveLength(2);
    for (const link of links) expect(await jobsOf(link.runId)).toEqual([]);
    const statuses = await withStore(async (store) => Promise.all(links.map(async (link) => (await store.getBranchSummary((await store.getRun(asRunId(link.runId)))?.rootBranchId ?? asBranchId("none")))?.status)));
    expect(statuses).toEqual(["ended", "ended"]);
  }, 90_000);

  it("--detach records the experiment, queues its runs as batch jobs, prints the id and exits 0", async () => {
    const result = await cli(["experiment", "run", "--env", "qa", "--tasks", "builtin", "--task-ids", "qa-builtin-01", "--arms", "none,reflexion", "--model", "demo", "--detach"]);
    expect(result.code, result.stderr).toBe(0);
    const id = result.stdout.trim();
    const links = await withStore((store) => store.experiments.listExperimentRuns(id));
    expect(links).toHaveLength(2);
    for (const link of links) expect(await jobsOf(link.runId)).toEqual([{ state: "created" }]);
    const priorities = await query<{ priority: number }>(`select priority from pgboss.job where name = 'reflexion-branch-drive' and data->>'runId' = any($1)`, [links.map((link) => link.runId)]);
    expect(priorities.map((row) => row.priority)).toEqual([0, 0]);
  }, 90_000);
});

describe("REFLEXION_CONCURRENCY=0: an app server that only serves pages (shared mode only)", { tags: ["slow"] }, () => {
  it("is refused without REFLEXION_DATABASE_URL, allowed with it", () => {
    expect(() => workerSettings({ REFLEXION_CONCURRENCY: "0" })).toThrow(/needs shared mode, REFLEXION_DATABASE_URL/);
    expect(workerSettings({ REFLEXION_CONCURRENCY: "0", REFLEXION_DATABASE_URL: url }).concurrency).toBe(0);
    expect(() => workerSettings({ REFLEXION_CONCURRENCY: "-1", REFLEXION_DATABASE_URL: url })).toThrow(/whole number ≥ 0/);
  });

  it("reconciles a new run into its job but never works it", async () => {
    const context = createServerContext({ env: { ...process.env, ...env, REFLEXION_CONCURRENCY: "0" }, requestedBy: "test" });
    try {
      const run = await context.service.createRun({ environment: "qa", taskSet: "builtin", taskId: "qa-builtin-03", strategy: "reflexion", modelId: "demo", maxTrials: 1 });
      const deadline = Date.now() + 20_000;
      while ((await jobsOf(run.id)).length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
      expect(await jobsOf(run.id)).toEqual([{ state: "created" }]);
      // Several reconcile periods later the job still waits and the run has not started a trial.
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      expect(await jobsOf(run.id)).toEqual([{ state: "created" }]);
      expect((await context.store.list(run.id, run.rootBranchId)).map((event) => event.type)).not.toContain("trial-start");
    } finally {
      await context.close();
    }
  }, 60_000);
});
