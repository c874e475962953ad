import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";

/**
 * A throw-away PostgreSQL server for tests: the machine's own PostgreSQL
 * (`/usr/lib/postgresql/<n>/bin`, Debian's `postgresql` package) in a temporary directory, on
 * 127.0.0.1 and a free port, started by the test files that need it (`beforeAll`), never by a
 * global setup. Self-stopping: stopped by {@link PostgresServer.stop}, on process exit, and by a
 * watchdog process when this process dies without running its exit handlers (SIGKILL, crash) or
 * after {@link MAX_LIFETIME_S}. Tests run as root here and PostgreSQL refuses root, so the server
 * runs as the `postgres` system user (`setpriv`), with the directory chowned to it.
 */
export interface PostgresServer {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` (trust auth on loopback, no password). */
  readonly url: string;
  readonly port: number;
  /** Start-up time in ms (initdb + server ready). */
  readonly startMs: number;
  /** Creates a fresh database and returns its URL. */
  createDatabase(prefix?: string): Promise<string>;
  /**
   * Stops the server with a fast shutdown (every session gets "terminating connection due to
   * administrator command"), waits `downMs` ms, and starts it again on the same port and data
   * directory; resolves once it accepts connections (bounded by {@link STARTUP_TIMEOUT_MS}).
   */
  restart(downMs: number): Promise<void>;
  /**
   * Creates login role `user` with `password` and makes the server ask it for that password
   * (scram-sha-256 on 127.0.0.1; every other role keeps trust): for tests of a wrong password.
   */
  requirePassword(user: string, password: string): Promise<void>;
  /** Stops the server (fast shutdown) and deletes its directory. */
  stop(): Promise<void>;
}

/** Longest a test server lives, in s, whatever happens to the tests (the watchdog stops it then). */
export const MAX_LIFETIME_S = 30 * 60;
/** How long start-up may take, in ms, before it is abandoned with an error. */
export const STARTUP_TIMEOUT_MS = 60_000;

/** The newest installed PostgreSQL's bin folder, or null. */
export function findPostgresBin(): string | null {
  const root = "/usr/lib/postgresql";
  if (!fs.existsSync(root)) return null;
  const versions = fs
    .readdirSync(root)
    .filter((v) => fs.existsSync(path.join(root, v, "bin", "initdb")))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? path.join(root, versions[0], "bin") : null;
}

/** The message a missing PostgreSQL gives (the real-server tests fail with it, never skip). */
export const POSTGRES_MISSING =
  "PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/initdb). Install Debian's package: `sudo apt-get install -y postgresql` (or run `bash scripts/setup.sh`, which does it), then run the tests again.";

/**
 * Starts a server. @throws Error with {@link POSTGRES_MISSING} when PostgreSQL is absent, or with
 * the server's log when it does not come up within {@link STARTUP_TIMEOUT_MS}.
 */
export async function startPostgresServer(): Promise<PostgresServer> {
  const started = Date.now();
  const bin = findPostgresBin();
  if (!bin) throw new Error(POSTGRES_MISSING);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rp-pg-"));
  const dataDir = path.join(dir, "data");
  const asRoot = process.getuid?.() === 0;
  const wrap = (cmd: string, args: string[]): [string, string[]] => (asRoot ? ["setpriv", ["--reuid=postgres", "--regid=postgres", "--init-groups", "--", cmd, ...args]] : [cmd, args]);
  if (asRoot) {
    const uid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim());
    const gid = Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }).trim());
    fs.chownSync(dir, uid, gid);
  }
  const [initCmd, initArgs] = wrap(path.join(bin, "initdb"), ["-D", dataDir, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync", "--no-instructions"]);
  try {
    execFileSync(initCmd, initArgs, { stdio: "pipe", timeout: STARTUP_TIMEOUT_MS, cwd: dir });
  } catch (error) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw new Error(`initdb failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  const port = await freePort();
  const [cmd, args] = wrap(path.join(bin, "postgres"), [
    "-D", dataDir, "-p", String(port), "-c", "listen_addresses=127.0.0.1", "-c", `unix_socket_directories=${dir}`,
    "-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off", "-c", "max_connections=200", "-c", "shared_buffers=32MB",
  ]);
  const pidFile = path.join(dir, "server.pid");
  let child: ChildProcess;
  let log = "";
  const launch = () => {
    child = spawn(cmd, args, { stdio: ["ignore", "ignore", "pipe"], cwd: dir });
    child.stderr?.on("data", (chunk: Buffer) => {
      log = (log + chunk.toString()).slice(-4000);
    });
    fs.writeFileSync(pidFile, String(child.pid ?? 0));
    return child;
  };
  child = launch();
  const kill = () => {
    if (child.pid === undefined) return;
    try {
      process.kill(child.pid, "SIGQUIT");
    } catch {
      // gone already
    }
  };
  process.once("exit", kill);
  startWatchdog(process.pid, pidFile, dir);
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  try {
    await waitReady(url, child, () => log);
  } catch (error) {
    kill();
    fs.rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  let counter = 0;
  return {
    url,
    port,
    startMs: Date.now() - started,
    async createDatabase(prefix = "test") {
      const name = `${prefix.replace(/[^a-z0-9_]/gi, "_").toLowerCase()}_${process.pid}_${++counter}`;
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE "${name}"`);
      } finally {
        await client.end();
      }
      return `postgres://postgres@127.0.0.1:${port}/${name}`;
    },
    async requirePassword(user, password) {
      const hba = path.join(dataDir, "pg_hba.conf");
      fs.writeFileSync(hba, `host all ${user} 127.0.0.1/32 scram-sha-256\n${fs.readFileSync(hba, "utf8")}`);
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`CREATE ROLE "${user}" LOGIN PASSWORD '${password.replace(/'/g, "''")}'`);
        await client.query("SELECT pg_reload_conf()");
      } finally {
        await client.end();
      }
    },
    async restart(downMs) {
      await stopChild(child);
      await new Promise((resolve) => setTimeout(resolve, downMs));
      launch();
      await waitReady(url, child, () => log);
    },
    async stop() {
      process.off("exit", kill);
      await stopChild(child);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

async function waitReady(url: string, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`PostgreSQL exited during start-up (code ${child.exitCode}): ${log()}`);
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
    client.on("error", () => undefined);
    try {
      await client.connect();
      await client.query("SELECT 1");
      await client.end();
      return;
    } catch {
      await client.end().catch(() => undefined);
    }
    if (Date.now() > deadline) throw new Error(`PostgreSQL did not accept connections within ${STARTUP_TIMEOUT_MS} ms: ${log()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.pid === undefined) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGINT"); // fast shutdown
  const timer = setTimeout(() => child.kill("SIGQUIT"), 5000);
  await exited;
  clearTimeout(timer);
}

/**
 * A detached shell that stops the server (the pid in `pidFile`, rewritten by a restart) and deletes
 * its directory when `parent` is gone or after {@link MAX_LIFETIME_S}; it ends by itself once
 * {@link PostgresServer.stop} deleted the directory.
 */
function startWatchdog(parent: number, pidFile: string, dir: string): void {
  const script = `i=0; while kill -0 ${parent} 2>/dev/null && [ -d '${dir}' ] && [ $i -lt ${MAX_LIFETIME_S} ]; do sleep 1; i=$((i+1)); done; [ -f '${pidFile}' ] && kill -QUIT "$(cat '${pidFile}')" 2>/dev/null; sleep 3; rm -rf '${dir}'`;
  const watchdog = spawn("sh", ["-c", script], { detached: true, stdio: "ignore" });
  watchdog.unref();
}
