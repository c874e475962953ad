import type { PgDb } from "@/lib/db/pg/database";
import { openAuth, type AuthPort } from "./auth-port";
import { ApiTokenStore } from "./api-tokens";
import { createBetterAuth, type ReflexionAuth } from "./better-auth";
import { betterAuthPort } from "./better-auth-port";
import { signInMode } from "./sign-in-settings";
import { UserDirectory } from "./user-directory";

type Env = Record<string, string | undefined>;

/** Shared mode's accounts: the Better Auth server (the `/api/auth` handler), API tokens and the user directory. */
export interface AccountServices {
  auth: ReflexionAuth;
  tokens: ApiTokenStore;
  users: UserDirectory;
}

/** What the account routes need of the server context (its `auth` and `accounts`). */
export interface AccountContext {
  auth: AuthPort;
  accounts: AccountServices | null;
}

/**
 * How a process learns who is asking (sign-in) and where accounts live, from the environment:
 * - not shared mode (`db` null): sign-in off, no accounts; `REFLEXION_SIGN_IN=on` is refused;
 * - shared mode, sign-in on (the default): Better Auth sessions and API tokens; `BETTER_AUTH_SECRET` is required;
 * - shared mode, `REFLEXION_SIGN_IN=off`: everyone is the local admin; accounts are still managed when the secret is set
 *   (so an admin can prepare them before turning sign-in on).
 * @throws Error with what to do when a setting is wrong or the secret is missing while sign-in is on.
 */
export function openSignIn(db: PgDb | null, env: Env): { auth: AuthPort; accounts: AccountServices | null } {
  const mode = signInMode(env, db !== null);
  if (!db) return { auth: openAuth(), accounts: null };
  if (mode === "off" && !env.BETTER_AUTH_SECRET?.trim()) return { auth: openAuth(), accounts: null };
  const auth = createBetterAuth(db, env);
  const tokens = new ApiTokenStore(db);
  const accounts = { auth, tokens, users: new UserDirectory(auth) };
  return { auth: mode === "on" ? betterAuthPort(auth, tokens) : openAuth(), accounts };
}

/** An account's display name for messages ("alice's daily budget…"); its id without accounts, or when there is no such account. */
export function accountNameOf(accounts: AccountServices | null): (userId: string) => Promise<string> {
  return async (userId) => (accounts ? ((await accounts.users.get(userId).catch(() => null))?.name ?? userId) : userId);
}

/** The account an id or email names, or null: for settings that name a person (budgets); null without accounts. */
export function accountFinderOf(accounts: AccountServices | null): ((idOrEmail: string) => Promise<{ id: string } | null>) | undefined {
  if (!accounts) return undefined;
  return async (idOrEmail) => accounts.users.find(idOrEmail).catch(() => null);
}
