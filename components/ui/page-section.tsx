import type { ReactNode } from "react";

/** A titled card of a page (results, compare): a heading the section is labelled by, optional controls on the right. */
export function PageSection({ title, id, children, right }: { title: string; id: string; children: ReactNode; right?: ReactNode }) {
  return (
    <section aria-labelledby={id} className="rounded-lg border border-slate-200 bg-white">
      <header className="flex flex-wrap items-center justify-between gap-2 border-b border-slate-200 px-4 py-2.5">
        <h2 id={id} className="text-sm font-semibold text-slate-900">
          {title}
        </h2>
        {right}
      </header>
      <div className="p-4">{children}</div>
    </section>
  );
}
