import { sql, type SQL } from "drizzle-orm";
import { drizzleOver, openSqliteConnection } from "@/lib/db/sqlite-connection";
import { openNodePostgres } from "@/lib/db/pg/database";
import * as sqliteSchema from "@/lib/db/schema";
import type { RunStore } from "@/lib/db/store";
import type { ExperimentRecord } from "@/lib/domain/experiment";
import { RUN_TRIAL_STATS_VERSION } from "@/lib/domain/run-trial-stats";
import { createServerContext } from "@/lib/server/app-context";
import { seedExperiment, seededTaskId } from "./seed-experiment";

/**
 * A finished experiment far too large to seed through logs — default 2,000 tasks × 5 arms × 20
 * repeats at a trial budget of 5: 200,000 runs, 1,000,000 CSV rows — for the CSV export's bench
 * (bench/experiments.bench.ts `--million`). Everything the export reads is a real row: a template
 * experiment of one task × the arms × the repeats is seeded with complete logs
 * (tests/helpers/seed-experiment.ts) and exported once, which stores its runs' trial stats; then one
 * `INSERT … SELECT` per table copies its runs, root branches, branch summaries, cell links and
 * stored trial stats to every task of a new experiment, in the database (SQLite: a recursive
 * counter; PostgreSQL: `generate_series`). The copies have no events: their stored stats are what
 * the export serves, and their logs would only be read if the stats were invalid. Finally the
 * experiment's maintained summary is computed once (lib/server/maintained-summary.ts), as the first
 * results read after a real experiment finishes would.
 */

/** Where the store's database is: the SQLite file, or the PostgreSQL URL. */
export type SeedLocation = { kind: "sqlite"; file: string } | { kind: "pg"; url: string };

/** What {@link seedLargeExport} wrote, with its timings (ms). */
export interface SeededLargeExport {
  experiment: ExperimentRecord;
  runs: number;
  /** The bulk copy of the rows. */
  copyMs: number;
  /** The first summary computation (then stored). */
  summaryMs: number;
}

/**
 * Seeds the experiment into `store`'s database (the store must be idle; it is written by a second connection to `location`).
 * @throws Error when `tasks` exceeds the definition's 2,000 or `repeats` its 20, or from the database.
 */
export async function seedLargeExport(store: RunStore, location: SeedLocation, options: { tasks: number; arms: readonly string[]; repeats: number; maxTrials: number }): Promise<SeededLargeExport> {
  const template = await seedExperiment(store, { tasks: 1, arms: options.arms, repeats: options.repeats, maxTrials: options.maxTrials, seed: 9, name: "bench export template" });
  const context = createServerContext({ store, startWorkers: false });
  // One export stores the template runs' trial stats (the lazy fill).
  await new Response(await context.experimentExport.csvStream(template.experiment.id)).text();
  const definition = { ...template.experiment.definition, name: "bench 1,000,000-row export", taskIds: Array.from({ length: options.tasks }, (_, index) => seededTaskId(index)) };
  const experiment = await store.experiments.createExperiment({ definition, taskSetName: template.experiment.taskSetName, provenance: null });
  const perTask = template.runs;
  const runs = options.tasks * perTask;
  const prefix = `bulk-${experiment.id.slice(0, 8)}`;
  const started = performance.now();
  await copyRows(location, { templateId: template.experiment.id, experimentId: experiment.id, prefix, perTask, runs });
  const copyMs = performance.now() - started;
  const summaryStarted = performance.now();
  await context.experiments.summary(experiment.id);
  return { experiment, runs, copyMs, summaryMs: performance.now() - summaryStarted };
}

interface CopyPlan {
  templateId: string;
  experimentId: string;
  prefix: string;
  perTask: number;
  runs: number;
}

/** The statements of the copy: the template as a temporary table `tpl` (by position j), a counter `n(i)`, then one insert per table. */
function statements(plan: CopyPlan, dialect: "sqlite" | "pg"): SQL[] {
  const pg = dialect === "pg";
  const run = sql.raw(`'${plan.prefix}-r' || n.i`);
  const branch = sql.raw(`'${plan.prefix}-b' || n.i`);
  const taskId = pg ? sql.raw(`'task-' || lpad((n.i / ${plan.perTask} + 1)::text, 4, '0')`) : sql.raw(`'task-' || printf('%04d', n.i / ${plan.perTask} + 1)`);
  const summary = pg ? sql`jsonb_set(tpl.summary, '{branchId}', to_jsonb(${branch}))` : sql`json_set(tpl.summary, '$.branchId', ${branch})`;
  const join = sql.raw(`n JOIN tpl ON tpl.j = n.i % ${plan.perTask}`);
  const counter = pg
    ? sql.raw(`CREATE TEMP TABLE n AS SELECT generate_series(0, ${plan.runs - 1}) AS i`)
    : sql.raw(`CREATE TEMP TABLE n AS WITH RECURSIVE c(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM c WHERE i < ${plan.runs - 1}) SELECT i FROM c`);
  return [
    sql`DROP TABLE IF EXISTS tpl`,
    sql`DROP TABLE IF EXISTS n`,
    sql`CREATE TEMP TABLE tpl AS
      SELECT er.position AS j, er.arm AS arm, r.created_at, r.title, r.config, r.owner_user_id, bs.status, bs.queued_at, bs.summary, ts.last_seq, ts.stats
      FROM experiment_runs er JOIN runs r ON r.id = er.run_id JOIN branch_summaries bs ON bs.branch_id = r.root_branch_id JOIN run_trial_stats ts ON ts.run_id = r.id
      WHERE er.experiment_id = ${plan.templateId}`,
    counter,
    sql`INSERT INTO runs (id, created_at, root_branch_id, title, config, owner_user_id) SELECT ${run}, tpl.created_at, ${branch}, tpl.title, tpl.config, tpl.owner_user_id FROM ${join}`,
    sql`INSERT INTO branches (id, run_id, parent_branch_id, fork_seq, created_at) SELECT ${branch}, ${run}, NULL, NULL, tpl.created_at FROM ${join}`,
    sql`INSERT INTO branch_summaries (branch_id, run_id, status, queued_at, summary) SELECT ${branch}, ${run}, tpl.status, tpl.queued_at, ${summary} FROM ${join}`,
    sql`INSERT INTO experiment_runs (experiment_id, task_id, arm, run_id, position) SELECT ${plan.experimentId}, ${taskId}, tpl.arm, ${run}, n.i FROM ${join}`,
    sql`INSERT INTO run_trial_stats (run_id, branch_id, last_seq, version, stats) SELECT ${run}, ${branch}, tpl.last_seq, ${RUN_TRIAL_STATS_VERSION}, tpl.stats FROM ${join}`,
    sql`DROP TABLE tpl`,
    sql`DROP TABLE n`,
  ];
}

async function copyRows(location: SeedLocation, plan: CopyPlan): Promise<void> {
  if (location.kind === "sqlite") {
    const connection = openSqliteConnection(location.file, { foreignKeys: true });
    const db = drizzleOver(connection, sqliteSchema);
    try {
      db.transaction((tx) => {
        for (const statement of statements(plan, "sqlite")) tx.run(statement);
      });
    } finally {
      connection.close();
    }
    return;
  }
  const connection = openNodePostgres(location.url, { max: 1 });
  try {
    await connection.db.transaction(async (tx) => {
      for (const statement of statements(plan, "pg")) await tx.execute(statement);
    });
  } finally {
    await connection.close();
  }
}
