import { LOCAL_PRINCIPAL, type Principal } from "@/lib/domain/roles";

/**
 * How the server learns who a request is (decision 0041). Shared mode with sign-in on uses the
 * Better Auth implementation (`lib/auth/better-auth-port.ts`: session cookies and per-person API
 * tokens, stored in PostgreSQL); embedded mode and `REFLEXION_SIGN_IN=off` use {@link openAuth}.
 */
export interface AuthPort {
  /** `on`: every request but sign-in and health needs a session or a token; `off`: everyone is {@link LOCAL_PRINCIPAL}. */
  readonly signIn: "on" | "off";
  /**
   * The principal of a request: its session cookie, else its `Authorization: Bearer <token>` header.
   * Null when neither is valid (expired session, revoked or unknown token) — the caller answers 401.
   */
  principalOf(request: Request): Promise<Principal | null>;
  /** The principal of a raw API token (the CLI's `REFLEXION_TOKEN`); null when unknown, revoked or expired. */
  principalOfToken(token: string): Promise<Principal | null>;
}

/** Sign-in off: every request and command is embedded mode's one local user (an admin). */
export function openAuth(): AuthPort {
  return {
    signIn: "off",
    principalOf: async () => LOCAL_PRINCIPAL,
    principalOfToken: async () => LOCAL_PRINCIPAL,
  };
}
