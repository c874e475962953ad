import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import type { LeaseState } from "@/lib/domain/status";

/** A lease owner id for this process: `host:pid:random`. */
export function newLeaseOwner(): string {
  return `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
}

/**
 * Whether the process named in a lease owner id may still be alive. An owner on
 * this host whose pid no longer exists is dead (e.g. killed with -9), so its run
 * is interrupted at once rather than when the lease expires. Owners on other
 * hosts are assumed alive until their lease expires.
 */
export function leaseOwnerAlive(owner: string): boolean {
  const [host, pidText] = owner.split(":");
  const pid = Number(pidText);
  if (host !== hostname() || !Number.isInteger(pid) || pid <= 0) return true;
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * What a lease row says about who executes a branch: `live` (unexpired, owner
 * alive), `dead` (a row left by a worker that died or let it lapse), `none`.
 */
export function leaseStateOf(lease: { owner: string; expiresAt: number } | null, now = Date.now()): LeaseState {
  if (!lease) return "none";
  return lease.expiresAt > now && leaseOwnerAlive(lease.owner) ? "live" : "dead";
}
