import { createHash, randomBytes, randomInt, randomUUID, timingSafeEqual } from "node:crypto";
import { makeJoinCode } from "@/lib/domain/class-rules";

/**
 * The random values of class sessions (node:crypto): ids, join codes, the teacher secret and the
 * students' tokens. Secrets and tokens are stored only as their sha256 (hex); a secret is shown
 * once, when made.
 */

/** A new class or student id (`cls_…` / `stu_…`, a random UUID). */
export function newClassId(kind: "class" | "student"): string {
  return `${kind === "class" ? "cls" : "stu"}_${randomUUID().replaceAll("-", "")}`;
}

/** A new join code (lib/domain/class-rules.ts alphabet, crypto-random). */
export function newJoinCode(): string {
  return makeJoinCode((max) => randomInt(max));
}

/** A new teacher secret or student token: 32 random bytes, base64url (43 characters). */
export function newSecret(): string {
  return randomBytes(32).toString("base64url");
}

/** sha256 of a secret or token, hex: what the store keeps. */
export function hashSecret(secret: string): string {
  return createHash("sha256").update(secret, "utf8").digest("hex");
}

/** True when `secret` hashes to `storedHash` (constant-time over the hashes). */
export function secretMatches(secret: string, storedHash: string): boolean {
  const given = Buffer.from(hashSecret(secret), "hex");
  const stored = Buffer.from(storedHash, "hex");
  return given.length === stored.length && timingSafeEqual(given, stored);
}
