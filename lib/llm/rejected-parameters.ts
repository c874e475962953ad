import { APICallError, RetryError } from "ai";

/**
 * Request parameters some providers reject: stop
 * sequences (OpenAI reasoning models), temperature (some reasoning models),
 * the max-tokens field (models that want another name). When a 400 names one,
 * the model port drops it and asks again — each parameter once per call, so a
 * model rejecting two of them is asked three times at most — and keeps it
 * dropped for that model from then on (in the process, and in the store when
 * the port has a {@link RejectedParameterMemory}); the change is recorded on the call.
 */
export type AdjustableParameter = "stopSequences" | "temperature" | "maxOutputTokens";

/** Every {@link AdjustableParameter}: a call drops each at most once, so it is asked at most this many times + 1. */
export const ADJUSTABLE_PARAMETERS: readonly AdjustableParameter[] = ["stopSequences", "temperature", "maxOutputTokens"];

/** True when `name` is an {@link AdjustableParameter} (as read back from storage). */
export function isAdjustableParameter(name: string): name is AdjustableParameter {
  return (ADJUSTABLE_PARAMETERS as readonly string[]).includes(name);
}

/**
 * Where the parameters a model's provider rejected are remembered beyond one process (the run
 * store's `rejected_parameters` table), so a resume in another process, or after a restart, does
 * not make the failing requests again. Both methods may reject; the port then goes on without.
 */
export interface RejectedParameterMemory {
  /** The parameters remembered as rejected for `modelId` (any order). */
  rejectedParameters(modelId: string): Promise<readonly string[]>;
  /** Remembers that `modelId`'s provider rejected `parameter` (idempotent). */
  rememberRejectedParameter(modelId: string, parameter: AdjustableParameter): Promise<void>;
}

const PATTERNS: Array<[AdjustableParameter, RegExp]> = [
  ["stopSequences", /\b(stop|stop_sequences|stopSequences)\b/i],
  ["temperature", /\btemperature\b/i],
  ["maxOutputTokens", /\b(max_tokens|max_output_tokens|max_completion_tokens|maxOutputTokens)\b/i],
];
const REJECTION = /(unsupported|not supported|unrecognized|unknown|not allowed|does not support|invalid|extra inputs)/i;

/** What a person reads on the call: what was changed and why. */
export const ADJUSTMENT_NOTES: Record<AdjustableParameter, string> = {
  stopSequences: "stop sequences dropped: the provider rejected them (the engine still reads only the first action)",
  temperature: "temperature dropped: the provider rejected it (the model's default applies)",
  maxOutputTokens: "max output tokens dropped: the provider rejected the parameter (the model's default limit applies)",
};

/** The API error behind an AI SDK error (a RetryError wraps the last attempt's). */
function apiErrorOf(error: unknown): APICallError | null {
  if (APICallError.isInstance(error)) return error;
  if (RetryError.isInstance(error) && APICallError.isInstance(error.lastError)) return error.lastError;
  return null;
}

/**
 * The parameter a provider's HTTP 400 says it does not accept, if one of
 * {@link AdjustableParameter}: from the error body's `param` field when the
 * provider gives one (OpenAI style), else from the message.
 */
export function rejectedParameter(error: unknown): AdjustableParameter | null {
  const api = apiErrorOf(error);
  if (!api || api.statusCode !== 400) return null;
  const body = api.responseBody ?? "";
  let param: string | null = null;
  try {
    const parsed: unknown = JSON.parse(body);
    const inner = parsed !== null && typeof parsed === "object" && "error" in parsed ? (parsed as { error: unknown }).error : parsed;
    if (inner !== null && typeof inner === "object" && "param" in inner && typeof (inner as { param: unknown }).param === "string") param = (inner as { param: string }).param;
  } catch {
    // not JSON: read the message
  }
  const text = `${api.message} ${body}`;
  for (const [name, pattern] of PATTERNS) {
    if (param !== null ? pattern.test(param) : pattern.test(text) && REJECTION.test(text)) return name;
  }
  return null;
}
