import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openNodePostgres } from "@/lib/db/pg/database";
import { PgRunStore } from "@/lib/db/pg/pg-store";
import { startPostgresServer, type PostgresServer } from "../helpers/postgres-server";

// docs/shared-mode.md, "Make a dead letter on purpose": the recipe a lab follows to try /jobs, run as
// written — a trigger that fails every append after a run's first event, a fresh queue made with
// REFLEXION_JOB_RETRY_LIMIT=0, one worker: the job lands in the dead letters with the trigger's
// message; after the trigger is dropped, `jobs retry --all` lets a worker finish the run.

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../..");
const TSX_ARGS = ["--require", path.join(ROOT, "node_modules/tsx/dist/preflight.cjs"), "--import", pathToFileURL(path.join(ROOT, "node_modules/tsx/dist/loader.mjs")).href];

/** The SQL of the guide's recipe (kept equal to docs/shared-mode.md by the test below). */
const FAIL_APPENDS = `CREATE FUNCTION reflexion_drill() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN IF NEW.seq > 1 THEN RAISE EXCEPTION 'dead-letter drill'; END IF; RETURN NEW; END $$;
CREATE TRIGGER reflexion_drill BEFORE INSERT ON events FOR EACH ROW EXECUTE FUNCTION reflexion_drill();`;
const UNDO = "DROP TRIGGER reflexion_drill ON events; DROP FUNCTION reflexion_drill();";

let server: PostgresServer;
let url: string;
let dir: string;
let env: Record<string, string>;

beforeAll(async () => {
  server = await startPostgresServer();
  url = await server.createDatabase("drill");
  const migrator = new PgRunStore(openNodePostgres(url, { max: 2 }), { migrate: "apply" });
  await migrator.ready();
  await migrator.close();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "rp-drill-"));
  env = { REFLEXION_DATABASE_URL: url, REFLEXION_SIGN_IN: "off", REFLEXION_DB_PATH: path.join(dir, "unused.sqlite"), REFLEXION_JOB_RETRY_LIMIT: "0", REFLEXION_JOB_POLL_S: "0.5", REFLEXION_JOB_NOTIFY_POLL_S: "0.5", REFLEXION_JOB_RECONCILE_MS: "500" };
}, 90_000);

afterAll(async () => {
  await server?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

function cli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [...TSX_ARGS, "bin/cli.ts", ...args], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
  return new Promise((resolve) => child.once("exit", (code) => (clearTimeout(timer), resolve({ code, stdout, stderr }))));
}

async function sql(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

async function until<T>(what: string, probe: () => Promise<T | null>, timeoutMs = 40_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== null) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
}

describe("dead letter on purpose (the guide's recipe)", { tags: ["slow"] }, () => {
  it("the guide shows the same SQL", () => {
    const guide = fs.readFileSync(path.join(ROOT, "docs/shared-mode.md"), "utf8");
    for (const line of [...FAIL_APPENDS.split("\n"), UNDO]) expect(guide).toContain(line);
  });

  it("a failing append dead-letters the job with the cause; after the fix, retry --all lets the worker end the run", async () => {
    await sql(FAIL_APPENDS);
    const queued = await cli(["run", "--env", "qa", "--tasks", "builtin", "--task-id", "qa-builtin-01", "--model", "demo", "--trials", "1", "--detach"]);
    expect(queued.code, queued.stderr).toBe(0);
    const runId = queued.stdout.trim();
    const worker = spawn(process.execPath, [...TSX_ARGS, "bin/cli.ts", "worker", "--concurrency", "1"], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let workerOut = "";
    worker.stdout.on("data", (chunk: Buffer) => (workerOut += chunk.toString("utf8")));
    worker.stderr.on("data", (chunk: Buffer) => (workerOut += chunk.toString("utf8")));
    const exited = new Promise<number | null>((resolve) => worker.once("exit", (code) => resolve(code)));
    try {
      let listed = { stdout: "", stderr: "" };
      const letter = await until("the dead letter", async () => {
        listed = await cli(["jobs", "dead-letters"]);
        return listed.stdout.includes(runId) ? listed.stdout : null;
      }).catch((error: unknown) => {
        throw new Error(`${String(error)}; jobs dead-letters printed:\n${listed.stdout}${listed.stderr}\nthe worker printed:\n${workerOut.slice(-3000)}`);
      });
      expect(letter).toContain("dead-letter drill");
      await sql(UNDO);
      const retried = await cli(["jobs", "retry", "--all"]);
      expect(retried.code, retried.stderr).toBe(0);
      expect(retried.stdout).toMatch(/\trequeued\t/);
      await until("the run to end", async () => {
        const runs = await cli(["runs", "--json"]);
        return runs.stdout.split("\n").some((line) => line.includes(runId) && line.includes('"status":"ended"')) ? true : null;
      });
    } finally {
      worker.kill("SIGTERM");
      await exited;
    }
    expect(workerOut).toContain(`run ${runId}`);
  }, 240_000);
});
