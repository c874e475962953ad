import { z } from "zod";

/**
 * Server-side OTLP settings, from the environment only — never from a request, so a
 * header with a key stays on the server:
 * - `REFLEXION_OTLP_ENDPOINT`: the collector's traces URL, e.g. Phoenix `http://127.0.0.1:6006/v1/traces`
 *   or Langfuse `https://cloud.langfuse.com/api/public/otel/v1/traces`;
 * - `REFLEXION_OTLP_HEADERS`: `name=value` pairs separated by commas (values percent-decoded, the
 *   OTel `OTEL_EXPORTER_OTLP_HEADERS` format), e.g. `Authorization=Basic%20<base64 pk:sk>,x-langfuse-ingestion-version=4`;
 * - `REFLEXION_OTLP_LIVE=1`: also export each run's spans as its branches end (lib/otel/live-export.ts).
 */
export interface OtlpSettings {
  endpoint: string | null;
  headers: Record<string, string>;
  live: boolean;
}

/** What the settings page and `GET /api/settings/otlp` may show: header names, never values. */
export const otlpSettingsViewSchema = z.object({
  /** The endpoint with any `user:password@` removed; null when unset. */
  endpoint: z.string().nullable(),
  headerNames: z.array(z.string()),
  live: z.boolean(),
  /** Set when a variable is malformed: what to fix. */
  problem: z.string().nullable(),
});
export type OtlpSettingsView = z.infer<typeof otlpSettingsViewSchema>;

/** Parses `name=value,name2=value2`. @throws Error naming the malformed pair (without its value). */
export function parseOtlpHeaders(raw: string | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const pair of (raw ?? "").split(",")) {
    if (pair.trim() === "") continue;
    const at = pair.indexOf("=");
    const name = (at === -1 ? pair : pair.slice(0, at)).trim();
    if (at === -1 || name === "") throw new Error(`REFLEXION_OTLP_HEADERS must be name=value pairs separated by commas ("${name || "?"}" has no "=").`);
    headers[name] = decodeURIComponent(pair.slice(at + 1).trim());
  }
  return headers;
}

/** The OTLP settings of this process. @throws Error for a malformed endpoint or headers variable. */
export function otlpSettings(env: Record<string, string | undefined>): OtlpSettings {
  const raw = env.REFLEXION_OTLP_ENDPOINT?.trim();
  let endpoint: string | null = null;
  if (raw) {
    const url = URL.canParse(raw) ? new URL(raw) : null;
    if (!url || (url.protocol !== "http:" && url.protocol !== "https:")) throw new Error(`REFLEXION_OTLP_ENDPOINT must be an http(s) URL such as http://127.0.0.1:6006/v1/traces (got "${raw.slice(0, 80)}").`);
    endpoint = url.toString();
  }
  return { endpoint, headers: parseOtlpHeaders(env.REFLEXION_OTLP_HEADERS), live: env.REFLEXION_OTLP_LIVE === "1" };
}

/** An endpoint without credentials in its URL (for display). */
export function displayEndpoint(endpoint: string): string {
  const url = new URL(endpoint);
  url.username = "";
  url.password = "";
  return url.toString();
}

/** The settings as they may be shown: no header values, no URL credentials. */
export function otlpSettingsView(env: Record<string, string | undefined>): OtlpSettingsView {
  try {
    const settings = otlpSettings(env);
    return { endpoint: settings.endpoint ? displayEndpoint(settings.endpoint) : null, headerNames: Object.keys(settings.headers), live: settings.live, problem: null };
  } catch (error) {
    return { endpoint: null, headerNames: [], live: false, problem: error instanceof Error ? error.message : String(error) };
  }
}
