import { AppError } from "@/lib/domain/errors";
import { hasUrlCredentials } from "@/lib/domain/url-credentials";
import { PROVIDER_ENV_VARS, displayUrl, readEnv, type ConfigurableProvider, type ProviderEnv } from "./provider-registry";

/**
 * Why a provider's base URL setting in `env` cannot be used because it holds a user name or
 * password (`https://user:password@host/v1`), naming the variable and what to do; null when no
 * `*_BASE_URL` does. Such a URL would be written into error messages, and so into run logs and
 * their exports, and fetch refuses it anyway.
 */
export function baseUrlCredentialsProblem(env: ProviderEnv = process.env): string | null {
  for (const provider of Object.keys(PROVIDER_ENV_VARS) as ConfigurableProvider[]) {
    const vars = PROVIDER_ENV_VARS[provider];
    const raw = readEnv(env, vars.baseUrl);
    if (raw === undefined || !hasUrlCredentials(raw)) continue;
    const key = vars.apiKey ? ` Put the key in ${vars.apiKey} instead (it is sent as a bearer token, never logged).` : "";
    return `${vars.baseUrl} must not contain a user name or password (user:password@…): it would be written into error messages and run logs. Set it to the URL without them (e.g. ${displayUrl(raw) ?? "http://127.0.0.1:1234/v1"}).${key} Then restart.`;
  }
  return null;
}

/**
 * Checks the provider settings a server or CLI reads at start-up, so a bad one stops it with a
 * message instead of pausing every run later.
 * @throws AppError `provider-not-configured` with {@link baseUrlCredentialsProblem}'s message.
 */
export function checkProviderSettings(env: ProviderEnv = process.env): void {
  const problem = baseUrlCredentialsProblem(env);
  if (problem !== null) throw new AppError("provider-not-configured", problem);
}
