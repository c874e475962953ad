import type { ClassService } from "./class-service";

/** Comment-line interval, ms, so proxies keep the connection open. */
const HEARTBEAT_MS = 15_000;

/**
 * Server-sent events of one class (`GET /api/classes/:id/stream`): `event: version` with
 * `data: {"version":N}` at once and whenever the class changes (lib/server/class-version-hub.ts:
 * at once for writes in this process, within 500 ms for others). Only the number; clients
 * refetch their own view with their own secret or token, so the stream is public. A heartbeat
 * comment every 15 s; the stream ends when the client goes.
 */
export function classVersionStream(classes: ClassService, classId: string, first: number, signal: AbortSignal): Response {
  const encoder = new TextEncoder();
  let closed = false;
  let last = -1;
  const cleanups: Array<() => void> = [];
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      const send = (text: string) => {
        if (!closed) controller.enqueue(encoder.encode(text));
      };
      const version = (value: number) => {
        if (value <= last) return;
        last = value;
        send(`event: version\ndata: ${JSON.stringify({ version: value })}\n\n`);
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
      send("retry: 2000\n\n");
      version(first);
      cleanups.push(classes.hub.subscribe(classId, version));
      const heartbeat = setInterval(() => send(": ping\n\n"), HEARTBEAT_MS);
      cleanups.push(() => clearInterval(heartbeat));
      signal.addEventListener("abort", close, { once: true });
    },
    cancel() {
      closed = true;
      for (const cleanup of cleanups) cleanup();
    },
  });
  return new Response(stream, {
    headers: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache, no-transform", connection: "keep-alive", "x-accel-buffering": "no" },
  });
}
