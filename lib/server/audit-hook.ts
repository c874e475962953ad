import type { Actor } from "@/lib/domain/actor";
import type { Principal } from "@/lib/domain/roles";
import { actorOfPrincipal } from "@/lib/actors/actor-context";
import { existingServerContext } from "./app-context";
import { auditEntry } from "./audit-log";

/** The actor of a request refused before anyone was identified (no session, no valid token). */
export const UNIDENTIFIED_ACTOR: Actor = Object.freeze({ kind: "person", id: "unidentified", name: "(not signed in)", userId: null });

/**
 * Records a state-changing API request (any method but GET/HEAD/OPTIONS) in the audit log after it
 * ran: who (principal; null when the request was refused before anyone was identified), what (method
 * and route pattern, e.g. `POST /api/runs/[runId]/fork`), its route params as the target, when, the
 * HTTP status and, for an error, its message. Writes to the process's server context's log (none
 * made yet: nothing to write to). Never throws: a failing audit write is logged on the server and the
 * response goes out unchanged.
 */
export async function auditRequest(principal: Principal | null, args: readonly unknown[], response: Response): Promise<void> {
  try {
    const request = args[0];
    if (!(request instanceof Request) || ["GET", "HEAD", "OPTIONS"].includes(request.method)) return;
    const context = existingServerContext();
    if (!context) return;
    const params = await paramsOf(args[1]);
    const action = `${request.method} ${routePattern(new URL(request.url).pathname, params)}`;
    const actor = principal ? actorOfPrincipal(principal) : UNIDENTIFIED_ACTOR;
    await context.audit.record(auditEntry(actor, action, params, response.status, await errorMessageOf(response)));
  } catch (error) {
    console.error(`[audit] could not record a request: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** A route's params (`context.params`, a promise in Next 16), as a plain record; `{}` when there are none. */
async function paramsOf(context: unknown): Promise<Record<string, unknown>> {
  if (!context || typeof context !== "object" || !("params" in context)) return {};
  const params: unknown = await (context as { params: unknown }).params;
  return params && typeof params === "object" ? { ...(params as Record<string, unknown>) } : {};
}

/**
 * The route pattern of `pathname`: each segment equal to a param's value becomes `[name]`
 * (`/api/runs/9f…/fork` with `{ runId: "9f…" }` → `/api/runs/[runId]/fork`; a catch-all's segments each become `[...name]`).
 */
export function routePattern(pathname: string, params: Record<string, unknown>): string {
  const byValue = new Map<string, string>();
  for (const [name, value] of Object.entries(params)) {
    if (typeof value === "string") byValue.set(value, `[${name}]`);
    else if (Array.isArray(value)) for (const part of value) if (typeof part === "string") byValue.set(part, `[...${name}]`);
  }
  return pathname
    .split("/")
    .map((segment) => {
      let decoded = segment;
      try {
        decoded = decodeURIComponent(segment);
      } catch {
        // A malformed escape: compare the raw segment.
      }
      return byValue.get(decoded) ?? segment;
    })
    .join("/");
}

/** The message of an error response (`{ error: { message } }`), else null; reads a clone, so the response is untouched. */
async function errorMessageOf(response: Response): Promise<string | null> {
  if (response.status < 400 || !response.headers.get("content-type")?.includes("application/json")) return null;
  try {
    const body = (await response.clone().json()) as { error?: { message?: unknown } };
    return typeof body.error?.message === "string" ? body.error.message.slice(0, 500) : null;
  } catch {
    return null;
  }
}
