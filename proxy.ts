import { NextResponse, type NextRequest } from "next/server";
import { pageGate } from "@/lib/auth/page-gate";

/**
 * Next's proxy (Node runtime): with sign-in on, a page request without a valid session is sent to
 * `/sign-in?next=<path>`. API routes are not matched — `handle()` answers them (401/403) — nor are
 * Next's static files and the public assets.
 */
export async function proxy(request: NextRequest): Promise<NextResponse> {
  const target = await pageGate(request);
  return target ? NextResponse.redirect(new URL(target, request.url)) : NextResponse.next();
}

export const config = {
  matcher: ["/((?!api/|_next/static|_next/image|favicon\\.ico|icon\\.svg|.*\\.(?:svg|png|jpg|jpeg|gif|webp|ico|css|js|map|txt|woff2?)$).*)"],
};
