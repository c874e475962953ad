import { z } from "zod";

/**
 * Who made an event or an audited action (decision 0041). `person`: a signed-in person in a browser;
 * `token`: a person through their API token (CLI, scripts); `local`: embedded mode's one user;
 * `worker`: the engine working a run on someone's behalf; `lesson`: a lesson's scripted step;
 * `import`: an importer (paper logs, bundles, outside traces); `cli`: a CLI command with sign-in off.
 * Events written before actors were recorded have none (`actor` absent).
 */
export const actorSchema = z.object({
  kind: z.enum(["person", "token", "local", "worker", "lesson", "import", "cli"]),
  /** Stable id: the account id (person, token's owner, local), the worker id, the lesson id, the importer name. */
  id: z.string().min(1),
  /** What a person reads: "alice", "alice (token ci)", "worker w-3f2a", "lesson reflexion-101". */
  name: z.string(),
  /** The account this actor acts for (person, token, and a worker or lesson run for a person), else null. */
  userId: z.string().nullable().default(null),
});
export type Actor = z.infer<typeof actorSchema>;
