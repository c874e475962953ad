import { getServerContext } from "@/lib/server/app-context";
import { handle } from "@/lib/server/http-errors";
import { meResponseSchema } from "@/lib/domain/roles";
import { classLanMode, isLanPhone, PEER_HEADER } from "@/lib/server/lan-peer";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * `GET /api/me` → `meResponseSchema`: whether sign-in is on and who this request is (null without a
 * valid session or token; the local admin with sign-in off). Public, so a signed-out page can ask.
 * The UI hides what the role cannot do from it; the server checks every request itself. In class
 * LAN mode a phone (a peer other than loopback) is nobody: it reaches only the students' surfaces.
 */
export const GET = handle(async (request: Request) => {
  const { auth } = getServerContext();
  const principal = isLanPhone(classLanMode(), request.headers.get(PEER_HEADER)) ? null : await auth.principalOf(request);
  return Response.json(meResponseSchema.parse({ signIn: auth.signIn, principal }), { headers: { "cache-control": "no-store" } });
});
