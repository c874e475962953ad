/**
 * Time limits of a model call, so a stalled provider cannot hang a run. Each
 * call has a time-to-first-token limit (from the request until the provider's
 * stream delivers its first part) and an idle limit between two stream parts;
 * both use the same number of seconds:
 *
 * - `REFLEXION_MODEL_TIMEOUT_S` (default 120) for every provider;
 * - `REFLEXION_MODEL_TIMEOUT_S_<PROVIDER>` (`_OPENAI`, `_ANTHROPIC`, `_COMPATIBLE`,
 *   `_DEMO`) overrides it for one provider, e.g. a slow local model.
 *
 * A first-token timeout is retried by the AI SDK like any retryable failure
 * (its `maxRetries`, with its backoff); an idle timeout mid-stream is not (the
 * response has started). When the call still fails it is recorded as
 * `model-call-error` with code `timeout`, and the run pauses with a message
 * naming the setting.
 */

/** Default limit in seconds when nothing is set. */
export const DEFAULT_MODEL_TIMEOUT_S = 120;

/** The setting's name for a provider: the per-provider variable and the global one. */
export function timeoutSettingNames(provider: string): { perProvider: string; global: string } {
  return { perProvider: `REFLEXION_MODEL_TIMEOUT_S_${provider.toUpperCase()}`, global: "REFLEXION_MODEL_TIMEOUT_S" };
}

/** The limit in force for one provider, in seconds, and the variable it came from (null: the default). */
export interface ModelTimeout {
  seconds: number;
  /** The variable that set it, or null for the default. */
  setting: string | null;
}

/**
 * Reads the time limit for `provider` from `env`.
 * @throws Error naming the variable when its value is not a positive number of seconds.
 */
export function modelTimeoutFor(provider: string, env: Record<string, string | undefined>): ModelTimeout {
  const names = timeoutSettingNames(provider);
  for (const name of [names.perProvider, names.global]) {
    const raw = env[name]?.trim();
    if (!raw) continue;
    const seconds = Number(raw);
    if (!Number.isFinite(seconds) || seconds <= 0) throw new Error(`${name} must be a positive number of seconds (got "${raw}").`);
    return { seconds, setting: name };
  }
  return { seconds: DEFAULT_MODEL_TIMEOUT_S, setting: null };
}

/** Which limit a call ran into. */
export type TimeoutKind = "first-token" | "idle";

/** A call exceeded its time limit. Carried as the `cause` of the SDK's error so the error mapper can name the setting. */
export class ModelTimeoutError extends Error {
  readonly kind: TimeoutKind;
  readonly timeout: ModelTimeout;
  readonly provider: string;

  constructor(kind: TimeoutKind, timeout: ModelTimeout, provider: string) {
    const what = kind === "first-token" ? "no response" : "no new output";
    super(`${what} within ${timeout.seconds} s`);
    this.name = "ModelTimeoutError";
    this.kind = kind;
    this.timeout = timeout;
    this.provider = provider;
  }

  /** How to change the limit, for the message a person reads. */
  settingAdvice(): string {
    const names = timeoutSettingNames(this.provider);
    const now = this.timeout.setting ? `${this.timeout.setting}=${this.timeout.seconds}` : `the default ${DEFAULT_MODEL_TIMEOUT_S} s`;
    return `The limit is ${names.global} (or ${names.perProvider} for this provider; now ${now})`;
  }
}

/** The first {@link ModelTimeoutError} on `error`'s cause chain (through the SDK's RetryError and APICallError), if any. */
export function findModelTimeout(error: unknown): ModelTimeoutError | undefined {
  const seen = new Set<unknown>();
  const queue: unknown[] = [error];
  while (queue.length > 0) {
    const current = queue.shift();
    if (current === null || typeof current !== "object" || seen.has(current)) continue;
    seen.add(current);
    if (current instanceof ModelTimeoutError) return current;
    const { cause, lastError, errors } = current as { cause?: unknown; lastError?: unknown; errors?: unknown };
    queue.push(cause, lastError);
    if (Array.isArray(errors)) queue.push(...errors);
  }
  return undefined;
}
