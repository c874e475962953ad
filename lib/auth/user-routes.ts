import { z } from "zod";
import { AppError } from "@/lib/domain/errors";
import { roleSchema } from "@/lib/domain/roles";
import type { AccountContext } from "./accounts";
import { requirePrincipal } from "./request-principal";
import { newUserSchema, type UserDirectory, type UserView } from "./user-directory";

/** `PATCH /api/users/<id>` body. */
export const patchUserSchema = z.object({ role: roleSchema });

/** The user directory for an admin's request. @throws AppError 401/403, or 409 when this process has no accounts. */
async function directoryFor(ctx: AccountContext, request: Request): Promise<UserDirectory> {
  await requirePrincipal(ctx.auth, request, "admin");
  if (!ctx.accounts) throw new AppError("conflict", "Accounts exist only in shared mode with BETTER_AUTH_SECRET set (docs/shared-mode.md, \"Security\").");
  return ctx.accounts.users;
}

/** `GET /api/users`: every account (admins). */
export async function listUsers(ctx: AccountContext, request: Request): Promise<UserView[]> {
  return (await directoryFor(ctx, request)).list();
}

/** `POST /api/users` with `{ email, name, password, role }`: adds an account (admins). */
export async function addUser(ctx: AccountContext, request: Request, body: unknown): Promise<UserView> {
  const users = await directoryFor(ctx, request);
  return users.add(newUserSchema.parse(body));
}

/** `PATCH /api/users/<id>` with `{ role }` (admins). */
export async function setUserRole(ctx: AccountContext, request: Request, id: string, body: unknown): Promise<UserView> {
  const { role } = patchUserSchema.parse(body);
  return (await directoryFor(ctx, request)).setRole(id, role);
}

/** `DELETE /api/users/<id>`: removes the account, its sessions and tokens (admins; not yourself). */
export async function removeUser(ctx: AccountContext, request: Request, id: string): Promise<UserView> {
  const users = await directoryFor(ctx, request);
  const me = await ctx.auth.principalOf(request);
  if (me?.userId === id) throw new AppError("conflict", "You cannot remove your own account; ask another admin.");
  return users.remove(id);
}
