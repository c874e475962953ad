import type { SandboxPool, TestStatus } from "@/lib/sandbox";
import type { CodeTask } from "./task";

/**
 * Runs each task's reference solution against its hidden tests in the sandbox:
 * a check of the dataset and of the sandbox itself (a correct harness passes
 * every canonical solution). Tasks without a reference solution are `skipped`.
 */

/** Options of {@link verifyReferenceSolutions}. */
export interface VerifyReferenceOptions {
  /** Per-test time limit in ms for every task (default: the task's own `timeoutMs`, else the pool's). */
  timeoutMs?: number;
  /** Requests in flight at once (default 64; the pool queues the rest). */
  concurrency?: number;
  /** Called after each task, e.g. for progress output. */
  onResult?: (result: ReferenceVerdict, done: number, total: number) => void;
}

/** Why a reference solution did not pass. */
export interface ReferenceFailure {
  test: string;
  status: Exclude<TestStatus, "pass">;
  message: string;
  /** Captured output (capped by the pool). */
  output: string;
}

/** The verdict for one task. */
export interface ReferenceVerdict {
  id: string;
  verdict: "pass" | "fail" | "skipped";
  failures: ReferenceFailure[];
  /** Wall-clock time of the sandbox request, in ms (0 when skipped). */
  durationMs: number;
}

/** Verifies every task's reference solution; results are in task order. */
export async function verifyReferenceSolutions(
  tasks: readonly CodeTask[],
  pool: Pick<SandboxPool, "runTests">,
  options: VerifyReferenceOptions = {},
): Promise<ReferenceVerdict[]> {
  const results: ReferenceVerdict[] = new Array(tasks.length);
  let next = 0;
  let done = 0;
  const report = (index: number, result: ReferenceVerdict) => {
    results[index] = result;
    done += 1;
    options.onResult?.(result, done, tasks.length);
  };
  const worker = async () => {
    while (next < tasks.length) {
      const index = next;
      next += 1;
      const task = tasks[index]!;
      if (task.referenceSolution === null) {
        report(index, { id: task.id, verdict: "skipped", failures: [], durationMs: 0 });
        continue;
      }
      const run = await pool.runTests({
        language: task.language,
        setup: task.setup ?? undefined,
        code: task.referenceSolution,
        entryPoint: task.entryPoint,
        tests: [{ name: "hidden", code: task.hiddenTests }],
        timeoutMs: options.timeoutMs ?? task.timeoutMs,
      });
      const failures = run.tests
        .filter((test) => test.status !== "pass")
        .map((test) => ({ test: test.name, status: test.status as ReferenceFailure["status"], message: test.message, output: test.output }));
      report(index, { id: task.id, verdict: run.verdict, failures, durationMs: run.durationMs });
    }
  };
  const lanes = Math.max(1, Math.min(options.concurrency ?? 64, tasks.length));
  await Promise.all(Array.from({ length: lanes }, worker));
  return results;
}

/** Counts of a verification run. */
export interface VerificationSummary {
  passed: number;
  failed: number;
  skipped: number;
  failedIds: string[];
}

/** Counts passes, failures and skips. */
export function summarizeVerification(results: readonly ReferenceVerdict[]): VerificationSummary {
  const failedIds = results.filter((r) => r.verdict === "fail").map((r) => r.id);
  return {
    passed: results.filter((r) => r.verdict === "pass").length,
    failed: failedIds.length,
    skipped: results.filter((r) => r.verdict === "skipped").length,
    failedIds,
  };
}

/**
 * The CLI report: one line per failing task (`FAIL <id>: <status> <message>`), then
 * `N passed, M failed` (plus `, K skipped` when some tasks had no reference).
 */
export function formatVerificationReport(results: readonly ReferenceVerdict[]): string {
  const summary = summarizeVerification(results);
  const lines = results
    .filter((r) => r.verdict === "fail")
    .map((r) => {
      const first = r.failures[0];
      const why = first ? `${first.status}: ${first.message.split("\n")[0]!.slice(0, 200)}` : "failed";
      return `FAIL ${r.id}: ${why}`;
    });
  lines.push(`${summary.passed} passed, ${summary.failed} failed${summary.skipped > 0 ? `, ${summary.skipped} skipped` : ""}`);
  return lines.join("\n");
}
