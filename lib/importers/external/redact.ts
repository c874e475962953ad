/**
 * Secrets an outside agent's trace may carry in its raw records (span attributes such as an SDK's
 * invocation parameters, request headers in metadata): before a record is stored, every value under
 * a key that names a credential becomes {@link REDACTED}, and `user:password@` in any URL is cut out.
 * Keys are matched by name, not by guessing at values, so token counts and usage are kept.
 */

/** What a redacted value reads. */
export const REDACTED = "[redacted]";

/** A key naming a credential: api_key, apiKey, authorization, x-api-key, password, secret, access_token, … (not token_count / tokens). */
const SECRET_KEY = /(?:^|[._\- ])(?:api[_-]?key|apikey|authorization|auth|password|passwd|secret|client[_-]?secret|access[_-]?token|refresh[_-]?token|auth[_-]?token|bearer|cookie|set-cookie|private[_-]?key)(?:$|[._\- ])/i;
const CAMEL_SECRET_KEY = /^(?:apiKey|accessToken|refreshToken|authToken|clientSecret|privateKey)$/;
/** A credential inside JSON text (an attribute holding a serialised object): `"api_key": "…"`. */
const JSON_SECRET = /("(?:api[_-]?key|apiKey|authorization|password|secret|client[_-]?secret|access[_-]?token)"\s*:\s*")(?:[^"\\]|\\.)*"/gi;
/** `scheme://user:password@` in a string. */
const URL_CREDENTIALS = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/@:"'\\]+:[^\s/@"'\\]+@/gi;

/** True when `key` names a credential. */
export function isSecretKey(key: string): boolean {
  return SECRET_KEY.test(key) || CAMEL_SECRET_KEY.test(key);
}

/**
 * A deep copy of `value` with credential-named keys' values replaced and URL credentials cut;
 * `found` counts what was redacted. Plain JSON in, plain JSON out.
 */
export function redactSecrets(value: unknown, found: { count: number } = { count: 0 }): unknown {
  if (typeof value === "string") {
    const count = (): string => {
      found.count += 1;
      return "";
    };
    return value
      .replace(URL_CREDENTIALS, (_match, scheme: string) => `${count()}${scheme}${REDACTED}@`)
      .replace(JSON_SECRET, (_match, head: string) => `${count()}${head}${REDACTED}"`);
  }
  if (Array.isArray(value)) return value.map((item) => redactSecrets(item, found));
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    // An OTLP attribute is `{ key, value }`: judge the attribute by its key.
    const attributeKey = "key" in value && typeof value.key === "string" ? value.key : null;
    for (const [key, inner] of Object.entries(value)) {
      if (key === "value" && attributeKey !== null && isSecretKey(attributeKey)) {
        found.count += 1;
        out[key] = REDACTED;
      } else if (isSecretKey(key) && inner !== null && typeof inner !== "object") {
        found.count += 1;
        out[key] = REDACTED;
      } else {
        out[key] = redactSecrets(inner, found);
      }
    }
    return out;
  }
  return value;
}
