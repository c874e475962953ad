import type { BranchId } from "@/lib/domain/ids";
import { publicError } from "./http-errors";
import type { RunEventBus } from "./run-event-bus";
import type { RunService } from "./run-service";

/** How often a stream re-reads the log, in ms: catches writes from other processes (the CLI) and lapsed leases. */
const POLL_MS = 1_000;
/** Comment line interval in ms, so proxies keep the connection open. */
const HEARTBEAT_MS = 15_000;

/**
 * Server-sent events for one run (lib/domain/api.ts): every event with
 * `seq > after` as `event: run-event` (`id:` = seq, so a reconnecting
 * EventSource resumes via Last-Event-ID), `event: status` with
 * `{ status, lastSeq, activeCall }` whenever the status or the call in flight
 * changes, and `event: live-call` (lib/domain/live-call.ts: call start, token
 * deltas, call end; transient, for calls driven in this process). Pushes at
 * once on in-process appends, and polls the store (an indexed read after the
 * last seq sent, plus the branch summary — never a whole log) for the rest.
 */
export function runEventStream(
  service: RunService,
  bus: RunEventBus,
  runId: string,
  branchId: BranchId,
  after: number,
  signal: AbortSignal,
): Response {
  const encoder = new TextEncoder();
  let lastSeq = after;
  let lastStatus: string | null = null;
  let busy = false;
  let again = false;
  let closed = false;
  const cleanups: Array<() => void> = [];

  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      const send = (text: string) => {
        if (!closed) controller.enqueue(encoder.encode(text));
      };
      const close = () => {
        if (closed) return;
        closed = true;
        for (const cleanup of cleanups) cleanup();
        try {
          controller.close();
        } catch {
          // already closed by the client
        }
      };
      const flush = async (): Promise<void> => {
        if (busy) {
          again = true;
          return;
        }
        busy = true;
        try {
          do {
            again = false;
            const { run, events } = await service.events(runId, lastSeq, branchId);
            for (const event of events) {
              send(`id: ${event.seq}\nevent: run-event\ndata: ${JSON.stringify(event)}\n\n`);
              lastSeq = event.seq;
            }
            const liveness = await service.liveness(run, branchId);
            const { status, activeCall } = liveness;
            const key = JSON.stringify({ status, activeCall });
            if (key !== lastStatus) {
              lastStatus = key;
              // Stamped with the seq the status was read at (the summary's), which may be newer than the events sent so far.
              const seq = Math.max(lastSeq, liveness.lastSeq);
              send(`event: status\ndata: ${JSON.stringify({ status, lastSeq: seq, activeCall })}\n\n`);
            }
          } while (again && !closed);
        } catch (error) {
          // What a route would answer (an unreachable database says so; no SQL or parameters reach the client).
          send(`event: stream-error\ndata: ${JSON.stringify({ message: publicError(error).message })}\n\n`);
          close();
        } finally {
          busy = false;
        }
      };

      send("retry: 2000\n\n");
      // A client that connects mid-call gets the call's text so far, then the deltas that follow.
      const inFlight = service.liveCall(branchId);
      if (inFlight) {
        const base = { branchId, role: inFlight.call.role, trial: inFlight.call.trial, step: inFlight.call.step, startedAt: inFlight.call.startedAt };
        send(`event: live-call\ndata: ${JSON.stringify({ kind: "call-start", ...base })}\n\n`);
        if (inFlight.text !== "") send(`event: live-call\ndata: ${JSON.stringify({ kind: "token-delta", ...base, text: inFlight.text })}\n\n`);
      }
      cleanups.push(bus.subscribe(runId, () => void flush()));
      // Transient live-call messages of this branch (never stored): token deltas as the model streams.
      cleanups.push(
        bus.subscribeLive(runId, (message) => {
          if (message.branchId !== branchId) return;
          send(`event: live-call\ndata: ${JSON.stringify(message)}\n\n`);
          if (message.kind !== "token-delta") void flush();
        }),
      );
      const poll = setInterval(() => void flush(), POLL_MS);
      const heartbeat = setInterval(() => send(": ping\n\n"), HEARTBEAT_MS);
      cleanups.push(() => clearInterval(poll), () => clearInterval(heartbeat));
      signal.addEventListener("abort", close, { once: true });
      void flush();
    },
    cancel() {
      closed = true;
      for (const cleanup of cleanups) cleanup();
    },
  });

  return new Response(stream, {
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache, no-transform",
      connection: "keep-alive",
      "x-accel-buffering": "no",
    },
  });
}
