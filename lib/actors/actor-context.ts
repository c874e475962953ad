import { AsyncLocalStorage } from "node:async_hooks";
import type { Actor } from "@/lib/domain/actor";
import type { Principal } from "@/lib/domain/roles";

/**
 * The actor of the work in progress, carried through async calls (decision 0041): a route runs its
 * handler inside {@link runAs} with the request's person, a worker runs a run's steps as `worker`,
 * an importer as `import`. Stores stamp appended events and audit entries with {@link currentActor}
 * unless the caller names one. Kept on `globalThis` so every bundle copy of this module shares it.
 */
const key = Symbol.for("reflexion-playground.actor-context");
const principalsKey = Symbol.for("reflexion-playground.actor-principals");
type Holder = typeof globalThis & { [key]?: AsyncLocalStorage<Actor>; [principalsKey]?: WeakMap<Actor, Principal> };
const holder = globalThis as Holder;
const storage: AsyncLocalStorage<Actor> = (holder[key] ??= new AsyncLocalStorage<Actor>());
/** The principal behind an actor a request runs as (its role, for rules that depend on it). */
const principals: WeakMap<Actor, Principal> = (holder[principalsKey] ??= new WeakMap<Actor, Principal>());

/** Runs `fn` with `actor` as the current actor (nested calls override for their extent). */
export function runAs<T>(actor: Actor, fn: () => T): T {
  return storage.run(actor, fn);
}

/** Runs `fn` as `principal`'s actor ({@link actorOfPrincipal}), with {@link currentPrincipal} answering it. */
export function runAsPrincipal<T>(principal: Principal, fn: () => T): T {
  const actor = actorOfPrincipal(principal);
  principals.set(actor, principal);
  return storage.run(actor, fn);
}

/** The principal of the request in progress (inside {@link runAsPrincipal}), else null (a worker, an import, the CLI). */
export function currentPrincipal(): Principal | null {
  const actor = storage.getStore();
  return actor ? (principals.get(actor) ?? null) : null;
}

/** The current actor, or null outside any {@link runAs}. */
export function currentActor(): Actor | null {
  return storage.getStore() ?? null;
}

/** The actor a principal acts as: `alice`, `alice (token ci)`, `local`. */
export function actorOfPrincipal(principal: Principal, tokenName: string | undefined = principal.tokenName ?? undefined): Actor {
  const name = principal.kind === "token" ? `${principal.name} (token${tokenName ? ` ${tokenName}` : ""})` : principal.name;
  return { kind: principal.kind, id: principal.kind === "token" && principal.tokenId ? principal.tokenId : principal.userId, name, userId: principal.userId };
}

/**
 * The name a signed-in person writes under (a note's author, a reviewer): the actor's name without the
 * ` (token …)` that {@link actorOfPrincipal} adds; null when the actor is not a signed-in person (`local`,
 * `cli`, a worker…), where a typed-in name stands.
 */
export function signedInName(actor: Actor | null): string | null {
  if (!actor || (actor.kind !== "person" && actor.kind !== "token")) return null;
  return actor.name.replace(/ \(token( [^)]*)?\)$/, "");
}
