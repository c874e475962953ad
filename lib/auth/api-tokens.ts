import { createHash, randomBytes } from "node:crypto";
import { and, desc, eq, isNull } from "drizzle-orm";
import { AppError } from "@/lib/domain/errors";
import type { PgDb } from "@/lib/db/pg/database";
import { apiTokens } from "@/lib/db/pg/schema";

/** What every API token starts with, so a leaked one is recognisable (and secret scanners can match it). */
export const TOKEN_PREFIX = "rp_";

/** How stale a token's `lastUsedAt` may be, in ms, before a use writes it again. */
export const LAST_USED_RESOLUTION_MS = 60_000;

/** An API token as listed: never its secret. Times are ISO-8601. */
export interface ApiTokenView {
  id: string;
  userId: string;
  name: string;
  /** The secret's first characters (`rp_AbCd…`), so a person can tell their tokens apart. */
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
  revokedAt: string | null;
}

/** A token just created: the only time its `secret` exists outside the holder's hands. */
export interface CreatedApiToken {
  token: ApiTokenView;
  secret: string;
}

/**
 * SHA-256 of a token secret, hex. A fast hash is right here (unlike passwords, which get scrypt):
 * a secret is 32 random bytes, so there is nothing to guess by brute force, and every API request
 * looks one up, which a slow hash would make expensive.
 */
export function hashTokenSecret(secret: string): string {
  return createHash("sha256").update(secret, "utf8").digest("hex");
}

/**
 * Per-person API tokens (`api_tokens`, lib/db/pg/schema.ts) for the CLI and scripts: the secret is
 * `rp_` + 32 random bytes base64url, shown once at creation and stored only as {@link hashTokenSecret};
 * a revoked or expired token fails at once. A token dies with its owner's account (cascade).
 */
export class ApiTokenStore {
  constructor(
    private readonly db: PgDb,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /**
   * Creates a token for `userId` named `name` (1–100 characters); `expiresAt` optional (ISO-8601, in the future).
   * @throws AppError `invalid-input` on a bad name or expiry.
   */
  async create(userId: string, name: string, expiresAt: string | null = null): Promise<CreatedApiToken> {
    const trimmed = name.trim();
    if (!trimmed || trimmed.length > 100) throw new AppError("invalid-input", "A token needs a name of 1–100 characters (what it is for: \"laptop\", \"ci\").");
    if (expiresAt !== null && !(Date.parse(expiresAt) > this.now().getTime())) throw new AppError("invalid-input", `A token's expiry must be a future ISO-8601 time (got "${expiresAt}").`);
    const secret = TOKEN_PREFIX + randomBytes(32).toString("base64url");
    const row = {
      id: `tok_${randomBytes(9).toString("base64url")}`,
      userId,
      name: trimmed,
      secretHash: hashTokenSecret(secret),
      prefix: secret.slice(0, TOKEN_PREFIX.length + 6),
      createdAt: this.now().toISOString(),
      lastUsedAt: null,
      expiresAt: expiresAt === null ? null : new Date(expiresAt).toISOString(),
      revokedAt: null,
    };
    await this.db.insert(apiTokens).values(row);
    return { token: viewOf(row), secret };
  }

  /** Tokens of `userId` (every person's when null), newest first, revoked ones included; never a secret. */
  async list(userId: string | null): Promise<ApiTokenView[]> {
    const rows = await this.db
      .select()
      .from(apiTokens)
      .where(userId === null ? undefined : eq(apiTokens.userId, userId))
      .orderBy(desc(apiTokens.createdAt));
    return rows.map(viewOf);
  }

  /** One token by id, or null. */
  async get(id: string): Promise<ApiTokenView | null> {
    const [row] = await this.db.select().from(apiTokens).where(eq(apiTokens.id, id));
    return row ? viewOf(row) : null;
  }

  /**
   * Revokes a token (idempotent: a revoked token keeps its first revocation time).
   * @throws AppError `not-found` when there is no such token.
   */
  async revoke(id: string): Promise<ApiTokenView> {
    await this.db.update(apiTokens).set({ revokedAt: this.now().toISOString() }).where(and(eq(apiTokens.id, id), isNull(apiTokens.revokedAt)));
    const token = await this.get(id);
    if (!token) throw new AppError("not-found", `No API token ${id} (see \`cli tokens list\` or the account page).`);
    return token;
  }

  /**
   * The live token a secret belongs to (not revoked, not expired), stamping its `lastUsedAt` (to the minute); null otherwise.
   * Anything not shaped like a token is null without a query.
   */
  async verify(secret: string): Promise<ApiTokenView | null> {
    if (!secret.startsWith(TOKEN_PREFIX) || secret.length > 200) return null;
    const [row] = await this.db.select().from(apiTokens).where(eq(apiTokens.secretHash, hashTokenSecret(secret)));
    if (!row || row.revokedAt !== null) return null;
    const now = this.now();
    if (row.expiresAt !== null && Date.parse(row.expiresAt) <= now.getTime()) return null;
    // `lastUsedAt` is for people ("used today?"): written at most once a minute, not on every request.
    if (row.lastUsedAt !== null && now.getTime() - Date.parse(row.lastUsedAt) < LAST_USED_RESOLUTION_MS) return viewOf(row);
    const lastUsedAt = now.toISOString();
    await this.db.update(apiTokens).set({ lastUsedAt }).where(eq(apiTokens.id, row.id));
    return viewOf({ ...row, lastUsedAt });
  }
}

function viewOf(row: typeof apiTokens.$inferSelect): ApiTokenView {
  return { id: row.id, userId: row.userId, name: row.name, prefix: row.prefix, createdAt: row.createdAt, lastUsedAt: row.lastUsedAt, expiresAt: row.expiresAt, revokedAt: row.revokedAt };
}
