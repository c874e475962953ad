/**
 * Matches a request's URL path to a route pattern spelled as Next's App Router folders
 * (`/api/runs/[runId]/fork`, `/api/auth/[...all]`), the keys of `ROUTE_POLICY`. Plain TypeScript,
 * no Next import: the same rules as the router's (a static segment beats a `[param]`, which beats a
 * `[...rest]` catch-all, compared from the left), so the policy looked up is the one of the file that
 * will answer.
 */

/** A matched pattern and its params (decoded; a catch-all's value is its segments joined with `/`). */
export interface RouteMatch {
  pattern: string;
  params: Record<string, string>;
}

type Segment = { kind: "static"; text: string } | { kind: "param"; name: string } | { kind: "rest"; name: string };

function parsePattern(pattern: string): Segment[] {
  return splitPath(pattern).map((part): Segment => {
    const rest = /^\[\.\.\.(.+)\]$/.exec(part)?.[1];
    if (rest !== undefined) return { kind: "rest", name: rest };
    const param = /^\[(.+)\]$/.exec(part)?.[1];
    return param !== undefined ? { kind: "param", name: param } : { kind: "static", text: part };
  });
}

function splitPath(path: string): string[] {
  return path.split("/").filter((part) => part !== "");
}

function decode(part: string): string | null {
  try {
    return decodeURIComponent(part);
  } catch {
    return null;
  }
}

/** Params of `segments` against one pattern, or null when it does not match. */
function matchOne(segments: Segment[], parts: string[]): Record<string, string> | null {
  const params: Record<string, string> = {};
  for (const [i, segment] of segments.entries()) {
    const part = parts[i];
    if (segment.kind === "rest") {
      if (part === undefined) return null; // `[...x]` needs at least one segment (Next's `[[...x]]` is not used here)
      params[segment.name] = parts.slice(i).join("/");
      return params;
    }
    if (part === undefined) return null;
    if (segment.kind === "static" && segment.text !== part) return null;
    if (segment.kind === "param") params[segment.name] = part;
  }
  return segments.length === parts.length ? params : null;
}

const RANK = { static: 0, param: 1, rest: 2 } as const;

/** Negative when `a` is more specific than `b` (the router prefers it). */
function compareSpecificity(a: Segment[], b: Segment[]): number {
  for (const [i, segment] of a.entries()) {
    const other = b[i];
    if (other === undefined) break;
    const diff = RANK[segment.kind] - RANK[other.kind];
    if (diff !== 0) return diff;
  }
  return b.length - a.length;
}

/**
 * The most specific of `patterns` that `pathname` (a URL's path, percent-encoded as sent) matches, or
 * null. A path segment that is not valid percent-encoding matches nothing (the router would 400 it).
 */
export function matchRoute(pathname: string, patterns: Iterable<string>): RouteMatch | null {
  const decoded = splitPath(pathname).map(decode);
  if (decoded.some((part) => part === null)) return null;
  const parts = decoded as string[];
  let best: { pattern: string; segments: Segment[]; params: Record<string, string> } | null = null;
  for (const pattern of patterns) {
    const segments = parsePattern(pattern);
    const params = matchOne(segments, parts);
    if (params && (!best || compareSpecificity(segments, best.segments) < 0)) best = { pattern, segments, params };
  }
  return best && { pattern: best.pattern, params: best.params };
}
