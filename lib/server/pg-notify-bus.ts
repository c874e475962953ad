import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { z } from "zod";
import { asBranchId, asRunId } from "@/lib/domain/ids";
import { liveCallMessageSchema, splitSendable, type LiveCallMessage } from "@/lib/domain/live-call";
import { EVENTS_CHANNEL, LIVE_CHANNEL, WATCH_CHANNEL, type PgConnection } from "@/lib/db/pg/database";
import { describePgError } from "@/lib/db/pg/describe-pg-error";
import type { PgRunStore } from "@/lib/db/pg/pg-store";
import type { RunEventBus } from "./run-event-bus";

/** Reconnect backoff of the LISTEN connection, in ms: doubles from the first to the last. */
export const RECONNECT_MS = { first: 250, max: 10_000 };
/**
 * Longest token-delta text in one notification, in UTF-16 code units. PostgreSQL caps a NOTIFY
 * payload at 8000 bytes; 1000 units are ≤ 6000 bytes as JSON even when every one is escaped.
 */
export const LIVE_TEXT_CHUNK = 1000;

/** How often a process checks which runs its viewers watch, and re-announces them (ms); how long an announcement lasts (ms). */
export const WATCH_MS = { check: 250, heartbeat: 5_000, ttl: 15_000 };
/** Run ids per watch notification (36-character UUIDs: well under the 8000-byte payload limit). */
const WATCH_BATCH = 100;

const watchNoticeSchema = z.object({ origin: z.string(), runIds: z.array(z.string()) });
const eventNoticeSchema = z.object({ runId: z.string(), branchId: z.string(), firstSeq: z.number().int(), seq: z.number().int(), origin: z.string() });
const liveNoticeSchema = z.object({ origin: z.string(), runId: z.string(), message: liveCallMessageSchema });

/**
 * Live fan-out across app servers and workers on one PostgreSQL database
 * (docs/decisions/0027). Each process keeps one LISTEN connection (reconnecting with backoff) on
 * `reflexion_events` — every append notifies `{ runId, branchId, firstSeq, seq, origin }` in its
 * transaction — and, for runs someone here watches, reads the new events from the table and
 * publishes them on the process's {@link RunEventBus} (SSE streams, followers, a driver waiting
 * for a cancel-request). Streams still catch up by `seq` from the table, so a missed
 * notification costs latency, never data. Live-call messages (call start, token deltas, call end)
 * published here are relayed on `reflexion_live` (text cut to ≤ {@link LIVE_TEXT_CHUNK} units) and
 * delivered to the other processes' buses — only for runs someone is watching: each process
 * announces the runs its SSE clients watch on `reflexion_watch` (at once when one appears, then
 * every {@link WATCH_MS}.heartbeat ms), and a worker relays a run's live calls while such an
 * announcement is younger than {@link WATCH_MS}.ttl. A process skips its own notifications (`origin`).
 */
export class PgFanOut {
  private readonly origin = randomUUID();
  private stopListening: (() => Promise<void>) | null = null;
  private untap: (() => void) | null = null;
  private stopped = false;
  private delay = RECONNECT_MS.first;
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** Run id → epoch ms until which someone (in some process) watches its live calls. */
  private readonly watchedUntil = new Map<string, number>();
  private announced = new Set<string>();
  private lastHeartbeat = 0;
  private watchTimer: ReturnType<typeof setInterval> | null = null;
  /** Relayed messages go out one after another, so token deltas arrive in order. */
  private sending: Promise<void> = Promise.resolve();
  /** Times the LISTEN connection was (re)established (tests, diagnostics). */
  connects = 0;
  /** The LISTEN connection is lost and not yet back (its loss was logged once). */
  private down = false;

  constructor(
    private readonly store: PgRunStore,
    private readonly bus: RunEventBus,
    private readonly options: { relayLive?: boolean; onError?: (error: Error) => void } = {},
  ) {}

  private get pg(): PgConnection {
    return this.store.pg;
  }

  /** Starts listening (resolves once the first LISTEN is in place, or after the first failed try, which keeps retrying). */
  async start(): Promise<void> {
    this.stopped = false;
    if (this.options.relayLive !== false) this.untap = this.bus.tapLive((runId, message) => {
        this.sending = this.sending.then(() => this.relay(runId, message));
      });
    await this.connect();
    this.watchTimer = setInterval(() => void this.announceWatched(), WATCH_MS.check);
    this.watchTimer.unref?.();
    await this.announceWatched();
  }

  /** Whether someone, in any process, watches the run's live calls now (its token deltas are relayed). */
  watched(runId: string): boolean {
    return (this.watchedUntil.get(runId) ?? 0) > Date.now();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.watchTimer) clearInterval(this.watchTimer);
    this.untap?.();
    this.untap = null;
    await this.sending;
    const stop = this.stopListening;
    this.stopListening = null;
    await stop?.();
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    try {
      this.stopListening = await this.pg.listen([EVENTS_CHANNEL, LIVE_CHANNEL, WATCH_CHANNEL], (channel, payload) => this.receive(channel, payload), (error) => this.lost(error));
      this.connects += 1;
      this.delay = RECONNECT_MS.first;
      if (this.down) console.error("[fan-out] the LISTEN connection is back: live events flow again");
      this.down = false;
    } catch (error) {
      this.lost(error instanceof Error ? error : new Error(String(error)));
    }
  }

  private lost(error: Error): void {
    this.stopListening = null;
    if (this.stopped) return;
    this.options.onError?.(error);
    // Once per outage, not at every reconnect attempt.
    if (!this.down) console.error(`[fan-out] the LISTEN connection was lost: ${describePgError(error)} — reconnecting (${RECONNECT_MS.first} ms doubling to ${RECONNECT_MS.max / 1000} s; SSE clients re-read every second meanwhile)`);
    this.down = true;
    const wait = this.delay;
    this.delay = Math.min(this.delay * 2, RECONNECT_MS.max);
    this.timer = setTimeout(() => void this.connect(), wait);
    this.timer.unref?.();
  }

  private receive(channel: string, payload: string): void {
    let json: unknown;
    try {
      json = JSON.parse(payload);
    } catch {
      return; // not ours
    }
    if (channel === EVENTS_CHANNEL) {
      const notice = eventNoticeSchema.safeParse(json);
      if (notice.success && notice.data.origin !== this.store.origin) void this.publishEvents(notice.data);
    } else if (channel === WATCH_CHANNEL) {
      const notice = watchNoticeSchema.safeParse(json);
      if (notice.success) for (const runId of notice.data.runIds) this.watchedUntil.set(runId, Date.now() + WATCH_MS.ttl);
    } else if (channel === LIVE_CHANNEL) {
      const notice = liveNoticeSchema.safeParse(json);
      if (notice.success && notice.data.origin !== this.origin) this.bus.deliverLive(notice.data.runId, notice.data.message);
    }
  }

  /** Reads the notified batch from the table (only for runs someone here listens to) and publishes it. */
  private async publishEvents(notice: z.infer<typeof eventNoticeSchema>): Promise<void> {
    if (!this.bus.hasSubscribers(notice.runId)) return;
    try {
      const events = await this.store.list(asRunId(notice.runId), asBranchId(notice.branchId), notice.firstSeq - 1);
      const batch = events.filter((event) => event.branchId === notice.branchId && event.seq <= notice.seq);
      this.bus.publish(notice.runId, batch);
    } catch (error) {
      this.options.onError?.(error instanceof Error ? error : new Error(String(error)));
    }
  }

  /** Announces the runs watched here: new ones at once, all of them every heartbeat. */
  private async announceWatched(): Promise<void> {
    if (this.stopped) return;
    const now = Date.now();
    const current = this.bus.liveWatchedRuns();
    const fresh = current.filter((runId) => !this.announced.has(runId));
    const due = now - this.lastHeartbeat >= WATCH_MS.heartbeat;
    const send = due ? current : fresh;
    this.announced = new Set(current);
    if (due) this.lastHeartbeat = now;
    for (let i = 0; i < send.length; i += WATCH_BATCH) {
      const runIds = send.slice(i, i + WATCH_BATCH);
      try {
        await this.pg.db.execute(sql`SELECT pg_notify(${WATCH_CHANNEL}, ${JSON.stringify({ origin: this.origin, runIds })})`);
      } catch (error) {
        this.options.onError?.(error instanceof Error ? error : new Error(String(error)));
      }
    }
  }

  /** Sends a live message published in this process to the others (token text in chunks that fit a NOTIFY payload). */
  private async relay(runId: string, message: LiveCallMessage): Promise<void> {
    if (this.stopped || !this.watched(runId)) return;
    const pieces = message.kind === "token-delta" ? chunkText(message.text).map((text) => ({ ...message, text })) : [message];
    try {
      for (const piece of pieces) {
        await this.pg.db.execute(sql`SELECT pg_notify(${LIVE_CHANNEL}, ${JSON.stringify({ origin: this.origin, runId, message: piece })})`);
      }
    } catch (error) {
      this.options.onError?.(error instanceof Error ? error : new Error(String(error)));
    }
  }
}

/** `text` cut into pieces of at most {@link LIVE_TEXT_CHUNK} code units, never splitting a surrogate pair. */
export function chunkText(text: string, size = LIVE_TEXT_CHUNK): string[] {
  if (text.length <= size) return [text];
  const out: string[] = [];
  let rest = text;
  while (rest.length > size) {
    const { send, keep } = splitSendable(rest.slice(0, size));
    out.push(send);
    rest = keep + rest.slice(size);
  }
  if (rest !== "") out.push(rest);
  return out;
}
