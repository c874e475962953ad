import type { Command } from "commander";
import { escapeControlCharacters } from "@/lib/domain/ids";
import { preloadTokenizers } from "@/lib/domain/tokenizer";
import { isPostgresUrl, safeDatabaseUrl } from "@/lib/db/pg/database-url";
import { createServerContext, databasePath, workerSettings } from "@/lib/server/app-context";
import { cliContext } from "./context";
import { QueueingWorkerPool } from "@/lib/server/job-queue/queueing-pool";
import { formatEventLine } from "./format-event";
import { nonNegativeInt, positiveInt } from "./options";

/**
 * Registers `worker` (a worker pool in this process on the shared database),
 * `runs` (a list for scripts and people) and `events` (a branch's stored
 * envelopes, one per line).
 */
export function registerWorkerCommands(program: Command): void {
  program
    .command("worker")
    .description("Execute queued runs from the database (e.g. those made with `run --detach`), at most N at once.")
    .option("--concurrency <n>", "runs executed at once (default REFLEXION_CONCURRENCY, else 4)", positiveInt)
    .option("--exit-when-idle", "exit once nothing is queued and nothing runs here")
    .action(async (options: { concurrency?: number; exitWhenIdle?: boolean }) => {
      const say = (line: string) => process.stderr.write(`[worker] ${line}\n`);
      if (options.concurrency === undefined && workerSettings(process.env).concurrency === 0) {
        throw new Error("REFLEXION_CONCURRENCY=0 is for an app server that only serves pages (it works no jobs); give a worker --concurrency <n> or REFLEXION_CONCURRENCY ≥ 1.");
      }
      const context = createServerContext({
        startWorkers: false,
        requestedBy: "cli",
        workers: {
          ...(options.concurrency === undefined ? {} : { concurrency: options.concurrency }),
          onClaim: (runId, branchId) => say(`run ${runId} (branch ${branchId}): started`),
          onSettled: (runId, branchId, result) => {
            const why = result === null ? "the event log failed" : result.stoppedBecause;
            const outcome = result?.state.outcome ? ` (${result.state.outcome})` : "";
            say(`run ${runId} (branch ${branchId}): ${why}${outcome}`);
          },
        },
      });
      const { workers } = context;
      say(`${workers.owner}: executing queued runs from ${databaseLabel()}. Ctrl-C stops after the current steps (the runs stay queued).`);
      // A worker lives long: load the token counter's encoding now, not in the middle of its first run.
      preloadTokenizers();
      // With REFLEXION_DATABASE_URL this process is a pg-boss worker (jobs fetched from PostgreSQL, on any machine).
      workers.start();
      if (workers instanceof QueueingWorkerPool) say(`pg-boss worker: at most ${workers.jobConcurrency} branch job(s) at once.`);
      const stop = async () => {
        // Pool, pg-boss (waiting for the handlers running now), the LISTEN connection, the store.
        await context.close({ graceful: true });
        say(`stopped; at most ${workers.maxObservedConcurrency} run(s) were in flight at once.`);
      };
      if (options.exitWhenIdle) {
        await workers.whenIdle();
        await stop();
        return;
      }
      await new Promise<void>((resolve) => {
        // The pool's timers do not hold the process open (they are unref'd for tests and the web server): this does, until Ctrl-C.
        const keepAlive = setInterval(() => undefined, 60_000);
        const onSignal = () => {
          clearInterval(keepAlive);
          void stop().then(resolve);
        };
        process.once("SIGINT", onSignal);
        process.once("SIGTERM", onSignal);
      });
    });

  program
    .command("runs")
    .description("List runs, newest first: id, task, strategy, model, status.")
    .option("--limit <n>", "at most this many runs", positiveInt, 50)
    .option("--json", "one JSON object per line")
    .action(async (options: { limit: number; json?: boolean }) => {
      const context = cliContext();
      try {
        const runs = await context.service.listRuns(options.limit);
        for (const run of runs) {
          if (options.json) {
            const { id, taskId, strategy, modelId, status, trials, outcome, createdAt, environment } = run;
            process.stdout.write(`${JSON.stringify({ id, environment, taskId, strategy, modelId, status, trials, outcome, createdAt })}\n`);
          } else {
            // A task id recorded before ids were checked may hold control characters: shown escaped, never raw.
            process.stdout.write(`${run.id}\t${escapeControlCharacters(run.taskId)}\t${run.strategy}\t${run.modelId}\t${run.status}${run.outcome ? ` (${run.outcome})` : ""}\n`);
          }
        }
        if (runs.length === 0 && !options.json) process.stderr.write("No runs yet. Start one with `npm run cli -- run …` or in the web app.\n");
      } finally {
        await context.close();
      }
    });

  program
    .command("events")
    .description("Print a branch's stored events (root by default), one per line.")
    .requiredOption("--run <id>", "run id")
    .option("--branch <id>", "branch id (default: the run's root branch)")
    .option("--after <seq>", "only events with a larger seq (default 0: all)", nonNegativeInt, 0)
    .option("--json", "the stored envelopes as JSON, one per line")
    .action(async (options: { run: string; branch?: string; after: number; json?: boolean }) => {
      const context = cliContext();
      try {
        const { events } = await context.service.events(options.run, options.after, options.branch);
        for (const event of events) {
          if (options.json) process.stdout.write(`${JSON.stringify(event)}\n`);
          else process.stdout.write(`${event.seq}\t${event.type}\t${formatEventLine(event) ?? ""}\n`);
        }
      } finally {
        await context.close();
      }
    });
}

/** The database a worker uses, for its start-up line: the PostgreSQL URL without its password in shared mode, else the SQLite file. */
export function databaseLabel(env: Record<string, string | undefined> = process.env): string {
  const url = env.REFLEXION_DATABASE_URL;
  return isPostgresUrl(url) ? safeDatabaseUrl(url) : databasePath(env);
}
