import { createToken, listTokens } from "@/lib/auth/token-routes";
import { MAX_JSON_BODY_BYTES, readRequestJson } from "@/lib/io/bounded-body";
import { getServerContext } from "@/lib/server/app-context";
import { handle } from "@/lib/server/http-errors";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** `GET /api/tokens[?user=<id>]` → `{ tokens }`: your API tokens (an admin: anyone's), never a secret. */
export const GET = handle(async (request: Request) => Response.json({ tokens: await listTokens(getServerContext(), request) }, { headers: { "cache-control": "no-store" } }));

/** `POST /api/tokens` with `{ name, expiresAt? }` → `{ token, secret }`: 201; the secret is shown this once. */
export const POST = handle(async (request: Request) => {
  const created = await createToken(getServerContext(), request, await readRequestJson(request, MAX_JSON_BODY_BYTES, "token"));
  return Response.json(created, { status: 201, headers: { "cache-control": "no-store" } });
});
