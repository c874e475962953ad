import { APICallError, RetryError } from "ai";

/**
 * Request parameters some providers reject (issue: real providers): stop
 * sequences (OpenAI reasoning models), temperature (some reasoning models),
 * the max-tokens field (models that want another name). When a 400 names one,
 * the model port drops it and retries the call once, and keeps it dropped for
 * that model from then on; the change is recorded on the call.
 */
export type AdjustableParameter = "stopSequences" | "temperature" | "maxOutputTokens";

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
