import { currentActor } from "@/lib/actors/actor-context";

/**
 * The account a run or experiment created now belongs to (decision 0041): the current actor's
 * `userId` (lib/actors/actor-context.ts) — a signed-in person, their token, or a worker or lesson acting
 * for one. Null for embedded mode's `local` user, a CLI command with sign-in off, an importer, or work
 * outside any actor: such rows have no owner (only an admin may change them, lib/server/ownership.ts).
 */
export function creatingOwnerUserId(): string | null {
  const actor = currentActor();
  if (!actor || actor.kind === "local" || actor.kind === "cli" || actor.kind === "import") return null;
  return actor.userId ?? null;
}
