import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPostgresServer, type PostgresServer } from "../helpers/postgres-server";

const run = promisify(execFile);

// `cli db migrate` / `cli db status` against a real server: two machines may migrate at
// once; the URL's password is never printed.
let server: PostgresServer;
beforeAll(async () => {
  server = await startPostgresServer();
}, 90_000);
afterAll(() => server?.stop());

async function cli(args: string[], url: string): Promise<string> {
  const { stdout, stderr } = await run("npx", ["tsx", "bin/cli.ts", ...args], { env: { ...process.env, REFLEXION_DATABASE_URL: url, REFLEXION_SIGN_IN: "off" }, timeout: 60_000 });
  return stdout + stderr;
}

describe("cli db", { tags: ["slow"] }, () => {
  it("status says what is missing, two migrates at once both succeed, status then says all applied; no password anywhere", async () => {
    const url = (await server.createDatabase("cli")).replace("postgres@", "postgres:s3cret-pw@");
    const before = await cli(["db", "status"], url);
    expect(before).toMatch(/0 of \d+ migrations applied — run `npm run cli -- db migrate`/);
    const [first, second] = await Promise.all([cli(["db", "migrate"], url), cli(["db", "migrate"], url)]);
    for (const out of [first, second]) expect(out).toMatch(/(\d+) of \1 migrations applied\./);
    const after = await cli(["db", "status"], url);
    expect(after).toMatch(/postgres:\*\*\*@127\.0\.0\.1:\d+\/cli_\d+_\d+: (\d+) of \1 migrations applied\n/);
    for (const out of [before, first, second, after]) expect(out).not.toContain("s3cret-pw");
  }, 120_000);

  it("refuses a URL that is not postgres://", async () => {
    await expect(cli(["db", "status"], "mysql://root:pw@localhost/x")).rejects.toMatchObject({ stderr: expect.stringMatching(/must be a postgres:\/\/user:password@host:port\/database URL/) });
  });
});
