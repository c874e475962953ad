/** Display helpers shared by the run views. */

const integer = new Intl.NumberFormat("en-US");

export function formatInteger(value: number): string {
  return integer.format(value);
}

/** USD with enough digits for sub-cent model calls; `—` when unknown. */
export function formatUsd(value: number | null): string {
  if (value === null) return "—";
  if (value === 0) return "$0";
  if (value < 0.01) return `$${value.toFixed(5)}`;
  return `$${value.toFixed(value < 1 ? 4 : 2)}`;
}

export function formatMs(value: number): string {
  return value < 1_000 ? `${Math.round(value)} ms` : `${(value / 1_000).toFixed(2)} s`;
}

export function formatTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}

/** Compact timestamp for tables: time today, else short date and time. */
export function formatShortTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const today = new Date();
  const sameDay = date.toDateString() === today.toDateString();
  return sameDay
    ? date.toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit" })
    : date.toLocaleString(undefined, { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" });
}

/**
 * A cost summed over model calls some of which may have no known price
 * (`unpricedCalls`, e.g. `compatible:*` models): the sum when every call was
 * priced, `unknown` when none was, else a lower bound such as
 * `≥ $0.0021 (3 calls unpriced)`. Never a bare `$0` for calls of unknown price.
 */
export function formatCostTotal({ costUsd, calls, unpricedCalls }: { costUsd: number; calls: number; unpricedCalls: number }): string {
  if (calls === 0 || unpricedCalls <= 0) return formatUsd(costUsd);
  if (unpricedCalls >= calls) return "unknown";
  return `≥ ${formatUsd(costUsd)} (${unpricedCalls} ${unpricedCalls === 1 ? "call" : "calls"} unpriced)`;
}

/**
 * A running time in whole seconds: `0 s` … `59 s`, `1 min 05 s`, `1 h 02 min`.
 * Negative input (a clock a little behind the server's) reads `0 s`.
 */
export function formatElapsed(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1_000));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${String(seconds % 60).padStart(2, "0")} s`;
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, "0")} min`;
}
