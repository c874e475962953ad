import { describe, expect, it } from "vitest";
import { detectLoop, foldActionText, type ActionReading, type LoopRules } from "@/lib/environments/qa/loop-rules";
import { qaActionReading } from "@/lib/environments/qa/loops";
import { loggedSteps } from "./paper-logs";

/** The rules applied to every step of the trial at once (what detectLoop did before it read only the last steps). */
function overAllSteps(steps: ReadonlyArray<{ actionText: string; observation: string }>, reading: ActionReading, rules: LoopRules): string | null {
  const keys = steps.map((step) => reading.key(step.actionText));
  const observations = steps.map((step) => (reading.observationKey?.(step.actionText, step.observation) ?? step.observation).toLowerCase().replace(/\s+/gu, " ").trim());
  const same = (i: number, j: number) => keys[i] === keys[j] && observations[i] === observations[j];
  const n = steps.length;
  const limit = Math.max(2, Math.floor(rules.repeatLimit));
  if (n >= limit) {
    let repeated = true;
    for (let i = n - limit + 1; i < n && repeated; i += 1) repeated = same(i, n - limit);
    if (repeated) return "repetition";
  }
  if (n >= limit && reading.stallKey !== undefined) {
    const kinds = steps.slice(n - limit).map((step) => reading.stallKey!(step.actionText));
    const sameObservation = observations.slice(n - limit).every((observation) => observation === observations[n - limit]);
    if (kinds[0] !== null && kinds.every((kind) => kind === kinds[0]) && sameObservation) return "stall";
  }
  for (const period of [...new Set(rules.cyclePeriods.map((p) => Math.floor(p)).filter((p) => p >= 2))].sort((a, b) => a - b)) {
    if (n < 2 * period) continue;
    let cycle = true;
    for (let i = n - period; i < n && cycle; i += 1) cycle = same(i, i - period);
    if (cycle && new Set(keys.slice(n - 2 * period, n - period)).size >= 2) return `cycle${period}`;
  }
  return null;
}

/** `repetition`, `stall`, `cycle<period>` or null, as {@link overAllSteps} labels them. */
const label = (halt: ReturnType<typeof detectLoop>): string | null =>
  halt === null ? null : halt.kind === "cycle" ? `cycle${/a cycle of (\d+) steps/.exec(halt.message)?.[1] ?? "?"}` : halt.kind;

describe("detectLoop reads only the last steps and finds what the rules over the whole trial find", () => {
  const logged = loggedSteps().filter((step) => step.observation !== null);
  it("after every step of the paper's HotpotQA logs (and of those logs with their steps repeated)", () => {
    const rules: LoopRules = { repeatLimit: 3, cyclePeriods: [2, 3] };
    let halts = 0;
    for (let start = 0; start + 12 < logged.length && start < 3000; start += 7) {
      const base = logged.slice(start, start + 12).map((step) => ({ actionText: step.action, observation: step.observation ?? "" }));
      // Repeating a window makes real repetitions and cycles of several periods.
      const trial = [...base, ...base.slice(-2), ...base.slice(-2), ...base.slice(-1), ...base.slice(-1), ...base.slice(-1)];
      for (let n = 1; n <= trial.length; n += 1) {
        const prefix = trial.slice(0, n);
        const expected = overAllSteps(prefix, qaActionReading, rules);
        expect(label(detectLoop(prefix, qaActionReading, rules))).toBe(expected);
        if (expected !== null) halts += 1;
      }
    }
    expect(halts).toBeGreaterThan(100);
  });

  it("with a longer repeat limit and periods than the defaults", () => {
    const reading: ActionReading = { key: foldActionText, display: (text) => text };
    const rules: LoopRules = { repeatLimit: 5, cyclePeriods: [4, 2] };
    const cycle = ["a", "b", "c", "d"].map((a) => ({ actionText: a, observation: `o-${a}` }));
    const trial = [...Array.from({ length: 30 }, (_, i) => ({ actionText: `x${i}`, observation: "o" })), ...cycle, ...cycle, ...Array.from({ length: 5 }, () => cycle[0]!)];
    for (let n = 1; n <= trial.length; n += 1) {
      const prefix = trial.slice(0, n);
      expect(label(detectLoop(prefix, reading, rules))).toBe(overAllSteps(prefix, reading, rules));
    }
  });
});
