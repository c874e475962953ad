export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** `GET /api/health` → `{ ok: true }`: public (load balancers, the proxy lets it through); says nothing about the data. */
export function GET(): Response {
  return Response.json({ ok: true }, { headers: { "cache-control": "no-store" } });
}
