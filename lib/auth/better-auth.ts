import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { genericOAuth } from "better-auth/plugins/generic-oauth";
import type { PgDb } from "@/lib/db/pg/database";
import { apiTokens, authAccounts, authRateLimits, authSessions, authUsers, authVerifications } from "@/lib/db/pg/schema";
import { authSecret, OIDC_PROVIDER_ID, oidcSettings, publicUrl, sessionSeconds } from "./sign-in-settings";

type Env = Record<string, string | undefined>;

/** Sign-in attempts allowed per client IP within {@link SIGN_IN_WINDOW_SECONDS}; the next one gets 429. */
export const SIGN_IN_ATTEMPTS = 5;
/** The sign-in rate limit's window, in seconds. */
export const SIGN_IN_WINDOW_SECONDS = 60;

/** Options of {@link createBetterAuth} (tests shorten sessions). */
export interface BetterAuthOptions {
  /** Session length in seconds (default from `REFLEXION_SESSION_DAYS`). */
  sessionSeconds?: number;
}

/**
 * The Better Auth server of shared mode: email + password (scrypt hashes, Better Auth's default; no
 * self sign-up — accounts come from an admin or `cli users add`), optional OIDC (genericOAuth from
 * `REFLEXION_OIDC_*`; a new OIDC account is a viewer), sessions in PostgreSQL that end after
 * `REFLEXION_SESSION_DAYS` (refreshed at most daily), httpOnly SameSite=Lax cookies, `Secure` when the
 * public URL is https, and a sign-in rate limit ({@link SIGN_IN_ATTEMPTS} per {@link SIGN_IN_WINDOW_SECONDS} s
 * per IP) counted in the database so every app server shares it. State-changing requests from another
 * origin than the public URL are refused (Better Auth's origin check, 403).
 * @throws Error when `BETTER_AUTH_SECRET` is missing or short, or an OIDC setting is incomplete.
 */
export function createBetterAuth(db: PgDb, env: Env, options: BetterAuthOptions = {}) {
  const secret = authSecret(env);
  const baseURL = publicUrl(env);
  const oidc = oidcSettings(env);
  const expiresIn = options.sessionSeconds ?? sessionSeconds(env);
  return betterAuth({
    appName: "Reflexion Playground",
    secret,
    baseURL,
    basePath: "/api/auth",
    trustedOrigins: [baseURL],
    database: drizzleAdapter(db, {
      provider: "pg",
      schema: {
        user: authUsers,
        session: authSessions,
        account: authAccounts,
        verification: authVerifications,
        rateLimit: authRateLimits,
        auth_users: authUsers,
        auth_sessions: authSessions,
        auth_accounts: authAccounts,
        auth_verifications: authVerifications,
        auth_rate_limits: authRateLimits,
        api_tokens: apiTokens,
      },
    }),
    user: {
      modelName: "auth_users",
      additionalFields: { role: { type: "string", required: false, defaultValue: "viewer", input: false } },
    },
    session: { modelName: "auth_sessions", expiresIn, updateAge: Math.min(24 * 3600, expiresIn) },
    account: { modelName: "auth_accounts" },
    verification: { modelName: "auth_verifications" },
    emailAndPassword: { enabled: true, disableSignUp: true },
    rateLimit: {
      enabled: true,
      storage: "database",
      modelName: "auth_rate_limits",
      window: 60,
      max: 100,
      customRules: { "/sign-in/email": { window: SIGN_IN_WINDOW_SECONDS, max: SIGN_IN_ATTEMPTS } },
    },
    advanced: {
      // Explicit: Better Auth skips its origin (CSRF) check by default when NODE_ENV is "test"; tests must see what production does.
      disableOriginCheck: false,
      disableCSRFCheck: false,
      useSecureCookies: baseURL.startsWith("https:"),
      defaultCookieAttributes: { httpOnly: true, sameSite: "lax" },
    },
    plugins: oidc ? [genericOAuth({ config: [{ providerId: OIDC_PROVIDER_ID, discoveryUrl: oidc.discoveryUrl, clientId: oidc.clientId, clientSecret: oidc.clientSecret, scopes: ["openid", "email", "profile"], pkce: true }] })] : [],
  });
}

/** The Better Auth server {@link createBetterAuth} returns. */
export type ReflexionAuth = ReturnType<typeof createBetterAuth>;
