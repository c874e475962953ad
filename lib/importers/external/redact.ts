import type { ExternalTrace } from "./external-trace";

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
/** A `"key": "value"` pair inside text that is not parseable JSON on its own (a log line, a fragment); the key is judged by {@link isSecretKey}. */
const JSON_PAIR = /("([^"\\]{1,64})"\s*:\s*")((?:[^"\\]|\\.)*)"/g;
/** A header written as text: `Authorization: Bearer …`, `x-api-key: …`, `api_key=…`. */
const TEXT_HEADER = /\b(authorization|proxy-authorization|x-api-key|api[_-]?key|apikey|access[_-]?token|client[_-]?secret|password)(\s*[:=]\s*)(?:(bearer|basic|token)\s+)?(?!\[redacted\])[^\s"',;&)}\]]+/gi;
/** A credential in a URL's query: `?api_key=…`, `&token=…`. */
const URL_QUERY = /([?&](?:api[_-]?key|apikey|key|token|access[_-]?token|auth|password|secret|sig|signature)=)[^&\s"'#]+/gi;
/** `scheme://user:password@` in a string. */
const URL_CREDENTIALS = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/@:"'\\]+:[^\s/@"'\\]+@/gi;

/**
 * A string's secrets: JSON held in a string (OpenInference's `input.value`, a tool call's arguments)
 * is parsed, redacted as data and written back when something was redacted (nested JSON strings
 * too); other text gets `"key": "value"` pairs with a credential key and URL credentials cut.
 */
function redactString(value: string, found: { count: number }): string {
  const trimmed = value.trimStart();
  if (trimmed.startsWith('"')) {
    // JSON text encoded once more as a JSON string: redact what it holds.
    try {
      const inner: unknown = JSON.parse(value);
      if (typeof inner === "string") {
        const before = found.count;
        const redacted = redactString(inner, found);
        return found.count > before ? JSON.stringify(redacted) : value;
      }
    } catch {
      // Not JSON: read as text below.
    }
  }
  if (trimmed.startsWith("{") || trimmed.startsWith("[")) {
    try {
      const parsed: unknown = JSON.parse(value);
      const before = found.count;
      const redacted = redactSecrets(parsed, found);
      return found.count > before ? JSON.stringify(redacted) : value;
    } catch {
      // Not JSON after all: read as text below.
    }
  }
  return value
    .replace(URL_CREDENTIALS, (_match, scheme: string) => {
      found.count += 1;
      return `${scheme}${REDACTED}@`;
    })
    .replace(JSON_PAIR, (match, head: string, key: string) => {
      if (!isSecretKey(key)) return match;
      found.count += 1;
      return `${head}${REDACTED}"`;
    })
    .replace(URL_QUERY, (_match, head: string) => {
      found.count += 1;
      return `${head}${REDACTED}`;
    })
    .replace(TEXT_HEADER, (_match, name: string, separator: string, scheme: string | undefined) => {
      found.count += 1;
      return `${name}${separator}${scheme ? `${scheme} ` : ""}${REDACTED}`;
    });
}

/** A key that is a token itself (`token`, `auth.token`, `x-token`), not a token count (`token_count`, `tokens`). */
const TOKEN_KEY = /(?:^|[._\- ])token$/i;

/** True when `key` names a credential. */
export function isSecretKey(key: string): boolean {
  return SECRET_KEY.test(key) || CAMEL_SECRET_KEY.test(key) || TOKEN_KEY.test(key);
}

/**
 * A deep copy of `value` with credential-named keys' values replaced and URL credentials cut;
 * `found` counts what was redacted. Plain JSON in, plain JSON out.
 */
export function redactSecrets(value: unknown, found: { count: number } = { count: 0 }): unknown {
  if (typeof value === "string") return redactString(value, found);
  if (Array.isArray(value)) return value.map((item) => redactSecrets(item, found));
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    // An OTLP attribute is `{ key, value }`, a header often `{ name, value }`: judge the pair by its name.
    const attributeKey = "key" in value && typeof value.key === "string" ? value.key : "name" in value && typeof value.name === "string" ? value.name : null;
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

/**
 * The trace with every credential redacted: the task, the steps (thoughts, tool inputs, results,
 * answers), the recorded calls' messages and outputs and the raw records. `count` says how many
 * values were replaced (the import reports it as a problem line, never the values).
 */
export function redactTrace(trace: ExternalTrace): { trace: ExternalTrace; count: number } {
  const found = { count: 0 };
  const text = (value: string | null): string | null => (value === null ? null : redactString(value, found));
  const redacted: ExternalTrace = {
    ...trace,
    input: text(trace.input),
    target: text(trace.target),
    output: text(trace.output),
    steps: trace.steps.map((step) => ({
      ...step,
      thought: text(step.thought),
      action: step.action ? { tool: step.action.tool, input: redactString(step.action.input, found) } : null,
      observation: text(step.observation),
      answer: text(step.answer),
    })),
    calls: trace.calls.map((call) => ({ ...call, messages: call.messages.map((message) => ({ ...message, content: redactString(message.content, found) })), outputText: redactString(call.outputText, found) })),
    verdict: trace.verdict ? { ...trace.verdict, explanation: redactString(trace.verdict.explanation, found) } : null,
    unknown: trace.unknown.map((record) => ({ ...record, data: redactSecrets(record.data, found) })),
  };
  return { trace: redacted, count: found.count };
}
