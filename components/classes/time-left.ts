/**
 * A class's time left in words for the console's header: "42 min left", "0:45 left" in the last
 * minute, "ended" at or after `endsAt`. `endsAt` is ISO-8601, `now` ms since the epoch. Pure.
 */
export function timeLeft(endsAt: string, now: number): string {
  const ms = Date.parse(endsAt) - now;
  if (!Number.isFinite(ms) || ms <= 0) return "ended";
  const seconds = Math.ceil(ms / 1000);
  if (seconds < 60) return `0:${String(seconds).padStart(2, "0")} left`;
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 120) return `${minutes} min left`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min left`;
}
