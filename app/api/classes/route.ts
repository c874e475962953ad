import { currentPrincipal } from "@/lib/actors/actor-context";
import { classCreateRequestSchema } from "@/lib/domain/class-session";
import { getServerContext } from "@/lib/server/app-context";
import { classBody } from "@/lib/server/class-request";
import { handle } from "@/lib/server/http-errors";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Every class, newest first (`ClassListResponse`). Who may start runs may list them. */
export const GET = handle(async () => Response.json(await getServerContext().classes.list()));

/**
 * Starts a class for a lesson (body `{ lessonId, minutes? }`): 201 `{ class, teacherSecret, joinPath }`.
 * The teacher secret is answered here once; only its sha256 is stored.
 */
export const POST = handle(async (request: Request) => {
  const body = await classBody(request, classCreateRequestSchema, "class");
  const created = await getServerContext().classes.create(body, currentPrincipal()?.userId ?? null);
  return Response.json(created, { status: 201 });
});
