import type { Command } from "commander";
import { currentActor } from "@/lib/actors/actor-context";
import type { ApiTokenView } from "@/lib/auth/api-tokens";
import { AppError } from "@/lib/domain/errors";
import { cliContext } from "./context";
import { accountsOrExplain } from "./user-commands";

/**
 * `cli tokens create|list|revoke`: your API tokens (the CLI's `REFLEXION_TOKEN`, scripts' `Authorization: Bearer`).
 * `--user <email>` acts on another account's tokens: admins, or anyone when sign-in is off (the local admin).
 */

/** One token as a tab-separated line: id, name, prefix, created, last used, expires, revoked. */
export function tokenLine(token: ApiTokenView): string {
  return [token.id, token.name, `${token.prefix}…`, token.createdAt, token.lastUsedAt ?? "never used", token.expiresAt ?? "no expiry", token.revokedAt ? `revoked ${token.revokedAt}` : "active"].join("\t");
}

/** Whose tokens: `--user` (resolved by id or email), else the token's own account. */
async function ownerOf(context: ReturnType<typeof cliContext>, user: string | undefined): Promise<string> {
  const accounts = accountsOrExplain(context.accounts);
  const own = currentActor()?.userId;
  if (user) {
    const target = (await accounts.users.find(user)).id;
    if (own && target !== own && !(await isAdmin(context, own))) throw new AppError("forbidden", "Only an admin may act on another account's tokens.");
    return target;
  }
  if (!own) throw new AppError("invalid-input", "Sign-in is off, so there is no \"you\": name the account with --user <email>.");
  return own;
}

/** Registers `tokens`. */
export function registerTokenCommands(program: Command): void {
  const tokens = program.command("tokens").description("Your API tokens for the CLI and scripts (shown once at creation, stored hashed, revocable).");
  tokens
    .command("create")
    .description("Create an API token; prints its secret once (set REFLEXION_TOKEN to it).")
    .requiredOption("--name <name>", "what it is for (laptop, ci)")
    .option("--expires <iso>", "when it stops working (ISO-8601; default never)")
    .option("--user <email>", "for another account (admins)")
    .action(async (options: { name: string; expires?: string; user?: string }) => {
      const context = cliContext();
      try {
        const { token, secret } = await accountsOrExplain(context.accounts).tokens.create(await ownerOf(context, options.user), options.name, options.expires ?? null);
        process.stderr.write(`${tokenLine(token)}\nThe secret below is shown once; you will not see it again:\n`);
        process.stdout.write(`${secret}\n`);
      } finally {
        await context.close();
      }
    });
  tokens
    .command("list")
    .description("List your tokens (never their secrets): id, name, prefix, created, last used, expiry, state.")
    .option("--user <email>", "another account's (admins)")
    .action(async (options: { user?: string }) => {
      const context = cliContext();
      try {
        const list = await accountsOrExplain(context.accounts).tokens.list(await ownerOf(context, options.user));
        process.stdout.write(list.map((token) => `${tokenLine(token)}\n`).join(""));
      } finally {
        await context.close();
      }
    });
  tokens
    .command("revoke <id>")
    .description("Revoke a token: it stops working at once, everywhere.")
    .action(async (id: string) => {
      const context = cliContext();
      try {
        const accounts = accountsOrExplain(context.accounts);
        const token = await accounts.tokens.get(id);
        const actor = currentActor();
        if (!token || (actor?.userId && token.userId !== actor.userId && !(await isAdmin(context, actor.userId)))) throw new AppError("not-found", `No API token ${id} of yours (see \`cli tokens list\`).`);
        process.stdout.write(`${tokenLine(await accounts.tokens.revoke(id))}\n`);
      } finally {
        await context.close();
      }
    });
}

async function isAdmin(context: ReturnType<typeof cliContext>, userId: string): Promise<boolean> {
  return (await accountsOrExplain(context.accounts).users.get(userId))?.role === "admin";
}
