import { z } from "zod";

/**
 * Transient messages about a model call while it runs (DESIGN.md §1: token
 * deltas are pushed to watching clients, never stored). Sent over SSE as
 * `event: live-call` with one of these as JSON data; the durable
 * `model-call-end` arrives when the call ends.
 *
 * - `call-start`: a call began (`startedAt` ISO-8601), so clients can show how long it has run;
 * - `token-delta`: the next piece of streamed text (coalesced server-side to at
 *   most ~10 messages a second; pieces never split a UTF-16 surrogate pair);
 * - `call-end`: the call returned (its events follow as `run-event`s) or failed;
 * - `call-retry`: a failed attempt (rate limit, server error, no first token) will be retried at `retryAt`.
 */
const callFields = {
  branchId: z.string(),
  role: z.enum(["actor", "reflector"]),
  trial: z.number().int().positive(),
  /** The Actor step; null for a Self-Reflection call. */
  step: z.number().int().positive().nullable(),
  /** ISO-8601 time the call started. */
  startedAt: z.string(),
};

export const liveCallMessageSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("call-start"), ...callFields }),
  z.object({ kind: z.literal("token-delta"), ...callFields, text: z.string() }),
  z.object({ kind: z.literal("call-end"), ...callFields }),
  /** A failed attempt will be retried at `retryAt` (ISO-8601): show "retrying in N s". */
  z.object({ kind: z.literal("call-retry"), ...callFields, retryAt: z.string(), attempt: z.number().int().positive(), message: z.string() }),
]);
export type LiveCallMessage = z.infer<typeof liveCallMessageSchema>;

/**
 * Splits buffered text into what can be sent now and what must wait: a
 * trailing high surrogate (the first half of an emoji, say) waits for its
 * second half, so a piece never carries half a character.
 */
export function splitSendable(buffer: string): { send: string; keep: string } {
  if (buffer.length === 0) return { send: "", keep: "" };
  const last = buffer.charCodeAt(buffer.length - 1);
  const isHighSurrogate = last >= 0xd800 && last <= 0xdbff;
  return isHighSurrogate ? { send: buffer.slice(0, -1), keep: buffer.slice(-1) } : { send: buffer, keep: "" };
}
