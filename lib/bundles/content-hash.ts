import { createHash } from "node:crypto";
import canonicalize from "canonicalize";

/**
 * SHA-256 (hex) of the RFC 8785 (JSON Canonicalization Scheme) serialisation of `value`:
 * keys sorted, no whitespace, numbers in their shortest form — so the same content gets the
 * same hash on every machine whatever order its writer put the keys in (bundle manifests).
 * @throws Error for a value JSON cannot hold (undefined at the top, a function, a cycle).
 */
export function contentSha256(value: unknown): string {
  const text = canonicalize(value);
  if (text === undefined) throw new Error("This value has no JSON form, so it has no content hash.");
  return createHash("sha256").update(text).digest("hex");
}
