import { revokeToken } from "@/lib/auth/token-routes";
import { getServerContext } from "@/lib/server/app-context";
import { handle } from "@/lib/server/http-errors";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** `DELETE /api/tokens/<id>` → `{ token }`: revokes the token; it fails at once everywhere. */
export const DELETE = handle(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { id } = await params;
  return Response.json({ token: await revokeToken(getServerContext(), request, id) });
});
