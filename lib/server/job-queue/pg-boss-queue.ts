import { PgBoss, type Job, type JobWithMetadata } from "pg-boss";
import { z } from "zod";
import { describePgError } from "@/lib/db/pg/describe-pg-error";
import { asBranchId, asRunId, type BranchId } from "@/lib/domain/ids";
import { jobKeyOf, PRIORITY_VALUE, type BranchJob, type BranchJobHandler, type DeadLetter, type JobQueue, type QueueStats, type RequeueResult, type WorkOptions } from "./port";

/** The queue of branch-drive jobs. */
export const BRANCH_QUEUE = "reflexion-branch-drive";
/** Where jobs go after their last failed attempt (shown at /jobs and `GET /api/jobs/dead-letters`). */
export const DEAD_LETTER_QUEUE = "reflexion-branch-drive-dead";

/** Settings of the pg-boss queue; the defaults suit a lab, tests shorten the times. Times are seconds. */
export interface PgBossQueueSettings {
  /** Retries after the first failed attempt (pg-boss `retryLimit`). Default 4. */
  retryLimit: number;
  /** First retry delay; doubles with jitter each retry (pg-boss `retryBackoff`). Default 5 s. */
  retryDelaySeconds: number;
  /** Longest retry delay. Default 300 s. */
  retryDelayMaxSeconds: number;
  /** A worker that stops heart-beating for this long is taken as dead and its job retried (pg-boss ≥ 10 s). Default 30 s. */
  heartbeatSeconds: number;
  /** Upper bound of one attempt (a branch that drives longer is retried and resumes from its log). Default 6 h. */
  expireInSeconds: number;
  /** How often pg-boss looks for dead heartbeats and expired jobs. Default 10 s. */
  superviseIntervalSeconds: number;
  /**
   * How often an idle worker polls for jobs when LISTEN/NOTIFY is not available (e.g. behind
   * PgBouncer in transaction mode). With it, a new job wakes idle workers at once and polling is
   * only a backstop every {@link notifyPollingIntervalSeconds}. Default 1 s.
   */
  pollingIntervalSeconds: number;
  /** The backstop poll while LISTEN/NOTIFY wakes workers (pg-boss `notifyPollingIntervalSeconds`): it still takes up retries whose delay has passed and jobs of a dead worker, which send no NOTIFY. Default 2 s. */
  notifyPollingIntervalSeconds: number;
  /** Wake idle workers with PostgreSQL LISTEN/NOTIFY when a job is created (pg-boss `useListenNotify`; one held connection per process). Default true. */
  listenNotify: boolean;
  /** PostgreSQL schema of pg-boss's tables. Default `pgboss`. */
  schema: string;
}

const positive = (fallback: number, min = 1) => z.coerce.number().int().min(min).default(fallback);

/**
 * The settings from the environment: `REFLEXION_JOB_RETRY_LIMIT`, `…_RETRY_DELAY_S`, `…_RETRY_DELAY_MAX_S`, `…_HEARTBEAT_S`,
 * `…_EXPIRE_S`, `…_SUPERVISE_S`, `…_POLL_S`, `…_NOTIFY_POLL_S`, `REFLEXION_JOB_LISTEN_NOTIFY` (`0` turns it off), `REFLEXION_JOB_SCHEMA`.
 * @throws Error naming the bad variable and docs/shared-mode.md.
 */
export function pgBossSettings(env: Record<string, string | undefined>): PgBossQueueSettings {
  const schema = z.object({
    retryLimit: z.coerce.number().int().min(0).default(4),
    retryDelaySeconds: positive(5),
    retryDelayMaxSeconds: positive(300),
    heartbeatSeconds: positive(30, 10),
    expireInSeconds: positive(6 * 3600),
    superviseIntervalSeconds: positive(10),
    pollingIntervalSeconds: z.coerce.number().min(0.5).default(1),
    notifyPollingIntervalSeconds: z.coerce.number().min(0.5).default(2),
    listenNotify: z.enum(["0", "1", "false", "true"]).default("1").transform((value) => value === "1" || value === "true"),
    schema: z.string().regex(/^[a-z_][a-z0-9_]*$/).default("pgboss"),
  });
  const blank = (value: string | undefined) => (value?.trim() ? value.trim() : undefined);
  const parsed = schema.safeParse({
    retryLimit: blank(env.REFLEXION_JOB_RETRY_LIMIT),
    retryDelaySeconds: blank(env.REFLEXION_JOB_RETRY_DELAY_S),
    retryDelayMaxSeconds: blank(env.REFLEXION_JOB_RETRY_DELAY_MAX_S),
    heartbeatSeconds: blank(env.REFLEXION_JOB_HEARTBEAT_S),
    expireInSeconds: blank(env.REFLEXION_JOB_EXPIRE_S),
    superviseIntervalSeconds: blank(env.REFLEXION_JOB_SUPERVISE_S),
    pollingIntervalSeconds: blank(env.REFLEXION_JOB_POLL_S),
    notifyPollingIntervalSeconds: blank(env.REFLEXION_JOB_NOTIFY_POLL_S),
    listenNotify: blank(env.REFLEXION_JOB_LISTEN_NOTIFY)?.toLowerCase(),
    schema: blank(env.REFLEXION_JOB_SCHEMA),
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`REFLEXION_JOB_* setting ${issue?.path.join(".") ?? ""}: ${issue?.message ?? "invalid"} (see docs/shared-mode.md, "Workers").`);
  }
  const settings = parsed.data;
  // pg-boss refuses a backstop poll shorter than the plain one (its worker would then fetch nothing, silently).
  if (settings.notifyPollingIntervalSeconds < settings.pollingIntervalSeconds) {
    if (blank(env.REFLEXION_JOB_NOTIFY_POLL_S) !== undefined) {
      throw new Error(
        `REFLEXION_JOB_NOTIFY_POLL_S (${settings.notifyPollingIntervalSeconds} s) must be at least REFLEXION_JOB_POLL_S (${settings.pollingIntervalSeconds} s): the poll while NOTIFY wakes workers is the slower backstop (see docs/shared-mode.md, "Workers").`,
      );
    }
    settings.notifyPollingIntervalSeconds = settings.pollingIntervalSeconds;
  }
  return settings;
}

/** How often one pg-boss error text is printed at most, ms. */
const REPEAT_REPORT_MS = 60_000;

/** pg-boss job states before a job is done: waiting, waiting for its retry, being worked. */
const UNFINISHED_STATES: ReadonlySet<string> = new Set(["created", "retry", "active"]);

const jobDataSchema = z.object({ runId: z.string().min(1), branchId: z.string().min(1), priority: z.enum(["interactive", "batch"]).default("batch") });

function toBranchJob(data: unknown): BranchJob | null {
  const parsed = jobDataSchema.safeParse(data);
  return parsed.success ? { runId: asRunId(parsed.data.runId), branchId: asBranchId(parsed.data.branchId), priority: parsed.data.priority } : null;
}

/**
 * The {@link JobQueue} on pg-boss 12 (PostgreSQL ≥ 13; docs/scale-and-export.md §2.4): one job
 * per branch in queue {@link BRANCH_QUEUE} with the `stately` policy keyed by {@link jobKeyOf} —
 * at most one queued and one active job per branch, so enqueueing a branch again (a resubmitted
 * experiment, a reconciliation pass) creates nothing. Interactive runs have a higher `priority`
 * than batch runs. A failed attempt is retried with exponential backoff; after the last one the
 * job is copied to {@link DEAD_LETTER_QUEUE}. Workers heart-beat their jobs: a worker killed
 * mid-run stops beating and its job is retried on another worker after `heartbeatSeconds`, where
 * the branch resumes from its log (its lease and the store's unique `(branch_id, seq)` keep a
 * zombie attempt from appending). With {@link PgBossQueueSettings.listenNotify} (the default) the
 * queue is created with pg-boss's `notify` option and each process holds one LISTEN connection, so
 * an idle worker takes a new job at once instead of on its next poll: an interactive run starts
 * within milliseconds on any machine, and a batch drains without a poll interval per job.
 */
export class PgBossJobQueue implements JobQueue {
  readonly kind = "pg-boss" as const;
  private readonly boss: PgBoss;
  private ready: Promise<void> | null = null;
  private working = false;

  constructor(
    connectionString: string,
    private readonly settings: PgBossQueueSettings,
  ) {
    this.boss = new PgBoss({
      connectionString,
      schema: settings.schema,
      application_name: "reflexion-jobs",
      superviseIntervalSeconds: settings.superviseIntervalSeconds,
      monitorIntervalSeconds: settings.superviseIntervalSeconds,
      max: 4,
      useListenNotify: settings.listenNotify,
    });
    // pg-boss reports connection trouble as events; without a listener Node would throw them.
    // While the database is down every worker loop reports the same error at each poll: say it once a minute.
    this.boss.on("error", (error: unknown) => this.report(describePgError(error)));
  }

  /** Last time each error text was printed, ms since epoch. */
  private readonly reported = new Map<string, number>();

  /** Prints `[jobs] <message>`, the same message (worker and queue names left out) at most once per {@link REPEAT_REPORT_MS}. */
  private report(message: string): void {
    const key = message.replace(/ \(Queue: [^)]*\)/g, "");
    const now = Date.now();
    const last = this.reported.get(key);
    if (last !== undefined && now - last < REPEAT_REPORT_MS) return;
    if (this.reported.size > 100) this.reported.clear();
    this.reported.set(key, now);
    console.error(`[jobs] ${message}${last === undefined ? "" : " (again; said at most once a minute)"}`);
  }

  /** Starts pg-boss (installing or migrating its schema on first use) and creates the two queues. Idempotent. */
  start(): Promise<void> {
    this.ready ??= (async () => {
      await this.boss.start();
      const { retryLimit, retryDelaySeconds, retryDelayMaxSeconds, heartbeatSeconds, expireInSeconds } = this.settings;
      if (!(await this.boss.getQueue(DEAD_LETTER_QUEUE))) await this.boss.createQueue(DEAD_LETTER_QUEUE, { retentionSeconds: 30 * 24 * 3600 }).catch(ignoreExists);
      const notify = this.settings.listenNotify;
      const options = { policy: "stately" as const, deadLetter: DEAD_LETTER_QUEUE, retryLimit, retryDelay: retryDelaySeconds, retryBackoff: true, retryDelayMax: retryDelayMaxSeconds, heartbeatSeconds, expireInSeconds, notify };
      const existing = await this.boss.getQueue(BRANCH_QUEUE);
      if (!existing) await this.boss.createQueue(BRANCH_QUEUE, options).catch(ignoreExists);
      // A queue made before LISTEN/NOTIFY was on (or by a process with it off) is switched on; only turning it on, so a process with it off never turns it off for the others.
      else if (notify && existing.notify !== true) await this.boss.updateQueue(BRANCH_QUEUE, { notify: true });
    })();
    return this.ready;
  }

  async enqueue(jobs: readonly BranchJob[]): Promise<number> {
    await this.start();
    let created = 0;
    for (const job of jobs) {
      const id = await this.boss.send(BRANCH_QUEUE, { runId: job.runId, branchId: job.branchId, priority: job.priority }, { singletonKey: jobKeyOf(job), priority: PRIORITY_VALUE[job.priority] });
      if (id !== null) created += 1;
    }
    return created;
  }

  async cancelQueued(branchIds: readonly BranchId[]): Promise<number> {
    if (branchIds.length === 0) return 0;
    await this.start();
    let cancelled = 0;
    for (const branchId of branchIds) {
      const queued = await this.boss.findJobs(BRANCH_QUEUE, { key: jobKeyOf({ branchId }), queued: true });
      if (queued.length === 0) continue;
      await this.boss.cancel(BRANCH_QUEUE, queued.map((job) => job.id));
      cancelled += queued.length;
    }
    return cancelled;
  }

  async queuedBranches(): Promise<BranchId[]> {
    await this.start();
    const queued = await this.boss.findJobs(BRANCH_QUEUE, { queued: true, limit: 100_000 });
    return queued.map((job) => toBranchJob(job.data)?.branchId).filter((id): id is BranchId => id !== undefined);
  }

  async branchesWithJobs(branchIds: readonly BranchId[]): Promise<Set<BranchId>> {
    await this.start();
    const found = new Set<BranchId>();
    // One small indexed lookup per branch (by its key); a few at a time.
    for (let start = 0; start < branchIds.length; start += 16) {
      const chunk = branchIds.slice(start, start + 16);
      const results = await Promise.all(
        chunk.map(async (branchId) => {
          const key = jobKeyOf({ branchId });
          const [jobs, letters] = await Promise.all([this.boss.findJobs(BRANCH_QUEUE, { key }), this.boss.findJobs(DEAD_LETTER_QUEUE, { key, queued: true })]);
          return jobs.some((job) => UNFINISHED_STATES.has(job.state)) || letters.length > 0;
        }),
      );
      results.forEach((has, index) => {
        const branchId = chunk[index];
        if (has && branchId !== undefined) found.add(branchId);
      });
    }
    return found;
  }

  async listDeadLetters(limit: number): Promise<DeadLetter[]> {
    await this.start();
    const letters: Array<JobWithMetadata<unknown>> = await this.boss.findJobs(DEAD_LETTER_QUEUE, { limit: 100_000 });
    // The last attempt's error is on the failed job the letter was copied from.
    const errors = new Map<string, string | null>();
    for (const letter of letters) {
      if (!letter.sourceId || errorMessageOf(letter.output) !== null) continue;
      const [source] = await this.boss.findJobs(BRANCH_QUEUE, { id: letter.sourceId });
      errors.set(letter.id, source ? errorMessageOf(source.output) : null);
    }
    return letters
      .map((letter): DeadLetter | null => {
        const job = toBranchJob(letter.data);
        if (!job) return null;
        return {
          id: letter.id,
          runId: job.runId,
          branchId: job.branchId,
          priority: job.priority,
          error: errorMessageOf(letter.output) ?? errors.get(letter.id) ?? null,
          attempts: (letter.sourceRetryCount ?? letter.retryCount) + 1,
          createdAt: (letter.sourceCreatedOn ?? letter.createdOn).toISOString(),
          failedAt: letter.createdOn.toISOString(),
        };
      })
      .filter((letter): letter is DeadLetter => letter !== null)
      .sort((a, b) => (a.failedAt ?? "") < (b.failedAt ?? "") ? 1 : -1)
      .slice(0, limit);
  }

  // Dead-letter actions (/jobs and `cli jobs`): see JobQueue.deadLetter / requeueDeadLetter / discardDeadLetter.
  async deadLetter(id: string): Promise<DeadLetter | null> {
    return (await this.listDeadLetters(100_000)).find((letter) => letter.id === id) ?? null;
  }

  async requeueDeadLetter(id: string): Promise<RequeueResult | null> {
    await this.start();
    const [letter] = await this.boss.findJobs(DEAD_LETTER_QUEUE, { id });
    const job = letter ? toBranchJob(letter.data) : null;
    if (!job) return null;
    const created = await this.enqueue([job]);
    await this.boss.deleteJob(DEAD_LETTER_QUEUE, id);
    return created > 0 ? "requeued" : "already-queued";
  }

  async discardDeadLetter(id: string): Promise<boolean> {
    await this.start();
    const [letter] = await this.boss.findJobs(DEAD_LETTER_QUEUE, { id });
    if (!letter) return false;
    await this.boss.deleteJob(DEAD_LETTER_QUEUE, id);
    return true;
  }

  async stats(): Promise<QueueStats> {
    await this.start();
    // Counted from the jobs (getQueue's counts are refreshed by pg-boss's monitor, seconds late).
    const [queued, branchJobs, dead] = await Promise.all([
      this.boss.findJobs(BRANCH_QUEUE, { queued: true, limit: 100_000 }),
      this.boss.findJobs<unknown>(BRANCH_QUEUE, { limit: 100_000 }),
      this.boss.findJobs(DEAD_LETTER_QUEUE, { limit: 100_000 }),
    ]);
    return { queued: queued.length, active: branchJobs.filter((job) => job.state === "active").length, failed: dead.length };
  }

  async work(handler: BranchJobHandler, options: WorkOptions): Promise<void> {
    await this.start();
    if (this.working) throw new Error("This queue already works jobs in this process.");
    this.working = true;
    await this.boss.work<unknown>(
      BRANCH_QUEUE,
      { localConcurrency: Math.max(1, options.concurrency), batchSize: 1, pollingIntervalSeconds: this.settings.pollingIntervalSeconds, notifyPollingIntervalSeconds: this.settings.notifyPollingIntervalSeconds },
      async (jobs: Array<Job<unknown>>) => {
        for (const job of jobs) {
          const branchJob = toBranchJob(job.data);
          // A job this version cannot read is failed at once, with the reason (it lands in the dead letters).
          if (!branchJob) throw new Error(`job ${job.id} has no runId/branchId: ${JSON.stringify(job.data).slice(0, 200)}`);
          await handler(branchJob, job.signal);
        }
      },
    );
  }

  async stop(options: { graceful?: boolean } = {}): Promise<void> {
    if (!this.ready) return;
    await this.ready.catch(() => undefined);
    await this.boss.stop({ graceful: options.graceful ?? true, close: true, timeout: 60_000 });
    this.ready = null;
    this.working = false;
  }
}

function ignoreExists(error: unknown): void {
  // Two processes starting at once may both try to create a queue; the second finds it made.
  if (!(error instanceof Error) || !/exist/i.test(error.message)) throw error;
}

/** The message of a failed job's `output` (pg-boss stores a thrown Error as `{ message, stack }`). */
function errorMessageOf(output: unknown): string | null {
  const parsed = z.object({ message: z.string() }).safeParse(output);
  return parsed.success ? parsed.data.message : null;
}
