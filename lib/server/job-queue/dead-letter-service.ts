import { z } from "zod";
import type { RunStore } from "@/lib/db/store";
import type { DeadLetterListResponse, DeadLetterRow, RetryAllResponse, RetryResult } from "@/lib/domain/dead-letter-actions";
import { AppError } from "@/lib/domain/errors";
import type { BranchSummaryState } from "@/lib/domain/branch-summary";
import { asBranchId, type BranchId } from "@/lib/domain/ids";
import { leaseStateOf } from "../lease-owner";
import type { DeadLetter, JobQueue } from "./port";

/** What the embedded mode answers to a dead-letter action: there is no queue, and what to set for one. */
export const NO_JOB_QUEUE_MESSAGE =
  "There is no job queue in the embedded mode: this process drives runs from its SQLite file itself, so no job can fail into a dead letter. " +
  "Set REFLEXION_DATABASE_URL=postgres://… (docs/shared-mode.md) for shared mode, where runs are jobs for workers on any machine.";

/** Letters read at most by one list or retry-all (pg-boss keeps letters 30 days). */
const MAX_LETTERS = 10_000;

/** Shortest id prefix the CLI accepts for a letter (the list prints 8 characters). */
export const MIN_ID_PREFIX = 8;

/**
 * The dead-letter actions of shared mode (`/jobs`, `POST /api/jobs/dead-letters/…`,
 * `cli jobs …`) over the {@link JobQueue} port and the run store:
 * - **list**: each letter with what its branch is doing now (its log's status, whether a job for
 *   it is queued or running again) and, when a retry would be refused, why;
 * - **retry**: only a branch whose log still says running is enqueued again (same key
 *   `branch:<id>`, same priority; the branch resumes from its log, nothing recorded is lost, and
 *   the lease and the unique `(branch_id, seq)` fence it as always) and its letter removed. A
 *   branch that ended, stopped on an error, is paused or is not in this database is refused with a
 *   sentence saying what to do, nothing is enqueued, and the letter stays until discarded;
 * - **discard**: removes the letter; the run's log is not touched.
 * In the embedded mode (no queue) every action throws a `conflict` {@link AppError} with
 * {@link NO_JOB_QUEUE_MESSAGE}; the list answers `mode: "in-process"` with no letters.
 */
export class DeadLetterService {
  constructor(
    private readonly store: RunStore,
    private readonly jobs: JobQueue,
  ) {}

  /** The queue's counts and its newest `limit` letters with their branches' state. */
  async list(limit: number): Promise<DeadLetterListResponse> {
    const [letters, stats] = await Promise.all([this.jobs.listDeadLetters(limit), this.jobs.stats()]);
    const queued = new Set<string>(letters.length > 0 ? await this.jobs.queuedBranches() : []);
    const deadLetters = await Promise.all(letters.map((letter) => this.row(letter, queued)));
    return { mode: this.jobs.kind, stats, deadLetters };
  }

  /**
   * The letter whose id is `idOrPrefix`, or the one letter whose id starts with it (at least
   * {@link MIN_ID_PREFIX} characters, as the CLI lists them).
   * @throws AppError `not-found` naming the id (and `invalid-input` for an ambiguous prefix); `conflict` in the embedded mode.
   */
  async find(idOrPrefix: string): Promise<DeadLetter> {
    this.requireQueue();
    const wanted = idOrPrefix.trim().toLowerCase();
    if (z.uuid().safeParse(wanted).success) {
      const letter = await this.jobs.deadLetter(wanted);
      if (letter) return letter;
    } else if (wanted.length >= MIN_ID_PREFIX && /^[0-9a-f-]+$/.test(wanted)) {
      const matches = (await this.jobs.listDeadLetters(MAX_LETTERS)).filter((letter) => letter.id.startsWith(wanted));
      if (matches.length === 1 && matches[0]) return matches[0];
      if (matches.length > 1) throw new AppError("invalid-input", `${matches.length} dead letters start with "${idOrPrefix}": give more of the id (\`npm run cli -- jobs dead-letters\` lists them).`);
    }
    throw new AppError("not-found", `No dead letter "${idOrPrefix}": it was retried or discarded already, or the id is wrong (\`npm run cli -- jobs dead-letters\` or /jobs lists them).`);
  }

  /** Retries one letter (see the class comment); refusals are results, not errors. */
  async retry(idOrPrefix: string): Promise<RetryResult> {
    return this.retryLetter(await this.find(idOrPrefix));
  }

  /** Retries every letter, oldest first (so of two letters of one branch the newer is the one removed second). */
  async retryAll(): Promise<RetryAllResponse> {
    this.requireQueue();
    const letters = (await this.jobs.listDeadLetters(MAX_LETTERS)).reverse();
    const results: RetryResult[] = [];
    for (const letter of letters) results.push(await this.retryLetter(letter));
    const requeued = results.filter((result) => result.outcome === "requeued" || result.outcome === "already-queued").length;
    return { results, requeued, refused: results.length - requeued };
  }

  /**
   * Removes one letter.
   * @returns the removed letter's id.
   * @throws AppError `not-found` when it is gone already; `conflict` in the embedded mode.
   */
  async discard(idOrPrefix: string): Promise<string> {
    const letter = await this.find(idOrPrefix);
    if (!(await this.jobs.discardDeadLetter(letter.id))) throw new AppError("not-found", `Dead letter ${letter.id} was removed meanwhile (retried or discarded by someone else).`);
    return letter.id;
  }

  private async retryLetter(letter: DeadLetter): Promise<RetryResult> {
    const base = { letterId: letter.id, runId: letter.runId, branchId: letter.branchId };
    const summary = await this.store.getBranchSummary(asBranchId(letter.branchId));
    const refusal = refusalOf(letter, summary, true);
    if (refusal) return { ...base, ...refusal };
    const done = await this.jobs.requeueDeadLetter(letter.id);
    if (done === null) throw new AppError("not-found", `Dead letter ${letter.id} was removed meanwhile (retried or discarded by someone else).`);
    const message =
      done === "requeued"
        ? `Run ${letter.runId}: its branch job is queued again (key branch:${letter.branchId}); a worker resumes it from its log. The letter is removed.`
        : `Run ${letter.runId}: a job for its branch was already queued or running (someone retried it from another process); nothing new was queued. The letter is removed.`;
    return { ...base, outcome: done, message };
  }

  private async row(letter: DeadLetter, queued: ReadonlySet<string>): Promise<DeadLetterRow> {
    const branchId: BranchId = asBranchId(letter.branchId);
    const [summary, lease] = await Promise.all([this.store.getBranchSummary(branchId), this.store.getLease(branchId)]);
    const refusal = refusalOf(letter, summary, false);
    return {
      ...letter,
      branch: {
        status: summary?.status ?? "missing",
        outcome: summary?.outcome ?? null,
        queuedAgain: summary !== null && (queued.has(letter.branchId) || leaseStateOf(lease) === "live"),
      },
      retryRefusal: refusal?.message ?? null,
    };
  }

  private requireQueue(): void {
    if (this.jobs.kind === "in-process") throw new AppError("conflict", NO_JOB_QUEUE_MESSAGE);
  }
}

/**
 * Why the letter's branch must not be enqueued again, or null when its log still says running.
 * `named`: the sentence names the run and branch (a retry's result, the CLI); else it says "This
 * run" (a row of the list, which shows the run beside it).
 */
function refusalOf(letter: DeadLetter, summary: BranchSummaryState | null, named: boolean): Pick<RetryResult, "outcome" | "message"> | null {
  const run = named ? `Run ${letter.runId}` : "This run";
  if (!summary) {
    const branch = named ? `its branch ${letter.branchId}` : "its branch";
    return { outcome: "missing", message: `${run}: ${branch} is not in this database (deleted, or the job came from another database on the same queue) — nothing to retry. Discard the letter.` };
  }
  switch (summary.status) {
    case "running":
      return null;
    case "ended":
      return { outcome: "finished", message: `${run} already ended (${summary.outcome ?? "no outcome"}) — nothing to retry; its log holds the whole run. Discard the letter.` };
    case "error":
      return { outcome: "finished", message: `${run} stopped with an error recorded in its log (${summary.error?.message ?? "see the run"}) — a job would not drive it. Open the run to see why; discard the letter.` };
    case "paused":
      return { outcome: "paused", message: `${run} is paused${summary.pause ? ` (${summary.pause.reason})` : ""} — a job would not drive it. Resume the run (its page, or \`npm run cli -- resume --run ${letter.runId}\`), then discard the letter.` };
  }
}
