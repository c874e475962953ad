import { z } from "zod";

/**
 * Who may do what in a shared deployment (docs/shared-mode.md, "Security"; decision 0041):
 * - `viewer` reads runs, experiments, lessons, reviews and search;
 * - `runner` also starts, steers, forks and edits **their own** runs and experiments, and joins review queues;
 * - `admin` also manages providers, prices, budgets, users, API tokens of others and dead letters, and may act on anyone's run.
 * Roles are ordered: each includes the one before it.
 */
export const roles = ["viewer", "runner", "admin"] as const;
export const roleSchema = z.enum(roles);
export type Role = z.infer<typeof roleSchema>;

/** True when `role` includes `needed` (admin ⊇ runner ⊇ viewer). */
export function roleAtLeast(role: Role, needed: Role): boolean {
  return roles.indexOf(role) >= roles.indexOf(needed);
}

/**
 * The person (or their API token) a request or CLI command acts as. In embedded mode (no sign-in)
 * every request is the one local user, {@link LOCAL_PRINCIPAL}, an admin.
 */
export const principalSchema = z.object({
  /** `person`: a browser session; `token`: a person's API token (CLI, scripts); `local`: embedded mode's one user. */
  kind: z.enum(["person", "token", "local"]),
  /** The account's id (`local` in embedded mode). */
  userId: z.string().min(1),
  /** Display name (what the audit and the inspector show). */
  name: z.string(),
  email: z.string().nullable(),
  role: roleSchema,
  /** The API token's id when `kind` is `token`, else null. */
  tokenId: z.string().nullable(),
  /** The API token's name ("laptop", "ci") when `kind` is `token` and it is known. */
  tokenName: z.string().nullable().optional(),
});
export type Principal = z.infer<typeof principalSchema>;

/** Embedded mode's one user: everything is allowed, nothing asks for sign-in. */
export const LOCAL_PRINCIPAL: Principal = Object.freeze({ kind: "local", userId: "local", name: "local", email: null, role: "admin", tokenId: null });

/** `GET /api/me`: who this browser is, and whether sign-in is on (the UI hides what the role cannot do; the server never relies on that). */
export const meResponseSchema = z.object({
  signIn: z.enum(["on", "off"]),
  principal: principalSchema.nullable(),
});
export type MeResponse = z.infer<typeof meResponseSchema>;
