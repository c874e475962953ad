import type { Command } from "commander";
import { roles, type Role } from "@/lib/domain/roles";
import { currentActor } from "@/lib/actors/actor-context";
import type { AccountServices } from "@/lib/auth/accounts";
import type { UserView } from "@/lib/auth/user-directory";
import { AppError } from "@/lib/domain/errors";
import { cliContext } from "./context";

/**
 * `cli users add|list|set-role|set-password|remove`: the lab's accounts (shared mode). `users add --admin` while no
 * account exists bootstraps the first admin without a token and prints a first API token for them.
 */

/** A role from the command line. */
function roleArg(value: string): Role {
  if (!(roles as readonly string[]).includes(value)) throw new AppError("invalid-input", `A role is one of ${roles.join(", ")} (got "${value}").`);
  return value as Role;
}

/** The password: all of stdin (`--password-stdin`, trailing newline dropped), else asked on the terminal without echo. */
async function readPassword(fromStdin: boolean): Promise<string> {
  if (fromStdin || !process.stdin.isTTY) {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(Buffer.from(chunk as Buffer));
    return Buffer.concat(chunks).toString("utf8").replace(/\r?\n$/, "");
  }
  process.stderr.write("Password (not shown): ");
  process.stdin.setRawMode(true);
  process.stdin.resume();
  let password = "";
  try {
    for await (const chunk of process.stdin) {
      for (const char of (chunk as Buffer).toString("utf8")) {
        if (char === "\r" || char === "\n") return password;
        if (char === "\u0003") throw new AppError("invalid-input", "Cancelled.");
        password = char === "\u007f" ? password.slice(0, -1) : password + char;
      }
    }
    return password;
  } finally {
    process.stdin.setRawMode(false);
    process.stdin.pause();
    process.stderr.write("\n");
  }
}

/** The accounts of a CLI context, or the message saying what shared mode needs. */
export function accountsOrExplain(accounts: AccountServices | null): AccountServices {
  if (!accounts) throw new AppError("conflict", "Accounts live in shared mode: set REFLEXION_DATABASE_URL (PostgreSQL) and BETTER_AUTH_SECRET (`openssl rand -base64 32`), see docs/shared-mode.md \"Security\".");
  return accounts;
}

/** One account as a tab-separated line: id, email, name, role, created. */
export function userLine(user: UserView): string {
  return `${user.id}\t${user.email}\t${user.name}\t${user.role}\t${user.createdAt}`;
}

/** Registers `users`. */
export function registerUserCommands(program: Command): void {
  const users = program.command("users").description("The lab's accounts in shared mode: add, list, change a role, remove (admins; the first admin needs no token).");
  users
    .command("add")
    .description("Add an account that signs in with email + password (role viewer by default; --admin for an admin).")
    .requiredOption("--email <email>", "the person's email (they sign in with it)")
    .requiredOption("--name <name>", "the name people see in the audit and the header")
    .option("--role <role>", `one of ${roles.join(", ")}`, roleArg, "viewer" as Role)
    .option("--admin", "make an admin (same as --role admin; required for the first account)")
    .option("--password-stdin", "read the password from stdin (else you are asked for it)")
    .action(async (options: { email: string; name: string; role: Role; admin?: boolean; passwordStdin?: boolean }) => {
      const context = cliContext();
      try {
        const accounts = accountsOrExplain(context.accounts);
        const first = (await accounts.users.count()) === 0;
        const password = await readPassword(Boolean(options.passwordStdin));
        const user = await accounts.users.add({ email: options.email, name: options.name, password, role: options.admin ? "admin" : options.role });
        process.stdout.write(`${userLine(user)}\n`);
        if (first && context.auth.signIn === "on") {
          // The first admin has no way yet to make a token with the CLI (that needs a token): here is one.
          const { secret } = await accounts.tokens.create(user.id, "first admin (cli users add)");
          process.stderr.write(`API token for ${user.email} (shown once; keep it, e.g. export REFLEXION_TOKEN=…):\n`);
          process.stdout.write(`${secret}\n`);
        }
      } finally {
        await context.close();
      }
    });
  users
    .command("list")
    .description("List the accounts, oldest first: id, email, name, role, created.")
    .option("--json", "print them as JSON")
    .action(async (options: { json?: boolean }) => {
      const context = cliContext();
      try {
        const list = await accountsOrExplain(context.accounts).users.list();
        process.stdout.write(options.json ? `${JSON.stringify(list, null, 2)}\n` : list.map((user) => `${userLine(user)}\n`).join(""));
      } finally {
        await context.close();
      }
    });
  users
    .command("set-role <user> <role>")
    .description("Change an account's role (by id or email); it applies to their next request.")
    .action(async (user: string, role: string) => {
      const context = cliContext();
      try {
        process.stdout.write(`${userLine(await accountsOrExplain(context.accounts).users.setRole(user, roleArg(role)))}\n`);
      } finally {
        await context.close();
      }
    });
  users
    .command("set-password <user>")
    .description("Give an account (by id or email) a new password, e.g. when it was forgotten or leaked: its sessions end at once.")
    .option("--password-stdin", "read the password from stdin (else you are asked for it)")
    .action(async (user: string, options: { passwordStdin?: boolean }) => {
      const context = cliContext();
      try {
        const accounts = accountsOrExplain(context.accounts);
        const password = await readPassword(Boolean(options.passwordStdin));
        process.stdout.write(`new password set; sessions ended: ${userLine(await accounts.users.setPassword(user, password))}\n`);
      } finally {
        await context.close();
      }
    });
  users
    .command("remove <user>")
    .description("Remove an account (by id or email): its sessions and API tokens stop working at once.")
    .action(async (user: string) => {
      const context = cliContext();
      try {
        const accounts = accountsOrExplain(context.accounts);
        const target = await accounts.users.find(user);
        if (currentActor()?.userId === target.id) throw new AppError("conflict", "You cannot remove your own account; ask another admin.");
        await accounts.users.remove(target.id);
        process.stdout.write(`removed ${userLine(target)}\n`);
      } finally {
        await context.close();
      }
    });
}
