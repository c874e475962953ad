/**
 * The adaptive limit of one limiter key (`provider:model|key-id`): AIMD (additive increase,
 * multiplicative decrease; Chiu & Jain 1989, as in TCP congestion control) on the request rate
 * and the calls in flight a key is allowed, learnt from what the provider answers.
 *
 * - **Open** until the first sign of overload: no learnt limit, calls go out as the configured
 *   ceilings (REFLEXION_RATE_LIMITS) allow — a provider that never answers 429 never slows a call.
 * - **429** (rate limited): the rate drops to β × the lower of the current limit and the rate the
 *   provider answered over the last {@link ANSWERED_WINDOW_MS} (what it lets through: its limit
 *   while calls press on it; in the first seconds, the answers divided by the time until the
 *   429's Retry-After ends) — β = {@link OPEN_BETA} the first time when that rate is a guess,
 *   otherwise {@link BETA} — and the key pauses for the 429's Retry-After. 429s of calls that started before
 *   the last decrease are the same overload seen late: they pause but do not decrease again.
 * - **Latency well above its baseline** ({@link LATENCY_FACTOR} × the moving average of time to
 *   the response's headers, and {@link LATENCY_MIN_EXCESS_MS} more) or a **time limit**: the calls in flight drop to β × those in flight
 *   (the provider is queueing, not refusing), with the same once-per-overload rule.
 * - **Success** at a stable latency: the rate grows by {@link INCREASE_PER_S} of the rate learnt at
 *   the last decrease per second (so it climbs back to the provider's limit in a fixed time whatever
 *   the limit's size) while the limit is what holds calls back (measured rate ≥ 80 % of it), and the
 *   calls in flight by 1 per limit's worth of successes while the limit is reached.
 * - Never above the configured ceilings; never below {@link MIN_RATE_PER_S} or 1 call in flight.
 * - **Forgotten** after {@link FORGET_AFTER_MS} without a decrease (counted from the end of the last
 *   Retry-After pause): open again.
 *
 * Plain logic with the clock passed in (every time is epoch ms from the caller): no timers, no I/O,
 * so a scripted sequence of outcomes gives the same limits every time (tests/llm/adaptive-controller.test.ts).
 */

/** Multiplicative decrease after an overload once a limit was learnt. */
export const BETA = 0.93;
/** Multiplicative decrease the first time (open → learnt): the measured rate was unchecked, so halve it. */
export const OPEN_BETA = 0.7;
/** Additive increase per second, as a share of the rate learnt at the last decrease. */
export const INCREASE_PER_S = 0.006;
/** A response's latency this many times its baseline counts as overload. */
export const LATENCY_FACTOR = 3;
/** …and at least this much above it, in ms (a fast local model's 1 ms → 5 ms is not overload). */
export const LATENCY_MIN_EXCESS_MS = 2_000;
/** Latency samples before the baseline is trusted. */
export const BASELINE_SAMPLES = 10;
/** Weight of a new latency sample in the baseline's moving average. */
export const BASELINE_WEIGHT = 0.05;
/** The window over which the request rate is measured, in ms. */
export const RATE_WINDOW_MS = 5_000;
/** The window over which the answered rate (what the provider let through) is measured, in ms. */
export const ANSWERED_WINDOW_MS = 30_000;
/** The shortest span the answered rate is measured over, in ms (a first burst is not the provider's rate). */
export const ANSWERED_MIN_SPAN_MS = 5_000;
/**
 * A learnt limit is forgotten after this long without a decrease (after the last pause), in ms: open again, so one 429 in a
 * quiet hour (a quota blip) does not hold a key at its light rate of then. A provider whose limit is
 * really reached answers 429 again within a cycle of the additive increase (~20–30 s) and keeps it.
 */
export const FORGET_AFTER_MS = 60_000;
/** How far a paced start may catch up on a late wake-up, in ms (a busy event loop must not lower the rate). */
export const CATCH_UP_MS = 250;
/** The lowest learnt rate, requests per second. */
export const MIN_RATE_PER_S = 0.05;

/** What a call's response told the controller. */
export type CallOutcome =
  /** Answered; `latencyMs` from sending the request to the response's headers (not the whole stream). */
  | { kind: "ok"; latencyMs: number }
  /** HTTP 429; `retryAfterMs` the wait it asked for. */
  | { kind: "rate-limited"; retryAfterMs: number }
  /** A time limit (first token or idle) ran out. */
  | { kind: "timeout" }
  /** Any other failure: says nothing about load. */
  | { kind: "error" };

/** The configured limits that become ceilings (null: none). */
export interface AdaptiveCeilings {
  /** Requests per second (REFLEXION_RATE_LIMITS' requestsPerMinute / 60). */
  ratePerS: number | null;
  /** Calls in flight. */
  concurrency: number | null;
}

/** A snapshot of one key's adaptive limit (what `/jobs` and the progress line show). */
export interface AdaptiveSnapshot {
  /** Requests per second allowed now; null while open (nothing learnt). */
  ratePerS: number | null;
  /** Calls in flight allowed now (whole calls); null while open. */
  concurrency: number | null;
  /** Requests started per second over the last {@link RATE_WINDOW_MS}. */
  measuredRatePerS: number;
  /** Calls in flight now. */
  inFlight: number;
  /** Moving average of latency to the response's headers, ms; null before any success. */
  baselineLatencyMs: number | null;
  /** Requests answered 429 so far, and requests started so far. */
  rateLimited: number;
  started: number;
  /** Decreases so far (429s, latency, time limits). */
  decreases: number;
  /** Paused by a 429's Retry-After until this time (epoch ms), or null. */
  pausedUntil: number | null;
}

/** The adaptive limit of one key; every method takes the current time (epoch ms). */
export class AdaptiveController {
  private rate: number | null = null;
  private concurrency: number | null = null;
  /** The rate when it last decreased: the size of an additive step. */
  private learntRate: number | null = null;
  private lastDecreaseAt = Number.NEGATIVE_INFINITY;
  private pausedUntil = 0;
  /** The earliest start the pacing allows next (epoch ms). */
  private nextStartAt = Number.NEGATIVE_INFINITY;
  private baseline: number | null = null;
  private samples = 0;
  private inFlight = 0;
  private starts: number[] = [];
  /** When answered calls ended (epoch ms), over {@link ANSWERED_WINDOW_MS}. */
  private answered: number[] = [];
  private rateLimited = 0;
  private started = 0;
  private decreases = 0;

  constructor(private readonly ceilings: AdaptiveCeilings = { ratePerS: null, concurrency: null }) {}

  /**
   * How long a call must wait before it may start, in ms (0: now): a 429's pause, the calls in
   * flight at the limit (then {@link FULL}: wait for one to end), or the pacing of the learnt rate
   * (one start every 1 / rate s; a start that woke late may catch up by {@link CATCH_UP_MS}).
   */
  waitMs(now: number): number {
    this.forgetIfQuiet(now);
    if (this.pausedUntil > now) return this.pausedUntil - now;
    const concurrency = this.effectiveConcurrency();
    if (concurrency !== null && this.inFlight >= concurrency) return FULL;
    return this.effectiveRate() === null ? 0 : Math.max(0, this.nextStartAt - now);
  }

  /** Records that a call started now (after {@link waitMs} said 0). */
  start(now: number): void {
    this.forgetIfQuiet(now);
    const rate = this.effectiveRate();
    // Late by at most CATCH_UP_MS: the next is due 1 / rate after the one this was late for; after a longer gap, after this one.
    this.nextStartAt = rate === null ? now : (this.nextStartAt >= now - CATCH_UP_MS ? this.nextStartAt : now) + 1000 / rate;
    this.inFlight += 1;
    this.started += 1;
    this.starts.push(now);
    this.trim(now);
  }

  /**
   * Records a call's outcome; `startedAt` is when that call started (epoch ms, from {@link start}).
   */
  finish(outcome: CallOutcome, startedAt: number, now: number): void {
    this.inFlight = Math.max(0, this.inFlight - 1);
    this.trim(now);
    this.forgetIfQuiet(now);
    const fresh = startedAt >= this.lastDecreaseAt;
    switch (outcome.kind) {
      case "ok":
        this.succeeded(outcome.latencyMs, fresh, now);
        break;
      case "rate-limited":
        this.rateLimited += 1;
        this.pausedUntil = Math.max(this.pausedUntil, now + Math.max(0, outcome.retryAfterMs));
        if (fresh) {
          const answered = this.answeredRate(now, Math.max(0, outcome.retryAfterMs));
          const seen = answered.perS > 0 ? answered.perS : this.measuredRate(now);
          const base = this.rate === null ? seen : Math.min(this.rate, seen);
          // An estimate that counts the provider's own pause is its rate, not a burst: cut it gently.
          const beta = this.rate === null && !answered.withRetryAfter ? OPEN_BETA : BETA;
          this.rate = this.capRate(Math.max(MIN_RATE_PER_S, base * beta));
          this.decreased(now);
        }
        break;
      case "timeout":
        if (fresh) this.overloaded(now);
        break;
      case "error":
        break;
    }
  }

  /** The current limits and what was measured. */
  snapshot(now: number): AdaptiveSnapshot {
    this.trim(now);
    this.forgetIfQuiet(now);
    const rate = this.effectiveRate();
    const concurrency = this.effectiveConcurrency();
    return {
      ratePerS: rate,
      concurrency,
      measuredRatePerS: this.measuredRate(now),
      inFlight: this.inFlight,
      baselineLatencyMs: this.baseline === null ? null : Math.round(this.baseline),
      rateLimited: this.rateLimited,
      started: this.started,
      decreases: this.decreases,
      pausedUntil: this.pausedUntil > now ? this.pausedUntil : null,
    };
  }

  private succeeded(latencyMs: number, fresh: boolean, now: number): void {
    this.answered.push(now);
    const trusted = this.baseline !== null && this.samples >= BASELINE_SAMPLES;
    if (trusted && this.baseline !== null && latencyMs > LATENCY_FACTOR * this.baseline && latencyMs - this.baseline >= LATENCY_MIN_EXCESS_MS) {
      // Slowly let a lasting change of latency become the new baseline.
      this.baseline += BASELINE_WEIGHT * (latencyMs - this.baseline);
      if (fresh) this.overloaded(now);
      return;
    }
    this.baseline = this.baseline === null ? latencyMs : this.baseline + BASELINE_WEIGHT * (latencyMs - this.baseline);
    this.samples += 1;
    if (this.rate !== null) {
      const rate = this.rate;
      // Grow only while the learnt rate is what holds calls back.
      if (this.measuredRate(now) >= 0.8 * rate) this.rate = this.capRate(rate + (INCREASE_PER_S * (this.learntRate ?? rate)) / Math.max(rate, MIN_RATE_PER_S));
    }
    if (this.concurrency !== null && this.inFlight + 1 >= Math.floor(this.concurrency)) this.concurrency = this.capConcurrency(this.concurrency + 1 / this.concurrency);
  }

  /** Latency or a time limit: fewer calls in flight. */
  private overloaded(now: number): void {
    const base = this.concurrency === null ? this.inFlight + 1 : Math.min(this.concurrency, this.inFlight + 1);
    this.concurrency = this.capConcurrency(Math.max(1, Math.floor(base * BETA)));
    this.decreased(now);
  }

  /** Open again after {@link FORGET_AFTER_MS} without a decrease, counted from the end of the last pause (a long Retry-After is not quiet). */
  private forgetIfQuiet(now: number): void {
    if (now - Math.max(this.lastDecreaseAt, this.pausedUntil) < FORGET_AFTER_MS) return;
    this.rate = null;
    this.concurrency = null;
    this.learntRate = null;
  }

  private decreased(now: number): void {
    this.decreases += 1;
    this.lastDecreaseAt = now;
    this.learntRate = this.rate;
  }

  private effectiveRate(): number | null {
    return this.rate ?? this.ceilings.ratePerS;
  }

  private effectiveConcurrency(): number | null {
    const learnt = this.concurrency === null ? null : Math.floor(this.concurrency);
    return learnt ?? this.ceilings.concurrency;
  }

  private capRate(rate: number): number {
    return this.ceilings.ratePerS === null ? rate : Math.min(rate, this.ceilings.ratePerS);
  }

  private capConcurrency(concurrency: number): number {
    return this.ceilings.concurrency === null ? concurrency : Math.min(concurrency, this.ceilings.concurrency);
  }

  /** Requests started per second over the last {@link RATE_WINDOW_MS} (over the time since the first, when shorter). */
  private measuredRate(now: number): number {
    const first = this.starts[0];
    if (first === undefined) return 0;
    const span = Math.max(1_000, Math.min(RATE_WINDOW_MS, now - first));
    return (this.starts.length * 1000) / span;
  }

  /**
   * Calls answered per second over the last {@link ANSWERED_WINDOW_MS}, over the time since the first.
   * Less than {@link ANSWERED_MIN_SPAN_MS} of answers is a burst, not a rate: with a Retry-After
   * (`retryAfterMs` > 0) the span also counts the pause the provider asks for — a window limit's
   * burst divided by the time until the window lets calls through again is its rate (`withRetryAfter`);
   * without one, the span is {@link ANSWERED_MIN_SPAN_MS} (a cautious guess).
   */
  private answeredRate(now: number, retryAfterMs: number): { perS: number; withRetryAfter: boolean } {
    const first = this.answered[0];
    if (first === undefined) return { perS: 0, withRetryAfter: false };
    const observed = Math.min(ANSWERED_WINDOW_MS, now - first);
    if (observed >= ANSWERED_MIN_SPAN_MS) return { perS: (this.answered.length * 1000) / observed, withRetryAfter: false };
    if (retryAfterMs > 0) return { perS: (this.answered.length * 1000) / Math.max(1_000, observed + retryAfterMs), withRetryAfter: true };
    return { perS: (this.answered.length * 1000) / ANSWERED_MIN_SPAN_MS, withRetryAfter: false };
  }

  private trim(now: number): void {
    dropBefore(this.starts, now - RATE_WINDOW_MS);
    dropBefore(this.answered, now - ANSWERED_WINDOW_MS);
  }
}

/** Removes the leading times of `times` (ascending) at or before `cutoff`. */
function dropBefore(times: number[], cutoff: number): void {
  let drop = 0;
  while (drop < times.length && (times[drop] ?? 0) <= cutoff) drop += 1;
  if (drop > 0) times.splice(0, drop);
}

/** {@link AdaptiveController.waitMs} when the calls in flight are at the limit: wait until one ends. */
export const FULL = Number.POSITIVE_INFINITY;
