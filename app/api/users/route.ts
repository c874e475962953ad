import { addUser, listUsers } from "@/lib/auth/user-routes";
import { MAX_JSON_BODY_BYTES, readRequestJson } from "@/lib/io/bounded-body";
import { getServerContext } from "@/lib/server/app-context";
import { handle } from "@/lib/server/http-errors";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** `GET /api/users` → `{ users }` (admins). */
export const GET = handle(async (request: Request) => Response.json({ users: await listUsers(getServerContext(), request) }, { headers: { "cache-control": "no-store" } }));

/** `POST /api/users` with `{ email, name, password, role }` → `{ user }`, 201 (admins). */
export const POST = handle(async (request: Request) => {
  const user = await addUser(getServerContext(), request, await readRequestJson(request, MAX_JSON_BODY_BYTES, "user"));
  return Response.json({ user }, { status: 201 });
});
