import type { Role } from "@/lib/domain/roles";

/** HTTP methods a route file may export. */
export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/**
 * What a route needs (decision 0041):
 * - `public`: anyone, signed in or not (sign-in itself, health);
 * - `{ role }`: a principal whose role includes `role`;
 * - `{ role, own }`: as `{ role }`, and unless the principal is an admin, the run (`own: "run"`, route param `runId`)
 *   or experiment (`own: "experiment"`, route param `experimentId`) must be theirs.
 */
export type Access = "public" | { role: Role; own?: "run" | "experiment" };

const viewer: Access = { role: "viewer" };
const runner: Access = { role: "runner" };
const admin: Access = { role: "admin" };
const ownRun: Access = { role: "runner", own: "run" };
const ownExperiment: Access = { role: "runner", own: "experiment" };

/**
 * Every API route's access, keyed by its URL pattern as Next spells the folder (`/api/runs/[runId]/fork`)
 * and by method. A route or method missing here is refused to everyone but admins (deny by default), and
 * `tests/auth/route-policy-coverage.test.ts` fails until it is listed. docs/roles.md explains each choice.
 *
 * Rules of thumb: reading runs, experiments, lessons, reviews, templates and their exports is `viewer`;
 * anything that starts model calls, stores something new or joins a review is `runner`; changing a run or
 * experiment is the owner's (`own`); a GET that shows server configuration or job payloads, and everything
 * that changes the server's settings, prices, users or queue, is `admin`.
 */
export const ROUTE_POLICY: Readonly<Record<string, Partial<Record<HttpMethod, Access>>>> = {
  // Sign-in, health and who-am-I answer without a session.
  "/api/auth/[...all]": { GET: "public", POST: "public" },
  "/api/health": { GET: "public" },
  "/api/me": { GET: "public" },
  // Accounts and tokens: everyone manages their own tokens (the token routes check ownership); users are admin's.
  "/api/tokens": { GET: viewer, POST: viewer },
  "/api/tokens/[id]": { DELETE: viewer },
  "/api/users": { GET: admin, POST: admin },
  "/api/users/[id]": { GET: admin, PATCH: admin, DELETE: admin },
  "/api/audit": { GET: admin },
  "/api/budgets": { GET: admin, POST: admin, PUT: admin, DELETE: admin },

  // Runs.
  "/api/runs": { GET: viewer, POST: runner },
  "/api/runs/[runId]": { GET: viewer },
  "/api/runs/[runId]/events": { GET: viewer },
  "/api/runs/[runId]/stream": { GET: viewer },
  "/api/runs/[runId]/branches": { GET: viewer },
  "/api/runs/[runId]/lessons": { GET: viewer },
  "/api/runs/[runId]/bundle": { GET: viewer },
  "/api/runs/[runId]/otlp.jsonl": { GET: viewer },
  "/api/runs/[runId]/otlp": { POST: runner },
  "/api/runs/[runId]/annotations": { GET: viewer, POST: runner },
  "/api/runs/[runId]/annotations/[annotationId]": { PATCH: runner },
  "/api/runs/[runId]/pause": { POST: ownRun },
  "/api/runs/[runId]/resume": { POST: ownRun },
  "/api/runs/[runId]/cancel": { POST: ownRun },
  "/api/runs/[runId]/fork": { POST: ownRun },
  "/api/runs/[runId]/edits": { POST: ownRun },
  "/api/runs/[runId]/breakpoints": { POST: ownRun },

  // Class sessions (docs/guides/teaching.md "Teaching a class"). Starting or listing classes is the
  // runner's (a class starts the lesson's run); the teacher's routes also need the class's teacher
  // secret (checked by lib/server/class-service.ts); the students' routes are public, gated by the
  // student token a join returns (students have no accounts).
  "/api/classes": { GET: runner, POST: runner },
  "/api/classes/join": { POST: "public" },
  "/api/classes/by-code/[code]": { GET: "public" },
  "/api/classes/[classId]": { GET: viewer },
  "/api/classes/[classId]/student": { GET: "public" },
  "/api/classes/[classId]/stream": { GET: "public" },
  "/api/classes/[classId]/answers": { POST: "public" },
  "/api/classes/[classId]/reflections": { POST: "public" },
  "/api/classes/[classId]/step": { POST: viewer },
  "/api/classes/[classId]/reveal": { POST: viewer },
  "/api/classes/[classId]/forks": { POST: viewer },
  "/api/classes/[classId]/end": { POST: viewer },
  "/api/classes/[classId]/reset": { POST: viewer },

  // Experiments.
  "/api/experiments": { GET: viewer, POST: runner },
  "/api/experiments/[experimentId]": { GET: viewer },
  "/api/experiments/[experimentId]/ab": { GET: viewer },
  "/api/experiments/[experimentId]/compare": { GET: viewer },
  "/api/experiments/[experimentId]/export": { GET: viewer },
  "/api/experiments/[experimentId]/bundle": { GET: viewer },
  "/api/experiments/[experimentId]/cancel": { POST: ownExperiment },
  "/api/experiments/[experimentId]/resume": { POST: ownExperiment },

  // Lessons, reflections, search and what a run is made of.
  "/api/lessons": { GET: viewer, POST: runner },
  "/api/lessons/import": { POST: runner },
  "/api/lessons/[lessonId]": { GET: viewer, DELETE: runner },
  "/api/lessons/[lessonId]/file": { GET: viewer },
  "/api/lessons/[lessonId]/run": { POST: runner },
  "/api/reflections": { GET: viewer },
  "/api/key-facts": { GET: viewer },
  "/api/search": { GET: viewer },
  "/api/environments": { GET: viewer },
  "/api/tasks": { GET: viewer },
  "/api/models": { GET: viewer },
  "/api/task-sets": { GET: viewer, POST: runner },
  "/api/task-sets/[taskSetId]": { DELETE: admin },

  // Imports, bundles, traces and memory stores.
  "/api/imports": { GET: viewer, POST: runner },
  "/api/imports/traces": { POST: runner },
  "/api/bundles": { GET: viewer, POST: runner },
  "/api/bundles/[hash]": { GET: viewer },
  "/api/trace-reflections": { POST: runner },
  "/api/memory-stores": { GET: viewer, PUT: runner },
  "/api/memory-stores/[name]/reflections": { GET: viewer },

  // People's judgements: grades, review queues.
  "/api/judge-grades": { GET: viewer, POST: runner },
  "/api/reviews": { GET: viewer, POST: runner },
  "/api/reviews/[queueId]": { GET: viewer },
  "/api/reviews/[queueId]/reviews": { POST: runner },
  "/api/reviews/[queueId]/export": { GET: viewer },

  // The template library and the optimiser.
  "/api/templates": { GET: viewer, POST: runner },
  "/api/templates/[templateId]": { GET: viewer },
  "/api/templates/[templateId]/lineage": { GET: viewer },
  "/api/templates/[templateId]/versions": { POST: runner },
  "/api/templates/[templateId]/labels/[label]": { PUT: runner },
  "/api/templates/versions/[versionId]": { GET: viewer },
  "/api/templates/export": { GET: viewer },
  "/api/templates/import": { POST: runner },
  "/api/templates/preview": { POST: viewer },
  "/api/templates/ab": { POST: runner },
  "/api/optimisations": { GET: viewer, POST: runner },
  "/api/optimisations/[optimisationId]": { GET: viewer },
  "/api/optimisations/[optimisationId]/resume": { POST: runner },

  // MCP (read-only tools, but a client acts with its own credentials: runners and up).
  "/api/mcp": { GET: runner, POST: runner, DELETE: runner },

  // Server settings, prices and the job queue.
  "/api/settings/providers": { GET: admin },
  "/api/settings/providers/[provider]/test": { POST: admin },
  "/api/settings/prices": { GET: viewer, PUT: admin },
  "/api/otlp/settings": { GET: admin },
  "/api/jobs/dead-letters": { GET: admin },
  "/api/jobs/dead-letters/[letterId]/retry": { POST: admin },
  "/api/jobs/dead-letters/[letterId]/discard": { POST: admin },
  "/api/jobs/dead-letters/retry-all": { POST: admin },
  "/api/jobs/rate-limits": { GET: viewer },
};
