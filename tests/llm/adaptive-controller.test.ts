import { describe, expect, it } from "vitest";
import { AdaptiveController, BETA, FORGET_AFTER_MS, FULL, INCREASE_PER_S, OPEN_BETA } from "@/lib/llm/rate-limits/adaptive-controller";

/**
 * The adaptive limit's state machine against scripted sequences of successes, 429s with
 * Retry-After, latencies and time limits; every time is given (epoch ms from 0), so the expected
 * limits are exact.
 */

/** Starts a call at `at` (it must be allowed then) and returns its start time. */
function startAt(controller: AdaptiveController, at: number): number {
  expect(controller.waitMs(at)).toBe(0);
  controller.start(at);
  return at;
}

/** Ten calls started 100 ms apart from 0, each answered 100 ms later at a stable latency. */
function tenAnswered(controller: AdaptiveController): void {
  for (let i = 0; i < 10; i += 1) {
    const at = startAt(controller, i * 100);
    controller.finish({ kind: "ok", latencyMs: 100 }, at, at + 100);
  }
}

describe("adaptive limit (AIMD)", () => {
  it("stays open while the provider answers: no learnt rate, no wait", () => {
    const controller = new AdaptiveController();
    tenAnswered(controller);
    expect(controller.waitMs(1_000)).toBe(0);
    expect(controller.snapshot(1_000)).toMatchObject({ ratePerS: null, concurrency: null, started: 10, rateLimited: 0, decreases: 0, baselineLatencyMs: 100 });
  });

  it("a window limit's burst: the rate is the answers until its Retry-After ends, not a fraction of a 5 s guess", () => {
    // A provider allowing 5 calls in any 1 s: 8 callers, 5 answered by t = 150, the rest refused until t = 1,000.
    const controller = new AdaptiveController();
    for (let i = 0; i < 8; i += 1) controller.start(0);
    for (let i = 0; i < 5; i += 1) controller.finish({ kind: "ok", latencyMs: 150 }, 0, 150);
    controller.finish({ kind: "rate-limited", retryAfterMs: 850 }, 0, 150);
    // 5 answers over 0 ms + 850 ms of pause → at least 1 s: 5 req/s, × β.
    expect(controller.snapshot(150).ratePerS).toBeCloseTo(5 * BETA, 10);
    // Without a Retry-After the same burst is only a guess over 5 s: 1 req/s, × the open β.
    const guessing = new AdaptiveController();
    for (let i = 0; i < 8; i += 1) guessing.start(0);
    for (let i = 0; i < 5; i += 1) guessing.finish({ kind: "ok", latencyMs: 150 }, 0, 150);
    guessing.finish({ kind: "rate-limited", retryAfterMs: 0 }, 0, 150);
    expect(guessing.snapshot(150).ratePerS).toBeCloseTo(1 * OPEN_BETA, 10);
  });

  it("a 429 learns β × the answered rate, pauses for Retry-After, then paces; a late 429 of an older call does not decrease again", () => {
    const controller = new AdaptiveController();
    tenAnswered(controller);
    const early = startAt(controller, 950);
    const limited = startAt(controller, 1_000);
    // 10 answered since t = 100, under 5 s of answers: a burst, so the span runs to the end of the
    // provider's pause (950 ms + the 500 ms Retry-After): 10 / 1.45 s, cut by β (the estimate is the provider's).
    controller.finish({ kind: "rate-limited", retryAfterMs: 500 }, limited, 1_050);
    const learnt = (10 / 1.45) * BETA;
    expect(controller.snapshot(1_050)).toMatchObject({ rateLimited: 1, decreases: 1, pausedUntil: 1_550 });
    expect(controller.snapshot(1_050).ratePerS).toBeCloseTo(learnt, 10);
    expect(controller.waitMs(1_100)).toBe(450);
    // The call started before the decrease answers 429 too: it extends the pause, the rate stays.
    controller.finish({ kind: "rate-limited", retryAfterMs: 520 }, early, 1_060);
    expect(controller.snapshot(1_060)).toMatchObject({ rateLimited: 2, decreases: 1, pausedUntil: 1_580 });
    expect(controller.snapshot(1_060).ratePerS).toBeCloseTo(learnt, 10);
    // After the pause: one start per 1 / rate s.
    startAt(controller, 1_580);
    expect(controller.waitMs(1_600)).toBeCloseTo(1_580 + 1_000 / learnt - 1_600, 6);
    startAt(controller, 1_580 + 1_000 / learnt);
    // A start that woke late catches up by at most CATCH_UP_MS: the next is due 1 / rate s after the one it was late for.
    const due = 1_580 + 2_000 / learnt;
    expect(controller.waitMs(due + 100)).toBe(0);
    controller.start(due + 100);
    expect(controller.waitMs(due + 100)).toBeCloseTo(due + 1_000 / learnt - (due + 100), 6);
  });

  it("grows additively while the learnt rate holds calls back, and decreases by β on the next 429", () => {
    const controller = new AdaptiveController();
    tenAnswered(controller);
    controller.finish({ kind: "rate-limited", retryAfterMs: 0 }, startAt(controller, 1_000), 1_000);
    let rate = 2 * OPEN_BETA;
    const learnt = rate;
    // Calls as fast as the pacing allows, each answered 100 ms later: the measured rate is the learnt one.
    let at = 1_000;
    for (let i = 0; i < 20; i += 1) {
      at += controller.waitMs(at);
      const started = startAt(controller, at);
      controller.finish({ kind: "ok", latencyMs: 100 }, started, started + 100);
      // Grown only once the measured rate (starts over 5 s) reaches 80 % of the limit.
      const measured = controller.snapshot(started + 100).measuredRatePerS;
      if (measured >= 0.8 * rate) rate += (INCREASE_PER_S * learnt) / rate;
      expect(controller.snapshot(started + 100).ratePerS).toBeCloseTo(rate, 10);
    }
    expect(rate).toBeGreaterThan(learnt);
    // The next 429 (a call started after the decrease): β × the lower of the limit and the answered rate.
    const last = startAt(controller, at + controller.waitMs(at));
    const before = controller.snapshot(last).ratePerS ?? 0;
    controller.finish({ kind: "rate-limited", retryAfterMs: 1_000 }, last, last + 10);
    const pauseEnd = last + 10 + 1_000;
    const after = controller.snapshot(last + 10).ratePerS ?? 0;
    expect(after).toBeLessThanOrEqual(before * BETA + 1e-9);
    expect(controller.snapshot(last + 10)).toMatchObject({ decreases: 2, rateLimited: 2 });
    // A quiet minute after the pause, without a decrease: the learnt limit is forgotten, the key is open again.
    expect(controller.snapshot(pauseEnd + FORGET_AFTER_MS - 1).ratePerS).toBeCloseTo(after, 10);
    expect(controller.snapshot(pauseEnd + FORGET_AFTER_MS)).toMatchObject({ ratePerS: null, concurrency: null, decreases: 2 });
    expect(controller.waitMs(pauseEnd + FORGET_AFTER_MS)).toBe(0);
  });

  it("configured limits are ceilings: paced at the ceiling while open, never learnt above it", () => {
    const controller = new AdaptiveController({ ratePerS: 4, concurrency: 2 });
    startAt(controller, 0);
    expect(controller.waitMs(100)).toBe(150);
    startAt(controller, 250);
    // Two in flight: the configured ceiling; the third waits for one to end.
    expect(controller.waitMs(1_000)).toBe(FULL);
    controller.finish({ kind: "ok", latencyMs: 100 }, 0, 300);
    expect(controller.waitMs(1_000)).toBe(0);
    // Answered 1 call in 5 s is 0.2 req/s; the ceiling 4 is higher, so 0.2 × OPEN_BETA is learnt.
    controller.finish({ kind: "rate-limited", retryAfterMs: 0 }, 250, 1_000);
    expect(controller.snapshot(1_000).ratePerS).toBeCloseTo(0.2 * OPEN_BETA, 10);
    for (let i = 0; i < 200; i += 1) {
      const at = 2_000 + i * 100;
      controller.start(at);
      controller.finish({ kind: "ok", latencyMs: 100 }, at, at + 50);
    }
    expect(controller.snapshot(30_000).ratePerS).toBeLessThanOrEqual(4);
  });

  it("latency well above its baseline, or a time limit, cuts the calls in flight by β; successes at the limit add them back", () => {
    const controller = new AdaptiveController();
    tenAnswered(controller);
    const started = [1_000, 1_010, 1_020, 1_030, 1_040, 1_050].map((at) => startAt(controller, at));
    // 2.6 s against a 100 ms baseline (over 3× and 2 s more): 6 were in flight → floor(6 × β).
    controller.finish({ kind: "ok", latencyMs: 2_600 }, started[0] ?? 0, 3_600);
    const cut = Math.floor(6 * BETA);
    expect(controller.snapshot(3_600)).toMatchObject({ concurrency: cut, inFlight: 5, decreases: 1, ratePerS: null });
    expect(controller.waitMs(3_600)).toBe(FULL);
    // A slow answer of a call started before that decrease does not cut again.
    controller.finish({ kind: "ok", latencyMs: 2_600 }, started[1] ?? 0, 3_610);
    expect(controller.snapshot(3_610)).toMatchObject({ concurrency: cut, decreases: 1 });
    // Answers at the baseline while the limit is reached: +1 / limit each.
    controller.finish({ kind: "ok", latencyMs: 100 }, started[2] ?? 0, 3_700);
    expect(controller.snapshot(3_700).concurrency).toBe(cut);
    // A time limit on a call started after the decrease: β × those in flight (4 with it) again.
    const late = startAt(controller, 3_800);
    controller.finish({ kind: "timeout" }, late, 4_000);
    expect(controller.snapshot(4_000)).toMatchObject({ decreases: 2, concurrency: Math.floor(4 * BETA), inFlight: 3 });
    expect(controller.waitMs(4_000)).toBe(FULL);
    // While the limit is reached, each answer at the baseline adds 1 / limit: four make the 3 a 4.
    controller.finish({ kind: "ok", latencyMs: 100 }, started[3] ?? 0, 4_100);
    for (let i = 0; i < 4; i += 1) {
      const at = startAt(controller, 4_200 + i * 100);
      controller.finish({ kind: "ok", latencyMs: 100 }, at, at + 50);
    }
    expect(controller.snapshot(4_600).concurrency).toBe(4);
    // Any other error says nothing about load.
    const other = startAt(controller, 4_700);
    const before = controller.snapshot(4_700);
    controller.finish({ kind: "error" }, other, 4_800);
    expect(controller.snapshot(4_800)).toMatchObject({ concurrency: before.concurrency, decreases: 2, ratePerS: null });
  });
});
