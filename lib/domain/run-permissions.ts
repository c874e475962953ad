import { roleAtLeast, type MeResponse, type Principal, type Role } from "./roles";

/**
 * What the UI offers to whom (decision 0041), from `GET /api/me`: pure, so the pages and their tests
 * share it. The server checks every request itself (lib/server/authorize.ts); this only hides controls
 * a role cannot use. While `/api/me` has not answered (`me` undefined) or when sign-in is off, everything
 * is offered, as in embedded mode — nothing flickers away on a single-user playground.
 */

/** Whether a run's controls are offered: `allowed`, or a short reason shown as "read-only: <reason>". */
export type RunPermission = { allowed: true } | { allowed: false; reason: string };

/**
 * The ownership rule (decision 0041), the one the server enforces (lib/server/ownership.ts) and the pages
 * mirror: an admin may change anything; a runner what is theirs (`ownerUserId`); a viewer nothing; something
 * with no owner (made before sign-in, or imported) only an admin.
 */
export function principalMayChange(principal: Principal, ownerUserId: string | null): boolean {
  if (roleAtLeast(principal.role, "admin")) return true;
  return roleAtLeast(principal.role, "runner") && ownerUserId !== null && ownerUserId === principal.userId;
}

/**
 * May the person of `me` change `run` (pause, resume, cancel, steer, fork, edit memory, prompt, settings)?
 * By {@link principalMayChange}, with a reason for people when not.
 */
export function mayChangeRun(me: MeResponse | undefined, run: { ownerUserId?: string | null } | undefined): RunPermission {
  return mayChangeOwned(me, run?.ownerUserId ?? null, "run");
}

/** As {@link mayChangeRun}, for an experiment's Cancel and Resume (its `ownerUserId`). */
export function mayChangeExperiment(me: MeResponse | undefined, experiment: { ownerUserId?: string | null } | undefined): RunPermission {
  return mayChangeOwned(me, experiment?.ownerUserId ?? null, "experiment");
}

function mayChangeOwned(me: MeResponse | undefined, owner: string | null, noun: "run" | "experiment"): RunPermission {
  if (!me || me.signIn === "off") return { allowed: true };
  const principal = me.principal;
  if (!principal) return { allowed: false, reason: `sign in to change ${noun}s` };
  if (principalMayChange(principal, owner)) return { allowed: true };
  if (!roleAtLeast(principal.role, "runner")) return { allowed: false, reason: `viewers can look at ${noun}s but not change them` };
  return { allowed: false, reason: owner === null ? `this ${noun} has no owner; only an admin may change it` : `this ${noun} is someone else's; only its owner or an admin may change it` };
}

/** True when `me` has at least `role` (sign-in off, or not known yet: true, as for {@link mayChangeRun}). */
export function meHasRole(me: MeResponse | undefined, role: Role): boolean {
  if (!me || me.signIn === "off") return true;
  return me.principal !== null && roleAtLeast(me.principal.role, role);
}
