"use client";

import { AdminOnly } from "@/components/auth/admin-only";
import { PageSection } from "@/components/ui/page-section";
import { SETTINGS_SECTIONS } from "./sections";

/** `/settings`: every section of {@link SETTINGS_SECTIONS}, each a titled card — for admins (and everyone with sign-in off). */
export function SettingsPage() {
  return (
    <main className="mx-auto w-full min-w-0 max-w-6xl flex-1 space-y-4 px-4 py-6" data-testid="settings-page">
      <h1 className="text-lg font-semibold text-slate-900">Settings</h1>
      <AdminOnly what="Settings">
        <nav aria-label="Settings sections" className="flex flex-wrap gap-2 text-xs">
          {SETTINGS_SECTIONS.map((s) => (
            <a key={s.id} href={`#${s.id}`} className="rounded px-2 py-1 text-slate-700 hover:bg-slate-100">
              {s.title}
            </a>
          ))}
        </nav>
        {SETTINGS_SECTIONS.map(({ id, title, Component }) => (
          <PageSection key={id} id={id} title={title}>
            <Component />
          </PageSection>
        ))}
      </AdminOnly>
    </main>
  );
}
