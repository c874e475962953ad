import { z } from "zod";
import { roleSchema } from "./roles";

/**
 * What the account routes answer (`/api/tokens`, `/api/users`, Better Auth's `/api/auth/get-session`),
 * for the browser: the sign-in page, the account page and the settings page's Users section.
 */

/** An API token as listed (never its secret). Times ISO-8601. */
export const apiTokenSchema = z.object({
  id: z.string(),
  userId: z.string(),
  name: z.string(),
  prefix: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  expiresAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
});
export type ApiToken = z.infer<typeof apiTokenSchema>;

export const tokensResponseSchema = z.object({ tokens: z.array(apiTokenSchema) });
/** `POST /api/tokens`: the one time the secret is sent. */
export const createdTokenResponseSchema = z.object({ token: apiTokenSchema, secret: z.string() });
export const tokenResponseSchema = z.object({ token: apiTokenSchema });

/** An account as listed to admins. */
export const userSchema = z.object({ id: z.string(), email: z.string(), name: z.string(), role: roleSchema, createdAt: z.string() });
export type AccountUser = z.infer<typeof userSchema>;
export const usersResponseSchema = z.object({ users: z.array(userSchema) });
export const userResponseSchema = z.object({ user: userSchema });

/** Better Auth's `GET /api/auth/get-session`: the signed-in person, or null. */
export const sessionResponseSchema = z
  .object({
    user: z.object({ id: z.string(), name: z.string(), email: z.string(), role: roleSchema.catch("viewer") }),
    session: z.object({ expiresAt: z.string() }),
  })
  .nullable();
export type SessionResponse = z.infer<typeof sessionResponseSchema>;
