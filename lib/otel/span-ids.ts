import { createHash } from "node:crypto";
import type { HrTime } from "@opentelemetry/api";

/**
 * Deterministic OTLP ids: the same run exports the same trace and span ids on every
 * machine and every time, so a re-export lands on the same trace in Phoenix or Langfuse and golden
 * files stay stable. Ids are hex prefixes of SHA-256 over the run, branch and a per-span key.
 */

function hex(text: string, length: number): string {
  return createHash("sha256").update(text).digest("hex").slice(0, length);
}

/** 32 hex digits (16 bytes): one trace per (run, branch). */
export function traceIdOf(runId: string, branchId: string): string {
  return hex(`reflexion-trace\0${runId}\0${branchId}`, 32);
}

/** 16 hex digits (8 bytes): `key` is `agent`, `trial:<k>`, an event id, or an event id with a suffix. */
export function spanIdOf(runId: string, branchId: string, key: string): string {
  return hex(`reflexion-span\0${runId}\0${branchId}\0${key}`, 16);
}

/** An ISO-8601 time (ms precision) as an OTel HrTime `[seconds, nanoseconds]`. */
export function hrTimeOf(epochMs: number): HrTime {
  const seconds = Math.floor(epochMs / 1000);
  return [seconds, Math.round((epochMs - seconds * 1000) * 1_000_000)];
}

/** `end - start` as an HrTime (never negative). */
export function durationOf(startMs: number, endMs: number): HrTime {
  return hrTimeOf(Math.max(0, endMs - startMs));
}
