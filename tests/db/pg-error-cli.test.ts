import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { startPostgresServer, type PostgresServer } from "../helpers/postgres-server";

const run = promisify(execFile);

/** What execFile rejects with when the command exits non-zero. */
const failureSchema = z.object({ code: z.number(), stdout: z.string(), stderr: z.string() });

// The CLI prints a database error's cause (lib/db/pg/describe-pg-error.ts), not drizzle's
// "Failed query: … params: …", and exits 2; the password is never printed.
let server: PostgresServer;
beforeAll(async () => {
  server = await startPostgresServer();
  await server.requirePassword("alice", "right-pw");
}, 90_000);
afterAll(() => server?.stop());

async function failingCli(args: string[], url: string): Promise<z.infer<typeof failureSchema>> {
  const outcome: unknown = await run("npx", ["tsx", "bin/cli.ts", ...args], { env: { ...process.env, REFLEXION_DATABASE_URL: url, REFLEXION_SIGN_IN: "off" }, timeout: 60_000 }).then(
    () => null,
    (error: unknown) => error,
  );
  return failureSchema.parse(outcome);
}

describe("cli errors show the database's cause", () => {
  it("db status with a wrong password: password authentication failed", async () => {
    const url = (await server.createDatabase("clierr")).replace("postgres@", "alice:wrong-pw-7@");
    const result = await failingCli(["db", "status"], url);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error: password authentication failed for user "alice" \(while: select from "drizzle"\."__drizzle_migrations"\)$/m);
    expect(result.stdout + result.stderr).not.toMatch(/Failed query|wrong-pw-7/);
  }, 90_000);

  it("runs with a port nothing listens on: connect ECONNREFUSED with the port", async () => {
    const url = server.url.replace(`:${server.port}/`, ":1/");
    const result = await failingCli(["runs"], url);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/connect ECONNREFUSED 127\.0\.0\.1:1\b/);
    expect(result.stderr).not.toContain("Failed query");
  }, 90_000);
});
