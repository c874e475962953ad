import type { z } from "zod";

/**
 * Formats zod issues as one line of `path: message` pairs joined by "; " (`root`
 * names an issue of the value itself), for messages a person can act on.
 */
export function describeIssues(issues: readonly z.core.$ZodIssue[], root = "(task)"): string {
  return issues
    .map((issue) => {
      const path = issue.path.map(String).join(".");
      return `${path === "" ? root : path}: ${issue.message}`;
    })
    .join("; ");
}
