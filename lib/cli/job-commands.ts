import type { Command } from "commander";
import type { DeadLetterRow, RetryResult } from "@/lib/domain/dead-letter-actions";
import { positiveInt } from "./options";

/**
 * `cli jobs dead-letters | retry <letter-id|--all> | discard <letter-id>`: shared mode's
 * dead letters — branch jobs that failed every attempt — listed, retried (the branch's job is
 * enqueued again under the same key and resumes from its log; a branch that ended, is paused or is
 * missing is refused with what to do) or discarded, as on `/jobs`. Ids may be shortened to their
 * first 8 characters, as the list prints them. In the embedded (SQLite) mode there is no job queue,
 * and each command says so and what to set. Exit codes: 0 done; 1 a retry was refused; 2 bad input
 * or no queue (no such letter, embedded mode).
 */
export function registerJobCommands(program: Command): void {
  const jobs = program
    .command("jobs")
    .description("Shared mode's job queue (REFLEXION_DATABASE_URL): list, retry or discard dead letters — branch jobs that failed every attempt.");

  jobs
    .command("dead-letters")
    .description("List the dead letters, newest first: letter id, run, kind, attempts, the branch now, the last error.")
    .option("--limit <n>", "at most this many letters", positiveInt, 100)
    .option("--json", "one JSON object per letter and line")
    .action(async (options: { limit: number; json?: boolean }) => {
      await withDeadLetters(false, async (service) => {
        const { stats, deadLetters } = await service.list(options.limit);
        if (options.json) {
          for (const letter of deadLetters) process.stdout.write(`${JSON.stringify(letter)}\n`);
          return;
        }
        process.stderr.write(`Jobs: ${stats.queued} waiting for a worker, ${stats.active} running, ${stats.failed} dead letter(s).\n`);
        if (deadLetters.length === 0) {
          process.stderr.write("No dead letters: no job has failed every attempt.\n");
          return;
        }
        for (const letter of deadLetters) process.stdout.write(`${letterLine(letter)}\n`);
        process.stderr.write("Retry with `npm run cli -- jobs retry <letter-id>` (or --all), discard with `npm run cli -- jobs discard <letter-id>`.\n");
      });
    });

  jobs
    .command("retry")
    .description("Enqueue a dead letter's branch job again (it resumes from its log) and remove the letter; --all for every letter. A branch that ended, is paused or is missing is refused.")
    .argument("[letter-id]", "the letter's id (or its first 8+ characters)")
    .option("--all", "retry every dead letter")
    .action(async (letterId: string | undefined, options: { all?: boolean }) => {
      if (!options.all && !letterId) throw new Error("Give a letter id (`npm run cli -- jobs dead-letters` lists them) or --all.");
      if (options.all && letterId) throw new Error("Give either a letter id or --all, not both.");
      await withDeadLetters(true, async (service) => {
        if (options.all) {
          const { results, requeued, refused } = await service.retryAll();
          for (const result of results) process.stdout.write(`${resultLine(result)}\n`);
          process.stderr.write(results.length === 0 ? "No dead letters to retry.\n" : `${requeued} letter(s) retried, ${refused} refused (they stay; discard them).\n`);
          return;
        }
        const result = await service.retry(letterId ?? "");
        if (result.outcome === "requeued" || result.outcome === "already-queued") {
          process.stdout.write(`${resultLine(result)}\n`);
        } else {
          process.stderr.write(`refused: ${result.message}\n`);
          process.exitCode = 1;
        }
      });
    });

  jobs
    .command("discard")
    .description("Remove a dead letter (the run's log is not touched).")
    .argument("<letter-id>", "the letter's id (or its first 8+ characters)")
    .action(async (letterId: string) => {
      await withDeadLetters(true, async (service) => {
        const id = await service.discard(letterId);
        process.stdout.write(`discarded ${id}\n`);
      });
    });
}

type Service = import("@/lib/server/job-queue/dead-letter-service").DeadLetterService;

/**
 * Runs `body` with a dead-letter service on this process's database, closing everything after.
 * Without `REFLEXION_DATABASE_URL` it opens nothing and says there is no job queue (exit 2 when the
 * command had to act, 0 for the list).
 */
async function withDeadLetters(acts: boolean, body: (service: Service) => Promise<void>): Promise<void> {
  const { isPostgresUrl } = await import("@/lib/db/pg/database-url");
  const { DeadLetterService, NO_JOB_QUEUE_MESSAGE } = await import("@/lib/server/job-queue/dead-letter-service");
  if (!isPostgresUrl(process.env.REFLEXION_DATABASE_URL)) {
    process.stderr.write(`${NO_JOB_QUEUE_MESSAGE}\n`);
    if (acts) process.exitCode = 2;
    return;
  }
  const { cliContext } = await import("./context");
  const context = cliContext();
  try {
    await body(new DeadLetterService(context.store, context.jobs));
  } finally {
    await context.close();
  }
}

function letterLine(letter: DeadLetterRow): string {
  const now = letter.branch.status === "ended" ? `ended (${letter.branch.outcome ?? "?"})` : letter.branch.queuedAgain ? `${letter.branch.status}, queued again` : letter.branch.status;
  const error = (letter.error ?? "no message recorded").replace(/\s+/g, " ").slice(0, 200);
  return [letter.id.slice(0, 8), letter.runId, letter.priority, `${letter.attempts} attempt(s)`, `branch ${now}`, letter.failedAt ?? "—", error].join("\t");
}

function resultLine(result: RetryResult): string {
  return `${result.letterId.slice(0, 8)}\t${result.outcome}\t${result.message}`;
}
