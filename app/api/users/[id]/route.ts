import { removeUser, setUserRole } from "@/lib/auth/user-routes";
import { MAX_JSON_BODY_BYTES, readRequestJson } from "@/lib/io/bounded-body";
import { getServerContext } from "@/lib/server/app-context";
import { handle } from "@/lib/server/http-errors";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Params = { params: Promise<{ id: string }> };

/** `PATCH /api/users/<id>` with `{ role }` → `{ user }` (admins). */
export const PATCH = handle(async (request: Request, { params }: Params) => {
  const { id } = await params;
  return Response.json({ user: await setUserRole(getServerContext(), request, id, await readRequestJson(request, MAX_JSON_BODY_BYTES, "user")) });
});

/** `DELETE /api/users/<id>` → `{ user }`: removes the account; its sessions and tokens stop at once (admins). */
export const DELETE = handle(async (request: Request, { params }: Params) => {
  const { id } = await params;
  return Response.json({ user: await removeUser(getServerContext(), request, id) });
});
