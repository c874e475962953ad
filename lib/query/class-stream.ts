"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { classVersionEventSchema } from "@/lib/domain/class-session";
import { classKeys } from "./class-queries";

/** Whether the class's event stream is connected: `live`, or `reconnecting` after a drop (the browser retries by itself). */
export type ClassStreamState = "connecting" | "live" | "reconnecting";

/**
 * Follows `GET /api/classes/:id/stream` (Server-Sent Events) while `enabled`: each
 * `event: version` with a version not seen yet refetches the class's views this page shows
 * (teacher, projector or student); the stream carries only the number. Refetches are coalesced:
 * while one is in flight, any number of new versions cause exactly one more when it ends (thirty
 * answers in a second are a handful of GETs per page, not thirty, and never cancel each other).
 * EventSource reconnects by itself; a reconnect also refetches (a version may have been missed).
 *
 * `delayMs` waits that long after a new version before refetching (versions arriving meanwhile
 * ride along): the phones pass a short random delay so thirty of them do not ask the server at
 * the same instant after every answer; the teacher's console passes 0 and refetches at once.
 */
export function useClassStream(classId: string, enabled: boolean, delayMs = 0): ClassStreamState {
  const client = useQueryClient();
  const [state, setState] = useState<ClassStreamState>("connecting");
  useEffect(() => {
    if (!enabled) return;
    let last = -1;
    let dropped = false;
    let running = false;
    let again = false;
    let closed = false;
    let timer: ReturnType<typeof setTimeout> | null = null;
    const source = new EventSource(`/api/classes/${encodeURIComponent(classId)}/stream`);
    const refetch = async () => {
      if (running) {
        again = true;
        return;
      }
      running = true;
      try {
        do {
          again = false;
          await client.refetchQueries({ queryKey: classKeys.views(classId), type: "active" }, { cancelRefetch: false });
        } while (again && !closed);
      } catch {
        // A failed refetch shows on the query itself (its error state); the next version tries again.
      } finally {
        running = false;
      }
    };
    source.onopen = () => {
      setState("live");
      if (dropped) void refetch();
      dropped = false;
    };
    source.onerror = () => {
      dropped = true;
      setState("reconnecting");
    };
    source.addEventListener("version", (message: MessageEvent<string>) => {
      let version: number;
      try {
        const parsed = classVersionEventSchema.safeParse(JSON.parse(message.data));
        if (!parsed.success) return;
        version = parsed.data.version;
      } catch {
        return;
      }
      if (version === last) return;
      last = version;
      if (delayMs <= 0) void refetch();
      else
        timer ??= setTimeout(() => {
          timer = null;
          void refetch();
        }, delayMs);
    });
    return () => {
      closed = true;
      if (timer) clearTimeout(timer);
      source.close();
    };
  }, [client, classId, enabled, delayMs]);
  return state;
}
