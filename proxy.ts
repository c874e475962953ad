import { NextResponse, type NextRequest } from "next/server";
import { pageGate } from "@/lib/auth/page-gate";
import { classLanMode, lanAccess, LAN_REFUSAL, PEER_HEADER } from "@/lib/server/lan-peer";

/**
 * Next's proxy (Node runtime): with sign-in on, a page request without a valid session is sent to
 * `/sign-in?next=<path>`. API routes are not matched — `handle()` answers them (401/403) — nor are
 * Next's static files and the public assets. In class LAN mode (`npm run class`) a page request
 * from another device than the laptop itself is refused (403) unless it is a student page
 * (lib/server/lan-peer.ts; API routes apply the same rule in `handle()`).
 */
export async function proxy(request: NextRequest): Promise<NextResponse> {
  const lan = lanAccess({ lanMode: classLanMode(), peer: request.headers.get(PEER_HEADER), pathname: request.nextUrl.pathname, method: request.method });
  if (lan === "refuse") return NextResponse.json({ error: { code: "forbidden", message: LAN_REFUSAL } }, { status: 403 });
  const target = await pageGate(request);
  return target ? NextResponse.redirect(new URL(target, request.url)) : NextResponse.next();
}

export const config = {
  matcher: ["/((?!api/|_next/static|_next/image|favicon\\.ico|icon\\.svg|.*\\.(?:svg|png|jpg|jpeg|gif|webp|ico|css|js|map|txt|woff2?)$).*)"],
};
