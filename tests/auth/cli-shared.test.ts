import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openNodePostgres } from "@/lib/db/pg/database";
import { PgRunStore } from "@/lib/db/pg/pg-store";
import { startPostgresServer, type PostgresServer } from "../helpers/postgres-server";
import { runCli, runCliWithInput } from "../cli/run-cli";

// The CLI against a real PostgreSQL with sign-in on: the first admin without a token, then every command needs one.
let server: PostgresServer;
let env: Record<string, string>;
beforeAll(async () => {
  server = await startPostgresServer();
  const url = await server.createDatabase("cli_auth");
  const migrator = new PgRunStore(openNodePostgres(url, { max: 2 }), { migrate: "apply" });
  await migrator.ready();
  await migrator.close();
  env = { REFLEXION_DATABASE_URL: url, BETTER_AUTH_SECRET: "cli-shared-secret-cli-shared-secret-0123", REFLEXION_PUBLIC_URL: "https://lab.example" };
}, 120_000);
afterAll(() => server?.stop());

describe("cli with sign-in on (shared mode)", { tags: ["slow"] }, () => {
  it("bootstraps the first admin, then refuses without a token and works with one", async () => {
    const first = await runCliWithInput(["users", "add", "--admin", "--email", "ada@lab.example", "--name", "Ada", "--password-stdin"], env, "ada-password\n");
    expect(first.stderr).toContain("API token for ada@lab.example (shown once");
    expect(first.code).toBe(0);
    const [line, secret] = first.stdout.trim().split("\n");
    expect(line).toMatch(/\tada@lab\.example\tAda\tadmin\t/);
    expect(secret).toMatch(/^rp_/);

    const again = await runCliWithInput(["users", "add", "--admin", "--email", "mal@lab.example", "--name", "Mal", "--password-stdin"], env, "mal-password\n");
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("`users add` needs an API token. Set REFLEXION_TOKEN=rp_…");

    const without = await runCli(["runs"], env);
    expect(without.code).toBe(1);
    expect(without.stderr).toContain("https://lab.example/account");

    const added = await runCliWithInput(["users", "add", "--email", "vic@lab.example", "--name", "Vic", "--password-stdin"], { ...env, REFLEXION_TOKEN: secret! }, "vic-password\n");
    expect(added.code).toBe(0);
    const list = await runCli(["users", "list", "--token", secret!], env);
    expect(list.stdout).toMatch(/ada@lab\.example\tAda\tadmin[\s\S]*vic@lab\.example\tVic\tviewer/);

    const vicToken = await runCli(["tokens", "create", "--name", "laptop", "--user", "vic@lab.example"], { ...env, REFLEXION_TOKEN: secret! });
    expect(vicToken.code).toBe(0);
    const vic = vicToken.stdout.trim();
    const refused = await runCli(["prices", "set", "openai:gpt-x", "--input", "1", "--output", "2"], { ...env, REFLEXION_TOKEN: vic });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("`prices set` needs the admin role; Vic is a viewer");
  }, 180_000);
});
