import { Command } from "commander";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { currentActor } from "@/lib/actors/actor-context";
import { openSignIn } from "@/lib/auth/accounts";
import { openPglite } from "@/lib/db/pg/pglite";
import type { PgConnection } from "@/lib/db/pg/database";
import type { Actor } from "@/lib/domain/actor";
import { authorizeCommand, CliAuthError, commandPath, openCliAccounts, parseAsActor } from "@/lib/cli/cli-auth";
import { COMMAND_POLICY } from "@/lib/cli/command-policy";

const ON = { REFLEXION_DATABASE_URL: "postgres://unused@127.0.0.1:1/unused", REFLEXION_SIGN_IN: "on", BETTER_AUTH_SECRET: "cli-secret-cli-secret-cli-secret-012345", REFLEXION_PUBLIC_URL: "https://lab.example" };

let pg: PgConnection;
beforeAll(async () => {
  pg = openPglite();
  await pg.migrate();
}, 60_000);
afterAll(async () => {
  await pg?.close();
});

const open = () => openCliAccounts(ON, pg.db);
const accounts = () => openSignIn(pg.db, ON).accounts!;

describe("CLI sign-in", () => {
  it("bootstraps the first admin without a token only while no account exists, and only with --admin", async () => {
    await expect(authorizeCommand("users add", {}, ON, open)).rejects.toThrow(/first one must be an admin\. Add --admin/);
    expect(await authorizeCommand("users add", { admin: true }, ON, open)).toMatchObject({ kind: "cli" });
    await accounts().users.add({ email: "root@lab.example", name: "Root", password: "root-password", role: "admin" });
    await expect(authorizeCommand("users add", { admin: true }, ON, open)).rejects.toThrow(/`users add` needs an API token\. Set REFLEXION_TOKEN=rp_…/);
  });

  it("refuses a command without a token (exit 1, saying how to get one) or with a dead one; runs as the token's person when the role suffices", async () => {
    const error = await authorizeCommand("runs", {}, ON, open).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(CliAuthError);
    expect((error as CliAuthError).exitCode).toBe(1);
    expect((error as Error).message).toContain("https://lab.example/account");

    const viewer = await accounts().users.add({ email: "vic@lab.example", name: "Vic", password: "vic-password", role: "viewer" });
    const { token, secret } = await accounts().tokens.create(viewer.id, "laptop");
    expect(await authorizeCommand("runs", { token: secret }, ON, open)).toEqual({ kind: "token", id: token.id, name: "Vic (token laptop)", userId: viewer.id });
    expect(await authorizeCommand("runs", {}, { ...ON, REFLEXION_TOKEN: secret }, open)).toMatchObject({ userId: viewer.id });
    await expect(authorizeCommand("run", { token: secret }, ON, open)).rejects.toThrow("`run` needs the runner role; Vic is a viewer. Ask an admin: `cli users set-role vic@lab.example runner`.");
    await expect(authorizeCommand("jobs retry", { token: secret }, ON, open)).rejects.toThrow(/needs the admin role/);

    await accounts().tokens.revoke(token.id);
    await expect(authorizeCommand("runs", { token: secret }, ON, open)).rejects.toThrow(/not valid \(unknown, revoked or expired/);
  });

  it("exempts the worker and database setup; with sign-in off every command is `cli`; sign-in on without shared mode is refused", async () => {
    expect(await authorizeCommand("worker", {}, ON, open)).toMatchObject({ kind: "worker" });
    expect(await authorizeCommand("db migrate", {}, ON, open)).toMatchObject({ kind: "cli" });
    expect(await authorizeCommand("jobs retry", {}, { REFLEXION_SIGN_IN: "off", REFLEXION_DATABASE_URL: "postgres://x@h/db" }, open)).toEqual({ kind: "cli", id: "cli", name: "cli", userId: null });
    await expect(authorizeCommand("runs", {}, { REFLEXION_SIGN_IN: "on" }, open)).rejects.toThrow(/REFLEXION_SIGN_IN=on needs shared mode/);
  });

  it("runs the action as the token's actor (what events and the audit record)", async () => {
    const runner = await accounts().users.add({ email: "rita@lab.example", name: "Rita", password: "rita-password", role: "runner" });
    const { secret } = await accounts().tokens.create(runner.id, "ci");
    let seen: Actor | null = null;
    const program = new Command().exitOverride();
    program.command("run").action(async () => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      seen = currentActor();
    });
    program.command("runs").action(() => undefined);
    const audited: Array<{ actor: Actor; action: string; target: Record<string, unknown>; status: number }> = [];
    const record = async (actor: Actor, action: string, target: Record<string, unknown>, status: number) => {
      audited.push({ actor, action, target, status });
    };
    process.argv = [process.argv[0]!, "cli", "run", "--token", secret];
    await parseAsActor(program, ON, open, record);
    expect(seen).toMatchObject({ kind: "token", name: "Rita (token ci)", userId: runner.id });
    expect(commandPath(program.commands[0]!)).toBe("run");
    // A command that changes something is audited as its person, without the token; a read is not.
    expect(audited).toEqual([{ actor: expect.objectContaining({ kind: "token", userId: runner.id }), action: "cli run", target: {}, status: 0 }]);
    expect(JSON.stringify(audited)).not.toContain(secret);
  });

  it("audits a refused command under who was refused, with its arguments, and tokens created or revoked", async () => {
    const viewer = await accounts().users.add({ email: "wendy@lab.example", name: "Wendy", password: "wendy-password", role: "viewer" });
    const { secret } = await accounts().tokens.create(viewer.id, "probe");
    const audited: Array<{ actor: Actor; action: string; target: Record<string, unknown>; status: number; detail?: string }> = [];
    const record = async (actor: Actor, action: string, target: Record<string, unknown>, status: number, detail?: string) => {
      audited.push({ actor, action, target, status, detail });
    };
    const program = new Command().exitOverride();
    const users = program.command("users");
    users.command("set-role <who> <role>").action(() => undefined);
    const tokens = program.command("tokens");
    tokens.command("revoke <id>").action(() => undefined);
    const exit = vi.spyOn(process, "exit").mockImplementation((() => undefined) as never);
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    try {
      process.argv = [process.argv[0]!, "cli", "users", "set-role", "wendy@lab.example", "admin", "--token", secret];
      await parseAsActor(program, ON, open, record);
      expect(exit).toHaveBeenCalledWith(1);
    } finally {
      exit.mockRestore();
      stderr.mockRestore();
    }
    expect(audited[0]).toMatchObject({ actor: { kind: "token", userId: viewer.id }, action: "cli users set-role", target: { args: ["wendy@lab.example", "admin"] }, status: 1, detail: expect.stringMatching(/needs the admin role; Wendy is a viewer\. It is for the lab's admins\./) });
    expect(JSON.stringify(audited)).not.toContain(secret);

    const again = new Command().exitOverride();
    again.command("tokens").command("revoke <id>").action(() => undefined);
    process.argv = [process.argv[0]!, "cli", "tokens", "revoke", "tok_123", "--token", secret];
    await parseAsActor(again, ON, open, record);
    // (With process.exit mocked the refused action ran on and was audited too: the refusal is the first entry, the revoke the last.)
    expect(audited.at(-1)).toMatchObject({ actor: { userId: viewer.id }, action: "cli tokens revoke", target: { args: ["tok_123"] }, status: 0 });
  });

  it("audits a changing command that failed (exit 2) with its message, and keeps a --tokens option (not a secret)", async () => {
    const admin = await accounts().users.add({ email: "greta@lab.example", name: "Greta", password: "greta-password", role: "admin" });
    const { secret } = await accounts().tokens.create(admin.id, "laptop");
    const audited: Array<{ actor: Actor; action: string; target: Record<string, unknown>; status: number; detail?: string }> = [];
    const record = async (actor: Actor, action: string, target: Record<string, unknown>, status: number, detail?: string) => {
      audited.push({ actor, action, target, status, detail });
    };
    const program = new Command().exitOverride();
    program
      .command("budgets")
      .command("set")
      .option("--user <id>")
      .option("--tokens <n>")
      .action(() => {
        throw new Error('No account "nobody@lab.example": give an account\'s email or id.');
      });
    process.argv = [process.argv[0]!, "cli", "budgets", "set", "--user", "nobody@lab.example", "--tokens", "100", "--token", secret];
    await expect(parseAsActor(program, ON, open, record)).rejects.toThrow(/No account/);
    expect(audited).toEqual([
      { actor: expect.objectContaining({ userId: admin.id }), action: "cli budgets set", target: { user: "nobody@lab.example", tokens: "100" }, status: 2, detail: 'No account "nobody@lab.example": give an account\'s email or id.' },
    ]);
    expect(JSON.stringify(audited)).not.toContain(secret);
  });

  it("lets a runner resume, pause, cancel, fork or replay only their own run (an admin any), as the routes do", async () => {
    const owner = await accounts().users.add({ email: "olga@lab.example", name: "Olga", password: "olga-password", role: "runner" });
    const other = await accounts().users.add({ email: "otto@lab.example", name: "Otto", password: "otto-password", role: "runner" });
    const admin = await accounts().users.add({ email: "ada@lab.example", name: "Ada", password: "ada-password", role: "admin" });
    const tokenOf = async (id: string) => (await accounts().tokens.create(id, "t")).secret;
    await pg.db.execute(sql`INSERT INTO runs (id, created_at, root_branch_id, title, config, owner_user_id) VALUES ('run-olga', '2026-12-05T10:00:00.000Z', 'br-olga', 't', '{}', ${owner.id})`);
    const own = { kind: "run" as const, id: "run-olga" };
    expect(await authorizeCommand("cancel", { token: await tokenOf(owner.id), own }, ON, open)).toMatchObject({ userId: owner.id });
    await expect(authorizeCommand("cancel", { token: await tokenOf(other.id), own }, ON, open)).rejects.toThrow("This run is not Otto's: only its owner or an admin may change it (`cancel`).");
    expect(await authorizeCommand("fork", { token: await tokenOf(admin.id), own }, ON, open)).toMatchObject({ userId: admin.id });
    await expect(authorizeCommand("resume", { token: await tokenOf(owner.id), own: { kind: "run", id: "run-nope" } }, ON, open)).rejects.toThrow(/No run run-nope \(list them with `cli runs`\)/);
  });

  it("lists every command of the CLI in the command policy", async () => {
    const help = await import("node:child_process").then(({ execFileSync }) =>
      execFileSync(process.execPath, ["--import", "tsx", "-e", LIST_COMMANDS], { cwd: process.cwd(), encoding: "utf8", env: { ...process.env, REFLEXION_ENV_FILES: "off" }, timeout: 60_000 }),
    );
    const paths = help.trim().split("\n");
    expect(paths.length).toBeGreaterThan(50);
    expect(paths.filter((path) => !(path in COMMAND_POLICY))).toEqual([]);
  }, 90_000);
});

/** Prints every leaf command path of bin/cli.ts's program (its register functions, without parsing). */
const LIST_COMMANDS = `
const { Command } = await import("commander");
const program = new Command();
const files = ["run-commands:registerRunCommands","worker-commands:registerWorkerCommands","experiment-commands:registerExperimentCommands","template-commands:registerTemplateCommands","import-commands:registerImportCommands","bundle-commands:registerBundleCommands","otlp-commands:registerOtlpCommands","trace-import-commands:registerTraceImportCommands","provider-commands:registerProviderCommands","price-commands:registerPriceCommands","db-commands:registerDbCommands","job-commands:registerJobCommands","task-set-commands:registerTaskSetCommands","template-check-command:registerTemplateCheckCommand","insight-commands:registerInsightCommands","trace-reflection-command:registerTraceReflectionCommand","memory-commands:registerMemoryCommands","mcp-command:registerMcpCommand","search-commands:registerSearchCommands","review-commands:registerReviewCommands","annotation-commands:registerAnnotationCommands","check-commands:registerCheckCommands","user-commands:registerUserCommands","token-commands:registerTokenCommands","spending-limit-commands:registerSpendingLimitCommands","audit-commands:registerAuditCommands"];
for (const entry of files) { const [file, fn] = entry.split(":"); (await import("./lib/cli/" + file + ".ts"))[fn](program); }
program.command("tasks");
const walk = (command, prefix) => { for (const sub of command.commands) { const path = prefix ? prefix + " " + sub.name() : sub.name(); if (sub.commands.length === 0) console.log(path); walk(sub, path); } };
walk(program, "");
`;
