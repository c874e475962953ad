import type { Principal } from "@/lib/domain/roles";
import type { AuthPort } from "./auth-port";
import type { ApiTokenStore } from "./api-tokens";
import type { ReflexionAuth } from "./better-auth";
import { principalOfUser } from "./user-directory";

/**
 * Sign-in on (shared mode): a request is its Better Auth session (the cookie), else its
 * `Authorization: Bearer rp_…` API token; the role is read from the account on every request, so a
 * role change, a revoked token, a signed-out session or a removed account takes effect at once.
 */
export function betterAuthPort(auth: ReflexionAuth, tokens: ApiTokenStore): AuthPort {
  const principalOfToken = async (secret: string): Promise<Principal | null> => {
    const token = await tokens.verify(secret.trim());
    if (!token) return null;
    const ctx = await auth.$context;
    const user = await ctx.internalAdapter.findUserById(token.userId);
    return user ? principalOfUser(user, "token", token.id, token.name) : null;
  };
  return {
    signIn: "on",
    principalOfToken,
    async principalOf(request) {
      const session = await auth.api.getSession({ headers: request.headers }).catch(() => null);
      if (session) return principalOfUser(session.user, "person");
      const bearer = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get("authorization") ?? "")?.[1];
      return bearer ? principalOfToken(bearer) : null;
    },
  };
}
