import type { z } from "zod";

/**
 * Formats zod issues as one line of `path: message` pairs joined by "; " — the shape of every
 * validation message a person reads (an HTTP `error.message`, a CLI error line, an import's
 * problem list), e.g. `tasks.0.id: Invalid input: expected string, received number; name: Too small`.
 *
 * Built on zod's own issues, not on `z.prettifyError`: that one writes one issue per two lines
 * (`✖ message` then `→ at path`), which does not fit a one-line message, and callers and tests
 * rely on the `path: message` form. `z.prettifyError` is used for console logs.
 *
 * @param issues a ZodError or its `issues`.
 * @param root what to call the value itself, for an issue with an empty path (e.g. `"body"`, `"(task)"`);
 *   null writes such an issue as its message alone.
 * @param max at most this many issues are listed (the rest are dropped; default all).
 */
export function describeIssues(issues: readonly z.core.$ZodIssue[] | { issues: readonly z.core.$ZodIssue[] }, root: string | null = "(task)", max = Infinity): string {
  const list = "issues" in issues ? issues.issues : issues;
  return list
    .slice(0, max)
    .map((issue) => {
      const path = issue.path.map(String).join(".");
      if (path === "" && root === null) return issue.message;
      return `${path === "" ? root : path}: ${issue.message}`;
    })
    .join("; ");
}
