import os from "node:os";
import type { Command } from "commander";
import type { Actor } from "@/lib/domain/actor";
import { roleAtLeast, type Principal } from "@/lib/domain/roles";
import { actorOfPrincipal, runAs } from "@/lib/actors/actor-context";
import { openSignIn } from "@/lib/auth/accounts";
import { publicUrl, signInMode } from "@/lib/auth/sign-in-settings";
import { openNodePostgres, type PgDb } from "@/lib/db/pg/database";
import { commandAccess, isAuditedCommand, ownedTarget } from "./command-policy";
import { eq } from "drizzle-orm";
import * as schema from "@/lib/db/pg/schema";
import { mayChange } from "@/lib/server/ownership";
import { auditAction } from "@/lib/server/audit-log";

type Env = Record<string, string | undefined>;

/** A CLI command refused by sign-in: the CLI prints the message and exits 1. */
export class CliAuthError extends Error {
  readonly exitCode = 1;
  /** Who was refused, when the token was valid (a role too low, someone else's run): the audit records it. */
  actor: Actor | null = null;
}

/** `error` with who was refused attached. */
function refusing(error: CliAuthError, principal: Principal): CliAuthError {
  error.actor = actorOfPrincipal(principal);
  return error;
}

/** What {@link authorizeCommand} needs of the accounts (a PostgreSQL database, opened only when sign-in is on). */
export interface CliAccounts {
  principalOfToken(token: string): Promise<Principal | null>;
  tokenName(tokenId: string): Promise<string | null>;
  countUsers(): Promise<number>;
  /** The owner's account id of a run or experiment (null: none). @throws CliAuthError when there is no such run or experiment. */
  ownerOf(kind: "run" | "experiment", id: string): Promise<string | null>;
  close(): Promise<void>;
}

/** The accounts of the shared-mode database (`REFLEXION_DATABASE_URL`), or of `db` (tests). */
export function openCliAccounts(env: Env, db?: PgDb): CliAccounts {
  const connection = db ? null : openNodePostgres(env.REFLEXION_DATABASE_URL ?? "", { max: 2 });
  const database = db ?? connection!.db;
  const { auth, accounts } = openSignIn(database, env);
  if (!accounts) throw new CliAuthError("Sign-in is on but this process has no accounts: set BETTER_AUTH_SECRET (`openssl rand -base64 32`).");
  return {
    principalOfToken: (token) => auth.principalOfToken(token),
    tokenName: async (id) => (await accounts.tokens.get(id))?.name ?? null,
    countUsers: () => accounts.users.count(),
    ownerOf: async (kind, id) => {
      const table = kind === "run" ? schema.runs : schema.experiments;
      const [row] = await database.select({ owner: table.ownerUserId }).from(table).where(eq(table.id, id));
      if (!row) throw new CliAuthError(`No ${kind} ${id} (list them with \`cli ${kind === "run" ? "runs" : "experiment list"}\`).`);
      return row.owner;
    },
    close: async () => {
      await connection?.close();
    },
  };
}

/** The actor of a command run with sign-in off (or a setup command). */
export const CLI_ACTOR: Actor = Object.freeze({ kind: "cli", id: "cli", name: "cli", userId: null });

/**
 * Who a CLI command runs as, checked against lib/cli/command-policy.ts before it runs:
 * sign-in off → `cli`; `worker` → a worker actor; setup commands → `cli`; `users add` while no account
 * exists (with `--admin`) → `cli`; anything else needs an API token (`--token` or `REFLEXION_TOKEN`)
 * whose account has the role, and runs as that token.
 * @throws CliAuthError (exit 1) saying how to get a token, or which role is needed;
 *   Error when `REFLEXION_SIGN_IN=on` outside shared mode or `BETTER_AUTH_SECRET` is missing.
 */
export async function authorizeCommand(
  path: string,
  options: { token?: string; admin?: boolean; own?: { kind: "run" | "experiment"; id: string } | null },
  env: Env,
  open: () => CliAccounts,
): Promise<Actor> {
  let access = commandAccess(path);
  if (signInMode(env) === "off") return CLI_ACTOR;
  if (access === "worker") return { kind: "worker", id: `worker-${os.hostname()}-${process.pid}`, name: `worker ${os.hostname()}:${process.pid}`, userId: null };
  if (access === "operator") return CLI_ACTOR;
  const accounts = open();
  try {
    if (access === "bootstrap") {
      if ((await accounts.countUsers()) === 0) {
        if (!options.admin) throw new CliAuthError("No account exists yet: the first one must be an admin. Add --admin (`cli users add --admin --email … --name …`).");
        return CLI_ACTOR;
      }
      access = "admin";
    }
    const token = (options.token ?? env.REFLEXION_TOKEN)?.trim();
    if (!token) {
      throw new CliAuthError(
        `Sign-in is on (shared mode): \`${path}\` needs an API token. Set REFLEXION_TOKEN=rp_… (or pass --token rp_…). ` +
          `Create one on ${publicUrl(env)}/account (signed in), or ask an admin (\`cli tokens create --user <your email> --name <what for>\`). ` +
          "No account yet? The first admin is made with `cli users add --admin`.",
      );
    }
    const principal = await accounts.principalOfToken(token);
    if (!principal) throw new CliAuthError("That API token is not valid (unknown, revoked or expired, or its account was removed): create a new one on /account and set REFLEXION_TOKEN to it.");
    if (!roleAtLeast(principal.role, access)) {
      const ask = access === "admin" ? "It is for the lab's admins." : `Ask an admin: \`cli users set-role ${principal.email ?? principal.userId} ${access}\`.`;
      throw refusing(new CliAuthError(`\`${path}\` needs the ${access} role; ${principal.name} is a ${principal.role}. ${ask}`), principal);
    }
    // Changing a run or experiment (resume, pause, cancel, fork, replay…) is for its owner and admins, as on the routes.
    if (options.own && !mayChange(principal, await accounts.ownerOf(options.own.kind, options.own.id))) {
      throw refusing(new CliAuthError(`This ${options.own.kind} is not ${principal.name}'s: only its owner or an admin may change it (\`${path}\`).`), principal);
    }
    const tokenName = principal.tokenId ? await accounts.tokenName(principal.tokenId) : null;
    return actorOfPrincipal(principal, tokenName ?? undefined);
  } finally {
    await accounts.close();
  }
}

/** A command's path as typed: `experiment run`, `users add` (without the program's name). */
export function commandPath(command: Command): string {
  const names: string[] = [];
  for (let current: Command | null = command; current?.parent; current = current.parent) names.unshift(current.name());
  return names.join(" ");
}

/**
 * Adds `--token` and the sign-in check to `program` and parses the command line as the command's actor.
 * Commander has no hook around an action, and an action runs in the async context in force when parsing
 * began: so parsing runs inside {@link runAs} with a placeholder actor, which the `preAction` hook fills in.
 */
export async function parseAsActor(
  program: Command,
  env: Env = process.env,
  open: () => CliAccounts = () => openCliAccounts(env),
  record: (actor: Actor, action: string, target: Record<string, unknown>, status: number, detail?: string) => Promise<void> = (actor, action, target, status, detail) =>
    auditAction(actor, action, target, status, { env, detail: detail ?? null }),
): Promise<void> {
  program.option("--token <rp_…>", "your API token when sign-in is on (default: REFLEXION_TOKEN)");
  const actor: Actor = { ...CLI_ACTOR };
  let running: Command | null = null;
  program.hook("preAction", async (_root, command) => {
    running = command;
    try {
      const path = commandPath(command);
      const opts = command.opts<{ admin?: boolean; run?: string; id?: string }>();
      const ownKind = ownedTarget(path);
      const ownId = ownKind === "run" ? opts.run : ownKind === "experiment" ? opts.id : undefined;
      const own = ownKind && ownId ? { kind: ownKind, id: ownId } : null;
      Object.assign(actor, await authorizeCommand(path, { token: program.opts<{ token?: string }>().token, admin: opts.admin, own }, env, open));
    } catch (error) {
      if (!(error instanceof CliAuthError)) throw error;
      process.stderr.write(`error: ${error.message}\n`);
      // A refusal is audited too: under who was refused when the token was valid, else as not signed in.
      const who = error.actor ?? { kind: "person" as const, id: "unidentified", name: "(no valid token)", userId: null };
      await record(who, `cli ${commandPath(command)}`, auditedTarget(command), error.exitCode, error.message);
      process.exit(error.exitCode);
    }
  });
  // Commands that change something are audited once they ran (reads, setup checks and workers are not), as their actor.
  program.hook("postAction", async (_root, command) => {
    const path = commandPath(command);
    if (!isAuditedCommand(path)) return;
    const status = typeof process.exitCode === "number" ? process.exitCode : 0;
    await record({ ...actor }, `cli ${path}`, auditedTarget(command), status);
  });
  try {
    await runAs(actor, () => program.parseAsync());
  } catch (error) {
    // A command that changes something and failed (refused by a rule, bad input: exit 2) is audited too.
    const failed: Command | null = running;
    if (failed && isAuditedCommand(commandPath(failed))) {
      await record({ ...actor }, `cli ${commandPath(failed)}`, auditedTarget(failed), 2, error instanceof Error ? error.message : String(error));
    }
    throw error;
  }
}

/** What a command acted on, for the audit: its options without secrets, and its arguments (`users set-role <who> <role>`). */
export function auditedTarget(command: Command): Record<string, unknown> {
  const args = command.args.filter((arg) => !/^rp_/.test(arg));
  return { ...auditedOptions(command.opts()), ...(args.length > 0 ? { args } : {}) };
}

/** A command's options as the audit keeps them: secrets (token, password) left out. */
export function auditedOptions(options: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(options).filter(([key]) => !/^(token|password|passwordStdin|secret|apiKey|key)$/i.test(key)));
}
