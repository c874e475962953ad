import { AppError } from "@/lib/domain/errors";
import { roleAtLeast, type Principal, type Role } from "@/lib/domain/roles";
import type { AuthPort } from "./auth-port";

/**
 * The principal of a request for routes that act on "your own" things (tokens, the account page),
 * checked here as well as by the route policy: with sign-in off, the local admin.
 * @throws AppError `unauthenticated` without a valid session or token; `forbidden` when the role is below `needed`.
 */
export async function requirePrincipal(auth: AuthPort, request: Request, needed: Role = "viewer"): Promise<Principal> {
  const principal = await auth.principalOf(request);
  if (!principal) throw new AppError("unauthenticated", "Sign in first (/sign-in), or send an API token as `Authorization: Bearer rp_…` (create one on /account).");
  if (!roleAtLeast(principal.role, needed)) throw new AppError("forbidden", `This needs the ${needed} role; you are a ${principal.role}. Ask an admin to change your role.`);
  return principal;
}
