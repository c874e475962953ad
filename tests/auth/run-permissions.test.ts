import { describe, expect, it } from "vitest";
import { LOCAL_PRINCIPAL, type MeResponse, type Principal, type Role } from "@/lib/domain/roles";
import { mayChangeExperiment, mayChangeRun, meHasRole } from "@/lib/domain/run-permissions";
import { mayChange } from "@/lib/server/ownership";

const person = (role: Role, userId = `user-${role}`): Principal => ({ kind: "person", userId, name: userId, email: null, role, tokenId: null });
const signedIn = (principal: Principal | null): MeResponse => ({ signIn: "on", principal });

describe("mayChangeRun", () => {
  it("offers everything with sign-in off, and before /api/me answers", () => {
    expect(mayChangeRun({ signIn: "off", principal: LOCAL_PRINCIPAL }, { ownerUserId: null })).toEqual({ allowed: true });
    expect(mayChangeRun(undefined, { ownerUserId: "someone" })).toEqual({ allowed: true });
  });

  it("admins change any run, runners their own, viewers none, nobody nothing", () => {
    expect(mayChangeRun(signedIn(person("admin")), { ownerUserId: "someone" })).toEqual({ allowed: true });
    expect(mayChangeRun(signedIn(person("runner", "rita")), { ownerUserId: "rita" })).toEqual({ allowed: true });
    expect(mayChangeRun(signedIn(person("runner", "rita")), { ownerUserId: "otto" })).toEqual({ allowed: false, reason: "this run is someone else's; only its owner or an admin may change it" });
    expect(mayChangeRun(signedIn(person("runner", "rita")), {})).toEqual({ allowed: false, reason: "this run has no owner; only an admin may change it" });
    expect(mayChangeRun(signedIn(person("viewer", "vera")), { ownerUserId: "vera" })).toEqual({ allowed: false, reason: "viewers can look at runs but not change them" });
    expect(mayChangeRun(signedIn(null), { ownerUserId: "rita" })).toEqual({ allowed: false, reason: "sign in to change runs" });
  });

  it("agrees with the server's rule (lib/server/ownership.ts mayChange) for every role and owner", () => {
    for (const role of ["viewer", "runner", "admin"] as const) {
      for (const owner of [null, "me", "other"]) {
        const principal = person(role, "me");
        expect(mayChangeRun(signedIn(principal), { ownerUserId: owner }).allowed, `${role} on ${owner}`).toBe(mayChange(principal, owner));
      }
    }
  });
});

describe("mayChangeExperiment", () => {
  it("follows the same rule with the experiment's words", () => {
    expect(mayChangeExperiment(signedIn(person("runner", "rita")), { ownerUserId: "rita" })).toEqual({ allowed: true });
    expect(mayChangeExperiment(signedIn(person("runner", "rita")), { ownerUserId: "otto" })).toEqual({ allowed: false, reason: "this experiment is someone else's; only its owner or an admin may change it" });
    expect(mayChangeExperiment(signedIn(person("viewer")), {})).toEqual({ allowed: false, reason: "viewers can look at experiments but not change them" });
  });
});

describe("meHasRole", () => {
  it("is true with sign-in off or unknown, else by the role order", () => {
    expect(meHasRole(undefined, "admin")).toBe(true);
    expect(meHasRole({ signIn: "off", principal: LOCAL_PRINCIPAL }, "admin")).toBe(true);
    expect(meHasRole(signedIn(person("runner")), "admin")).toBe(false);
    expect(meHasRole(signedIn(person("runner")), "viewer")).toBe(true);
    expect(meHasRole(signedIn(null), "viewer")).toBe(false);
  });
});
