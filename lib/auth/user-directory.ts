import { z } from "zod";
import { AppError } from "@/lib/domain/errors";
import { roleSchema, type Principal, type Role } from "@/lib/domain/roles";
import type { ReflexionAuth } from "./better-auth";

/** Shortest password an admin may set (Better Auth's own minimum for sign-up). */
export const MIN_PASSWORD_LENGTH = 8;

/** An account as listed (never its password hash). `createdAt` ISO-8601. */
export interface UserView {
  id: string;
  email: string;
  name: string;
  role: Role;
  createdAt: string;
}

/** `POST /api/users` and `cli users add`. */
export const newUserSchema = z.object({
  email: z.email(),
  name: z.string().trim().min(1).max(100),
  password: z.string().min(MIN_PASSWORD_LENGTH, `a password needs at least ${MIN_PASSWORD_LENGTH} characters`).max(200),
  role: roleSchema.default("viewer"),
});
export type NewUser = z.input<typeof newUserSchema>;

type AuthUserRow = { id: string; email: string; name: string; createdAt: Date | string; role?: unknown };

/** The role stored on an account (an unknown value reads as the least, viewer). */
export function roleOf(user: { role?: unknown }): Role {
  const parsed = roleSchema.safeParse(user.role);
  return parsed.success ? parsed.data : "viewer";
}

function viewOf(user: AuthUserRow): UserView {
  return { id: user.id, email: user.email, name: user.name, role: roleOf(user), createdAt: new Date(user.createdAt).toISOString() };
}

/** The person a Better Auth user is, as a principal of `kind` (`person` for a session, `token` with its id). */
export function principalOfUser(user: AuthUserRow, kind: "person" | "token", tokenId: string | null = null, tokenName: string | null = null): Principal {
  return { kind, userId: user.id, name: user.name, email: user.email, role: roleOf(user), tokenId, ...(tokenName ? { tokenName } : {}) };
}

/**
 * The lab's accounts, through Better Auth's internal adapter (its hooks and password hashing,
 * scrypt): add, list, change a role, remove. Removing an account deletes its sessions and
 * sign-in methods (Better Auth) and its API tokens (cascade), so nothing of it works afterwards.
 */
export class UserDirectory {
  constructor(private readonly auth: ReflexionAuth) {}

  /**
   * Adds an account that signs in with email + password.
   * @throws AppError `invalid-input` on a bad email, name, role or short password; `conflict` when the email is taken.
   */
  async add(input: NewUser): Promise<UserView> {
    const user = newUserSchema.parse(input);
    const ctx = await this.auth.$context;
    if (await ctx.internalAdapter.findUserByEmail(user.email)) throw new AppError("conflict", `An account with email ${user.email} already exists (change its role with \`cli users set-role\`).`);
    const created = (await ctx.internalAdapter.createUser({ email: user.email, name: user.name, emailVerified: true, role: user.role }, { method: "admin" })) as AuthUserRow;
    await ctx.internalAdapter.createAccount({ userId: created.id, providerId: "credential", accountId: created.id, password: await ctx.password.hash(user.password) });
    return viewOf(created);
  }

  /** Every account, oldest first. */
  async list(): Promise<UserView[]> {
    const ctx = await this.auth.$context;
    const users = (await ctx.internalAdapter.listUsers(undefined, undefined, { field: "createdAt", direction: "asc" })) as AuthUserRow[];
    return users.map(viewOf);
  }

  /** How many accounts exist (0: `cli users add --admin` may bootstrap the first admin). */
  async count(): Promise<number> {
    const ctx = await this.auth.$context;
    return ctx.internalAdapter.countTotalUsers();
  }

  /** One account by id, or null. */
  async get(id: string): Promise<UserView | null> {
    const ctx = await this.auth.$context;
    const user = (await ctx.internalAdapter.findUserById(id)) as AuthUserRow | null;
    return user ? viewOf(user) : null;
  }

  /** An account by id or email (what the CLI accepts). @throws AppError `not-found`. */
  async find(idOrEmail: string): Promise<UserView> {
    const ctx = await this.auth.$context;
    const byEmail = idOrEmail.includes("@") ? await ctx.internalAdapter.findUserByEmail(idOrEmail.toLowerCase()) : null;
    const user = byEmail ? (byEmail.user as AuthUserRow) : await this.get(idOrEmail);
    if (!user) throw new AppError("not-found", `No account ${idOrEmail} (see \`cli users list\`).`);
    return viewOf(user as AuthUserRow);
  }

  /**
   * Sets an account's role (effective on its next request: sessions and tokens read the role each time).
   * @throws AppError `not-found`; `conflict` when it would leave no admin.
   */
  async setRole(id: string, role: Role): Promise<UserView> {
    const user = await this.find(id);
    if (user.role === "admin" && role !== "admin") await this.keepAnAdmin(user.id);
    const ctx = await this.auth.$context;
    const updated = (await ctx.internalAdapter.updateUser(user.id, { role: roleSchema.parse(role) })) as AuthUserRow;
    return viewOf(updated);
  }

  /**
   * Removes an account: its sessions, sign-in methods and API tokens go with it.
   * @throws AppError `not-found`; `conflict` when it is the last admin.
   */
  async remove(id: string): Promise<UserView> {
    const user = await this.find(id);
    if (user.role === "admin") await this.keepAnAdmin(user.id);
    const ctx = await this.auth.$context;
    await ctx.internalAdapter.deleteUser(user.id);
    return user;
  }

  /**
   * Sets a new password for an account (by id or email) and ends its sessions, so whoever knew the old one is
   * signed out at once; its API tokens stay (revoke them with `cli tokens revoke`).
   * @throws AppError `not-found`; `invalid-input` for a password shorter than {@link MIN_PASSWORD_LENGTH}.
   */
  async setPassword(idOrEmail: string, password: string): Promise<UserView> {
    const checked = newUserSchema.shape.password.safeParse(password);
    if (!checked.success) throw new AppError("invalid-input", `A password needs ${MIN_PASSWORD_LENGTH} to 200 characters.`);
    const user = await this.find(idOrEmail);
    const ctx = await this.auth.$context;
    await ctx.internalAdapter.updatePassword(user.id, await ctx.password.hash(checked.data));
    await ctx.internalAdapter.deleteUserSessions(user.id);
    return user;
  }

  private async keepAnAdmin(leaving: string): Promise<void> {
    const admins = (await this.list()).filter((user) => user.role === "admin" && user.id !== leaving);
    if (admins.length === 0) throw new AppError("conflict", "That is the last admin: make another account an admin first (`cli users set-role <email> admin`).");
  }
}
