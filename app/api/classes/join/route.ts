import { classJoinRequestSchema } from "@/lib/domain/class-session";
import { getServerContext } from "@/lib/server/app-context";
import { classJoinLimiter, clientAddress } from "@/lib/server/class-join-limit";
import { classBody } from "@/lib/server/class-request";
import { handle } from "@/lib/server/http-errors";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * Public: a student joins with `{ code, nickname }` → 201 `{ classId, studentId, studentToken, nickname }`.
 * Rate-limited per client address and per class (429 with Retry-After); 410 when the class ended,
 * 409 when it is full or the nickname is taken.
 */
export const POST = handle(async (request: Request) => {
  const body = await classBody(request, classJoinRequestSchema, "join request");
  const refusal = await classJoinLimiter().take(clientAddress(request), body.code);
  if (refusal) {
    return Response.json({ error: { code: "rate-limited", message: refusal.message } }, { status: 429, headers: { "retry-after": String(refusal.retryAfterSeconds) } });
  }
  return Response.json(await getServerContext().classes.join(body), { status: 201 });
});
