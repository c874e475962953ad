import type { Role } from "@/lib/domain/roles";

/**
 * What a CLI command needs when sign-in is on (the CLI's twin of lib/auth/route-policy.ts):
 * - a role: the `REFLEXION_TOKEN`'s account must have at least it;
 * - `worker`: exempt, it holds the database credential and acts as `worker`;
 * - `operator`: exempt, database setup and checks that touch no lab data (migrations, status, the Evaluator checks);
 * - `bootstrap`: `users add` while no account exists (the first admin); afterwards `admin`.
 * Keyed by the command path as typed (`experiment run`); a command missing here needs `admin` (deny by default),
 * and tests/auth/cli-auth.test.ts fails until it is listed.
 */
export type CommandAccess = Role | "worker" | "operator" | "bootstrap";

export const COMMAND_POLICY: Readonly<Record<string, CommandAccess>> = {
  // Reading runs, experiments, lessons, reviews and search.
  tasks: "viewer",
  runs: "viewer",
  events: "viewer",
  "experiment show": "viewer",
  "experiment export": "viewer",
  "experiment compare": "viewer",
  "experiment list": "viewer",
  "templates list": "viewer",
  "templates show": "viewer",
  "templates ab": "viewer",
  "templates export": "viewer",
  export: "viewer",
  "export-otlp": "viewer",
  providers: "viewer",
  "prices list": "viewer",
  "lessons export": "viewer",
  "task-sets list": "viewer",
  "insights list": "viewer",
  "memory list": "viewer",
  "memory export": "viewer",
  mcp: "viewer",
  search: "viewer",
  "review list": "viewer",
  "review export": "viewer",
  annotations: "viewer",
  "tokens create": "viewer",
  "tokens list": "viewer",
  "tokens revoke": "viewer",
  // Starting, steering and editing runs and experiments; notes and review queues.
  run: "runner",
  resume: "runner",
  pause: "runner",
  cancel: "runner",
  fork: "runner",
  "lessons import": "runner",
  replay: "runner",
  "experiment run": "runner",
  "experiment resume": "runner",
  "templates optimise": "runner",
  "templates save": "runner",
  "templates label": "runner",
  "templates import": "runner",
  "continue-import": "runner",
  import: "runner",
  "import-traces": "runner",
  check: "runner",
  "insights extract": "runner",
  "reflect-traces": "runner",
  "review create": "runner",
  // Classes: starting one starts the lesson's run; ending one is its teacher's (checked by the class service).
  "class start": "runner",
  "class list": "runner",
  "class end": "runner",
  annotate: "runner",
  // The lab's settings, imports of the authors' logs, dead letters, uploaded sets and accounts.
  "prices set": "admin",
  "import-logs": "admin",
  "jobs dead-letters": "admin",
  "jobs retry": "admin",
  "jobs discard": "admin",
  "task-sets delete": "admin",
  "users add": "bootstrap",
  "users list": "admin",
  "users set-role": "admin",
  "users remove": "admin",
  "users set-password": "admin",
  "budgets list": "admin",
  "budgets set": "admin",
  "budgets remove": "admin",
  audit: "admin",
  // Exempt.
  worker: "worker",
  "db migrate": "operator",
  "db status": "operator",
  "verify-code": "operator",
  "conformance-household": "operator",
};

/** The access of a command path; `admin` when unlisted. */
export function commandAccess(path: string): CommandAccess {
  return COMMAND_POLICY[path] ?? "admin";
}

/**
 * Commands that change one run (`--run <id>`) or experiment (`--id <id>`): with sign-in on a runner may use
 * them only on their own (its owner is the account that created it), an admin on any — as `own` routes.
 */
export const OWNED_COMMANDS: Readonly<Record<string, "run" | "experiment">> = {
  resume: "run",
  pause: "run",
  cancel: "run",
  fork: "run",
  replay: "run",
  "experiment resume": "experiment",
};

/** Whether a command changes a run or an experiment that must be the token's person's own; null when not. */
export function ownedTarget(path: string): "run" | "experiment" | null {
  return OWNED_COMMANDS[path] ?? null;
}

/** Viewer commands that change something all the same (a person's own API tokens): audited. */
const AUDITED_READS_EXCEPTIONS: ReadonlySet<string> = new Set(["tokens create", "tokens revoke"]);

/** Admin commands that only read (listed, not audited: the audit records changes). */
const ADMIN_READS: ReadonlySet<string> = new Set(["audit", "users list", "budgets list", "jobs dead-letters"]);

/** Runner commands that only read (a runner's, as the route they mirror: `GET /api/classes`): not audited. */
const RUNNER_READS: ReadonlySet<string> = new Set(["class list"]);

/** Whether a command changes something, so the audit records it once it ran: runner, admin and bootstrap commands but the reads above. */
export function isAuditedCommand(path: string): boolean {
  if (AUDITED_READS_EXCEPTIONS.has(path)) return true;
  const access = commandAccess(path);
  if (access === "viewer" || access === "operator" || access === "worker") return false;
  return !ADMIN_READS.has(path) && !RUNNER_READS.has(path);
}
