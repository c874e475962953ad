/**
 * Sign-in settings read from the environment (docs/shared-mode.md, "Security: sign-in, roles and tokens").
 * Plain functions over an env record, so the server, the CLI and the proxy decide the same way.
 */

type Env = Record<string, string | undefined>;

/** Default session length in days (`REFLEXION_SESSION_DAYS`). */
export const DEFAULT_SESSION_DAYS = 7;

/** True when `REFLEXION_DATABASE_URL` names a PostgreSQL server (shared mode). */
function sharedModeUrl(env: Env): boolean {
  return /^postgres(ql)?:\/\//i.test(env.REFLEXION_DATABASE_URL?.trim() ?? "");
}

/**
 * Whether sign-in is on: `REFLEXION_SIGN_IN=on|off`, default `on` in shared mode (`REFLEXION_DATABASE_URL`
 * set and the process storing there) and `off` otherwise. `shared`: the process really stores in
 * PostgreSQL (a test may pass its own store, PGlite without the URL or in-memory with it); default from the URL.
 * @throws Error when the value is neither `on` nor `off`, or `on` without shared mode.
 */
export function signInMode(env: Env, shared: boolean = sharedModeUrl(env)): "on" | "off" {
  const raw = env.REFLEXION_SIGN_IN?.trim().toLowerCase();
  if (raw && raw !== "on" && raw !== "off") throw new Error(`REFLEXION_SIGN_IN must be "on" or "off" (got "${env.REFLEXION_SIGN_IN}").`);
  if (raw === "off") return "off";
  // Unset: on exactly when this process stores in the PostgreSQL the URL names.
  if (!raw) return shared && sharedModeUrl(env) ? "on" : "off";
  if (!shared) {
    throw new Error("REFLEXION_SIGN_IN=on needs shared mode: set REFLEXION_DATABASE_URL to a PostgreSQL database (docs/shared-mode.md), or unset REFLEXION_SIGN_IN for the one-user embedded mode.");
  }
  return "on";
}

/**
 * The secret Better Auth signs session cookies with (`BETTER_AUTH_SECRET`, at least 32 characters).
 * @throws Error saying how to make one when it is missing or short.
 */
export function authSecret(env: Env): string {
  const secret = env.BETTER_AUTH_SECRET?.trim() ?? "";
  if (secret.length < 32) {
    throw new Error(
      `${secret ? "BETTER_AUTH_SECRET is shorter than 32 characters" : "BETTER_AUTH_SECRET is not set"}: sign-in (shared mode, REFLEXION_SIGN_IN=on) signs session cookies with it. ` +
        "Make one with `openssl rand -base64 32`, put it in the environment of every app server and CLI (the same value everywhere), and restart; or set REFLEXION_SIGN_IN=off.",
    );
  }
  return secret;
}

/** The public URL people open (`REFLEXION_PUBLIC_URL`, else `BETTER_AUTH_URL`, else http://localhost:3000): cookies are `Secure` when it is https. */
export function publicUrl(env: Env): string {
  const raw = (env.REFLEXION_PUBLIC_URL ?? env.BETTER_AUTH_URL ?? "").trim() || "http://localhost:3000";
  try {
    return new URL(raw).origin;
  } catch {
    throw new Error(`REFLEXION_PUBLIC_URL must be the URL people open, like https://playground.lab.example (got "${raw}").`);
  }
}

/**
 * How long a session lasts, in seconds (`REFLEXION_SESSION_DAYS`, default 7; fractions allowed).
 * @throws Error when the value is not a positive number.
 */
export function sessionSeconds(env: Env): number {
  const raw = env.REFLEXION_SESSION_DAYS?.trim();
  const days = raw ? Number(raw) : DEFAULT_SESSION_DAYS;
  if (!Number.isFinite(days) || days <= 0) throw new Error(`REFLEXION_SESSION_DAYS must be a positive number of days (got "${raw}").`);
  return Math.round(days * 24 * 3600);
}

/** An OIDC provider from the environment, or null when `REFLEXION_OIDC_ISSUER` is unset. */
export interface OidcSettings {
  /** The discovery document's URL (`…/.well-known/openid-configuration`; an issuer URL gets it appended). */
  discoveryUrl: string;
  clientId: string;
  clientSecret: string;
  /** What the sign-in button says ("Sign in with <name>"), `REFLEXION_OIDC_NAME`, default "single sign-on". */
  name: string;
}

/** Better Auth's provider id for the lab's OIDC provider (the callback is `/api/auth/oauth2/callback/oidc`). */
export const OIDC_PROVIDER_ID = "oidc";

/**
 * The OIDC provider (`REFLEXION_OIDC_ISSUER`, `REFLEXION_OIDC_CLIENT_ID`, `REFLEXION_OIDC_CLIENT_SECRET`, `REFLEXION_OIDC_NAME`), or null.
 * @throws Error naming the missing variable when the issuer is set without a client id or secret.
 */
export function oidcSettings(env: Env): OidcSettings | null {
  const issuer = env.REFLEXION_OIDC_ISSUER?.trim();
  if (!issuer) return null;
  const clientId = env.REFLEXION_OIDC_CLIENT_ID?.trim();
  const clientSecret = env.REFLEXION_OIDC_CLIENT_SECRET?.trim();
  if (!clientId || !clientSecret) throw new Error("REFLEXION_OIDC_ISSUER is set: also set REFLEXION_OIDC_CLIENT_ID and REFLEXION_OIDC_CLIENT_SECRET (from your identity provider's client registration).");
  const discoveryUrl = issuer.includes("/.well-known/") ? issuer : `${issuer.replace(/\/+$/, "")}/.well-known/openid-configuration`;
  return { discoveryUrl, clientId, clientSecret, name: env.REFLEXION_OIDC_NAME?.trim() || "single sign-on" };
}
