"use client";

import type { ReactNode } from "react";
import { meHasRole } from "@/lib/domain/run-permissions";
import { useMe } from "@/lib/query/me-queries";

/**
 * Renders `children` only for admins (and for everyone with sign-in off); others see a clear
 * "admins only" state naming their role instead of a page of failed requests. `what` names the page
 * or section ("Settings"). The routes behind it refuse non-admins on the server as well.
 */
export function AdminOnly({ what, children }: { what: string; children?: ReactNode }) {
  const me = useMe();
  if (meHasRole(me.data, "admin")) return <>{children}</>;
  const role = me.data?.principal?.role;
  return (
    <div className="rounded-md border border-slate-300 bg-slate-50 px-3 py-2 text-sm text-slate-700" role="note" data-testid="admins-only">
      <p className="font-medium">{what}: admins only.</p>
      <p className="mt-1 text-xs text-slate-600">
        {role ? `You are signed in as a ${role}.` : "You are not signed in."} Ask an admin of this playground if you need to change its {what.toLowerCase()}.
      </p>
    </div>
  );
}
