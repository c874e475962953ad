import type { Actor } from "@/lib/domain/actor";

/**
 * The actors of work no person does directly (lib/domain/actor.ts): importers, lessons and the CLI
 * with sign-in off. None acts for an account (`userId` null), so what they create has no owner.
 */

/** An importer: `paper-logs`, `bundle`, `traces`. */
export function importActor(importer: string): Actor {
  return { kind: "import", id: importer, name: `import ${importer}`, userId: null };
}

/** A lesson's scripted step (its run, its forks). */
export function lessonActor(lessonId: string): Actor {
  return { kind: "lesson", id: lessonId, name: `lesson ${lessonId}`, userId: null };
}

/** A CLI command with sign-in off (embedded mode, or shared mode with `REFLEXION_SIGN_IN=off`). */
export const CLI_ACTOR: Actor = Object.freeze({ kind: "cli", id: "cli", name: "cli", userId: null });
