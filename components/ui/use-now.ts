"use client";

import { useEffect, useState } from "react";

/**
 * The current time (ms since the epoch), refreshed every `intervalMs` while
 * `active` (the first tick comes after one interval); only the component that
 * calls it re-renders on each tick.
 */
export function useNow(active: boolean, intervalMs = 1_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [active, intervalMs]);
  return now;
}
