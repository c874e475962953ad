"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { classVersionEventSchema } from "@/lib/domain/class-session";
import { classKeys } from "./class-queries";

/** Whether the class's event stream is connected: `live`, or `reconnecting` after a drop (the browser retries by itself). */
export type ClassStreamState = "connecting" | "live" | "reconnecting";

/**
 * Follows `GET /api/classes/:id/stream` (Server-Sent Events) while `enabled`: each
 * `event: version` with a version newer than the last one seen invalidates every view of the
 * class (teacher, projector, student), so they refetch; the stream carries only the number.
 * EventSource reconnects by itself; a reconnect also refetches (a version may have been missed).
 */
export function useClassStream(classId: string, enabled: boolean): ClassStreamState {
  const client = useQueryClient();
  const [state, setState] = useState<ClassStreamState>("connecting");
  useEffect(() => {
    if (!enabled) return;
    let last = -1;
    let dropped = false;
    const source = new EventSource(`/api/classes/${encodeURIComponent(classId)}/stream`);
    const refetch = () => void client.invalidateQueries({ queryKey: classKeys.views(classId) });
    source.onopen = () => {
      setState("live");
      if (dropped) refetch();
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
      refetch();
    });
    return () => source.close();
  }, [client, classId, enabled]);
  return state;
}
