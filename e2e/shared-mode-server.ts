import { spawn, type ChildProcess } from "node:child_process";
import net from "node:net";
import { expect, type Page } from "@playwright/test";
import { openNodePostgres } from "@/lib/db/pg/database";
import { PgRunStore } from "@/lib/db/pg/pg-store";
import { startPostgresServer, type PostgresServer } from "../tests/helpers/postgres-server";

/**
 * A shared-mode app server for the journeys that need sign-in: the production build (`next start`,
 * so `next build` first) on a free 127.0.0.1 port, over a fresh database on a throw-away PostgreSQL
 * (tests/helpers/postgres-server.ts), with `BETTER_AUTH_SECRET` set so sign-in is on and the server
 * itself working runs (`REFLEXION_CONCURRENCY=1`, no separate worker). A spec starts one in
 * `beforeAll` and stops it in `afterAll`; accounts are made with the real CLI ({@link SharedModeServer.cli}).
 */
export interface SharedModeServer {
  /** `http://127.0.0.1:<port>`: the app's origin (also its `REFLEXION_PUBLIC_URL`). */
  readonly base: string;
  /**
   * Runs `bin/cli.ts` with `args` against the same database and secret, `input` on stdin,
   * `token` as `REFLEXION_TOKEN` when given. Resolves with the exit code and both streams.
   */
  cli(args: string[], options?: { input?: string; token?: string }): Promise<CliResult>;
  /** Stops the app server (SIGTERM, then SIGKILL after 10 s) and the PostgreSQL server. */
  stop(): Promise<void>;
}

/** What a CLI command printed and how it exited. */
export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** How long the app server may take to answer `/api/health`, in ms (a loaded 2-core machine needs tens of seconds). */
export const APP_START_TIMEOUT_MS = 180_000;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function runProcess(command: string, args: string[], env: Record<string, string>, input?: string): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input ?? "");
  });
}

/** Resolves once `child` has exited, or after `ms` (false then). */
function exited(child: ChildProcess, ms: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

/**
 * Starts PostgreSQL, migrates a fresh database named after `database`, and starts the app over it.
 * @throws Error when the app does not answer `/api/health` within {@link APP_START_TIMEOUT_MS}
 *   (the message carries the end of its output) or exits before; PostgreSQL's own start-up errors.
 */
export async function startSharedModeServer(options: { database: string; secret: string }): Promise<SharedModeServer> {
  const pg: PostgresServer = await startPostgresServer();
  let app: ChildProcess | null = null;
  const stop = async () => {
    if (app && app.exitCode === null && app.signalCode === null) {
      app.kill("SIGTERM");
      if (!(await exited(app, 10_000))) app.kill("SIGKILL");
    }
    await pg.stop();
  };
  try {
    const url = await pg.createDatabase(options.database);
    const migrator = new PgRunStore(openNodePostgres(url, { max: 2 }), { migrate: "apply" });
    await migrator.ready();
    await migrator.close();
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const env = {
      REFLEXION_DATABASE_URL: url,
      BETTER_AUTH_SECRET: options.secret,
      REFLEXION_PUBLIC_URL: base,
      REFLEXION_ENV_FILES: "off",
      NEXT_TELEMETRY_DISABLED: "1",
      REFLEXION_CONCURRENCY: "1",
      // A developer's keys are never picked up: the journeys use the offline demo model.
      ANTHROPIC_API_KEY: "",
      OPENAI_API_KEY: "",
      OPENAI_COMPATIBLE_BASE_URL: "",
    };
    let output = "";
    const child = spawn("node_modules/.bin/next", ["start", "-p", String(port), "-H", "127.0.0.1"], { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    app = child;
    const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000));
    child.stdout?.on("data", keep);
    child.stderr?.on("data", keep);
    const deadline = Date.now() + APP_START_TIMEOUT_MS;
    for (;;) {
      if (child.exitCode !== null || child.signalCode !== null) throw new Error(`the shared-mode app server exited (${child.exitCode ?? child.signalCode}) before answering:\n${output}`);
      const ok = await fetch(`${base}/api/health`).then((response) => response.ok, () => false);
      if (ok) break;
      if (Date.now() > deadline) throw new Error(`the shared-mode app server did not answer /api/health within ${APP_START_TIMEOUT_MS / 1000} s:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    return {
      base,
      cli: (args, { input, token } = {}) => runProcess(process.execPath, ["--import", "tsx", "bin/cli.ts", ...args], token ? { ...env, REFLEXION_TOKEN: token } : env, input),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * Signs in through the sign-in page (`/sign-in?next=…`) as a person made with `cli users add`, and
 * waits until the header shows them: `name (role)`. `page`'s context must have the server's base URL.
 */
export async function signInThroughUi(page: Page, person: { email: string; password: string; name: string; role: string }, next = "/"): Promise<void> {
  await page.goto(`/sign-in?next=${encodeURIComponent(next)}`);
  await page.getByTestId("sign-in-email").fill(person.email);
  await page.getByTestId("sign-in-password").fill(person.password);
  await page.getByTestId("sign-in-submit").click();
  await expect(page).toHaveURL(new RegExp(`${next.replace(/[/?]/g, "\\$&")}$`));
  await expect(page.getByTestId("account-badge")).toContainText(`${person.name} (${person.role})`);
}
