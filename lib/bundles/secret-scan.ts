/**
 * A second line of defence behind the bundle schemas' allow-list: before a bundle or
 * an OTLP file leaves, its text is searched for the values of secret-looking environment
 * variables (names with KEY, TOKEN, SECRET, PASSWORD, AUTH, HEADERS or CREDENTIAL, values of 12+
 * characters) and for URLs with credentials (`scheme://user:pass@host`). A hit refuses the export.
 */

const SECRET_NAME = /KEY|TOKEN|SECRET|PASSWORD|PASSWD|AUTH|HEADERS|CREDENTIAL/i;
/** `scheme://user:password@` — a base URL carrying credentials. */
const URL_CREDENTIALS = /\b[a-z][a-z0-9+.-]*:\/\/[^\s/@:"'\\]+:[^\s/@"'\\]+@/i;

/** One reason an export was refused: which variable's value, or a URL with credentials (never the value itself). */
export interface SecretFinding {
  kind: "env-value" | "url-credentials";
  /** The variable's name for `env-value`; "a URL with user:password@" otherwise. */
  what: string;
}

/** The secret-looking values `text` contains (by variable name, never the value). */
export function findSecrets(text: string, env: Record<string, string | undefined>): SecretFinding[] {
  const findings: SecretFinding[] = [];
  for (const [name, value] of Object.entries(env)) {
    if (!value || value.length < 12 || !SECRET_NAME.test(name)) continue;
    if (text.includes(value)) findings.push({ kind: "env-value", what: name });
  }
  if (URL_CREDENTIALS.test(text)) findings.push({ kind: "url-credentials", what: "a URL with user:password@" });
  return findings;
}
