import type { z } from "zod";
import { describeIssues } from "@/lib/domain/describe-issues";

/**
 * Parses a request body before it is sent, so a person sees at once the message the server would
 * give for it — its first issue as `field: message` (describeIssues), e.g.
 * `arms: arm labels must be unique` — instead of a round trip.
 *
 * @returns the parsed body (defaults applied), to send.
 * @throws Error with that message when `body` does not match `schema`.
 */
export function checkedBody<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new Error(describeIssues(parsed.error, null, 1));
  return parsed.data;
}
