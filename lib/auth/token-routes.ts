import { z } from "zod";
import { AppError } from "@/lib/domain/errors";
import type { Principal } from "@/lib/domain/roles";
import type { AccountContext, AccountServices } from "./accounts";
import type { ApiTokenView, CreatedApiToken } from "./api-tokens";
import { requirePrincipal } from "./request-principal";

/** `POST /api/tokens` body: a name, and optionally an expiry (ISO-8601). */
export const createTokenSchema = z.object({ name: z.string().trim().min(1).max(100), expiresAt: z.string().nullable().default(null) });

/** The accounts of a context with sign-in on, or a 409 that says API tokens need sign-in. */
function accountsOf(ctx: AccountContext): AccountServices {
  if (ctx.auth.signIn !== "on" || !ctx.accounts) {
    throw new AppError("conflict", "API tokens belong to accounts: they exist only in shared mode with sign-in on (REFLEXION_SIGN_IN=on, BETTER_AUTH_SECRET set).");
  }
  return ctx.accounts;
}

/** Whose tokens a request may see: its own, or (an admin) anyone's with `?user=<id>`. */
async function ownerFor(ctx: AccountContext, request: Request): Promise<{ principal: Principal; userId: string }> {
  const principal = await requirePrincipal(ctx.auth, request);
  const asked = new URL(request.url).searchParams.get("user");
  if (asked && asked !== principal.userId) {
    if (principal.role !== "admin") throw new AppError("forbidden", "Only an admin may see another person's API tokens.");
    return { principal, userId: asked };
  }
  return { principal, userId: principal.userId };
}

/** `GET /api/tokens[?user=]`: the tokens of the caller (or of `user`, for an admin), never a secret. */
export async function listTokens(ctx: AccountContext, request: Request): Promise<ApiTokenView[]> {
  const accounts = accountsOf(ctx);
  const { userId } = await ownerFor(ctx, request);
  return accounts.tokens.list(userId);
}

/** `POST /api/tokens[?user=]`: creates a token; the answer carries the secret, the only time it is shown. */
export async function createToken(ctx: AccountContext, request: Request, body: unknown): Promise<CreatedApiToken> {
  const accounts = accountsOf(ctx);
  const { userId } = await ownerFor(ctx, request);
  const { name, expiresAt } = createTokenSchema.parse(body);
  return accounts.tokens.create(userId, name, expiresAt);
}

/** `DELETE /api/tokens/<id>`: revokes one of the caller's tokens (an admin: anyone's). */
export async function revokeToken(ctx: AccountContext, request: Request, id: string): Promise<ApiTokenView> {
  const accounts = accountsOf(ctx);
  const principal = await requirePrincipal(ctx.auth, request);
  const token = await accounts.tokens.get(id);
  // Another person's token reads as missing to a non-admin: its id says nothing.
  if (!token || (token.userId !== principal.userId && principal.role !== "admin")) throw new AppError("not-found", `No API token ${id} of yours.`);
  return accounts.tokens.revoke(id);
}
