import type { Metadata } from "next";
import { AuditLogView } from "@/components/audit/audit-log-view";

export const metadata: Metadata = { title: "Audit log" };

/** `/admin/audit`: who did what in this lab (admins; docs/audit.md), fetched client-side from `GET /api/audit`. */
export default function AuditPage() {
  return (
    <main className="mx-auto w-full max-w-6xl flex-1 space-y-4 px-4 py-6" data-testid="audit-page">
      <header className="space-y-1">
        <h1 className="text-lg font-semibold text-slate-900">Audit log</h1>
        <p className="max-w-3xl text-xs leading-relaxed text-slate-600">
          Every request that changes something, refused ones included, and every audited CLI command: who made it, what it acted on and
          how it went. The run log itself says who made each event; this page answers “who did what, when” across the lab. Only admins
          can read it (docs/audit.md).
        </p>
      </header>
      <AuditLogView />
    </main>
  );
}
