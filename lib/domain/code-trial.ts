import { z } from "zod";

/**
 * What a code-task trial records, in the shapes the UI reads (the code family
 * writes them; lib/environments/code). The programming loop of the Reflexion
 * paper (§4.3 of shared/docs/reflexion-reference.md; decision 0010):
 *
 * - trial 1, step 1: the Actor writes internal tests (action `WriteTests`); the
 *   observation's `state` is a {@link CodeTestsWrittenState}: the assert lines
 *   kept (at most 5 that parse) and the ones dropped, with why;
 * - every trial, last step: the Actor writes the implementation (action
 *   `Implement`); the internal tests run in the sandbox and the observation's
 *   `state` is a {@link CodeInternalRunState} (one row per internal test);
 * - `evaluation-end` carries the internal verdict (what the agent can know) and
 *   `hiddenTests` (the dataset's tests, run once per trial for reporting only,
 *   never shown to the agent), with `falsePositive` set when the internal tests
 *   passed and the hidden tests did not.
 */

/** Action verbs of the code family. */
export const CODE_ACTIONS = { writeTests: "WriteTests", implement: "Implement" } as const;

/** pass / fail (assertion) / error (anything else raised, or did not load) / timeout. */
export const codeTestStatusSchema = z.enum(["pass", "fail", "error", "timeout"]);
export type CodeTestStatus = z.infer<typeof codeTestStatusSchema>;

/** One test's result as recorded. `durationMs` is wall time inside the sandbox, in ms. */
export const codeTestResultSchema = z.object({
  /** `internal 1`, `internal 2`, …, or `hidden`. */
  name: z.string(),
  /** The test's source (one assert line for internal tests). */
  code: z.string(),
  status: codeTestStatusSchema,
  /** Why it did not pass; empty on pass. */
  message: z.string(),
  /** Captured stdout/stderr, capped by the sandbox. */
  output: z.string(),
  /**
   * The value the call under test returned, as the reference's feedback shows it
   * (`# output: <value>`): `TIMEOUT`, the error message, or null when not computed
   * (passing tests, or asserts that are not a comparison of a call).
   */
  actual: z.string().nullable(),
  durationMs: z.number().nonnegative(),
});
export type CodeTestResult = z.infer<typeof codeTestResultSchema>;

/** A dropped internal-test line and why. */
export const droppedTestSchema = z.object({
  line: z.string(),
  reason: z.string(),
});

/** `step-observation.state` after `WriteTests`. */
export const codeTestsWrittenStateSchema = z.object({
  kind: z.literal("code-tests-written"),
  language: z.enum(["python", "javascript", "typescript"]),
  /** The internal tests used for the rest of the run, in order (at most 5). */
  kept: z.array(z.string()),
  dropped: z.array(droppedTestSchema),
});
export type CodeTestsWrittenState = z.infer<typeof codeTestsWrittenStateSchema>;

/** `step-observation.state` after `Implement`: the internal tests run against the implementation. */
export const codeInternalRunStateSchema = z.object({
  kind: z.literal("code-internal-run"),
  language: z.enum(["python", "javascript", "typescript"]),
  /** The program that was tested (the code extracted from the completion). */
  implementation: z.string(),
  /**
   * `pass` when every internal test passed. An empty suite is `fail` (untested):
   * logs written before that change may hold a vacuous `pass` (reference §4.3).
   */
  verdict: z.enum(["pass", "fail"]),
  tests: z.array(codeTestResultSchema),
});
export type CodeInternalRunState = z.infer<typeof codeInternalRunStateSchema>;

/** Either code observation state. */
export const codeStepStateSchema = z.discriminatedUnion("kind", [codeTestsWrittenStateSchema, codeInternalRunStateSchema]);
export type CodeStepState = z.infer<typeof codeStepStateSchema>;

/** `evaluation-end.hiddenTests`: the benchmark's tests, for reporting only. */
export const hiddenTestReportSchema = z.object({
  verdict: z.enum(["pass", "fail"]),
  passed: z.number().int().nonnegative(),
  total: z.number().int().nonnegative(),
  tests: z.array(codeTestResultSchema),
  /** Wall time of the sandbox request, in ms. */
  durationMs: z.number().nonnegative(),
});
export type HiddenTestReport = z.infer<typeof hiddenTestReportSchema>;

/**
 * How many times trial 1 asks the Actor for internal tests when a block holds
 * no runnable test (nothing parses, or it is empty), the first ask included.
 * The reference keeps whatever parses and goes on with an empty suite, which
 * then passes any implementation vacuously (§4.3, pitfall); we ask again instead,
 * and an implementation checked by no internal test is never counted as passing.
 */
export const MAX_INTERNAL_TEST_ASKS = 3;

/**
 * Whether the Actor's next step writes internal tests (`WriteTests`) rather than
 * an implementation: in trial 1 only, while no `WriteTests` step has kept a
 * runnable test and fewer than {@link MAX_INTERNAL_TEST_ASKS} were asked for.
 *
 * @param trial the trial of the next step (1-based).
 * @param steps that trial's recorded steps, each with its observation's `state`.
 */
export function writesInternalTestsNext(trial: number, steps: ReadonlyArray<{ state?: unknown }>): boolean {
  if (trial !== 1) return false;
  let asks = 0;
  for (const step of steps) {
    const state = readCodeStepState(step.state);
    if (state?.kind === "code-internal-run") return false;
    if (state?.kind === "code-tests-written") {
      if (state.kept.length > 0) return false;
      asks += 1;
    }
  }
  return asks < MAX_INTERNAL_TEST_ASKS;
}

/** Reads a code observation state, or null when `state` is something else. */
export function readCodeStepState(state: unknown): CodeStepState | null {
  const parsed = codeStepStateSchema.safeParse(state);
  return parsed.success ? parsed.data : null;
}
