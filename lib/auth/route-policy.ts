import type { Role } from "@/lib/domain/roles";

/** HTTP methods a route file may export. */
export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/**
 * What a route needs (decision 0041):
 * - `public`: anyone, signed in or not (sign-in itself, health);
 * - `{ role }`: a principal whose role includes `role`;
 * - `{ role, own }`: as `{ role }`, and unless the principal is an admin, the run (`own: "run"`, route param `id`)
 *   or experiment (`own: "experiment"`) must be theirs.
 */
export type Access = "public" | { role: Role; own?: "run" | "experiment" };

/**
 * Every API route's access, keyed by its URL pattern as Next spells the folder (`/api/runs/[id]/fork`)
 * and by method. A route missing here is refused to everyone but admins (deny by default), and
 * `tests/auth/route-policy-coverage.test.ts` fails until it is listed.
 */
export const ROUTE_POLICY: Readonly<Record<string, Partial<Record<HttpMethod, Access>>>> = {};
