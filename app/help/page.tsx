import type { Metadata } from "next";
import Link from "next/link";
import { GUIDE_TITLES, helpHref } from "@/lib/help/help-map";
import { listGuides } from "@/lib/server/help-guides";

export const metadata: Metadata = { title: "Help" };

// Rendered by `next build` from docs/guides: the same pages offline, with no file read per request.
export const dynamic = "force-static";

/** `/help`: the user guides (docs/guides/*.md), one per job, each opening its help page. */
export default function Page() {
  const guides = listGuides();
  return (
    <div className="mx-auto w-full max-w-3xl px-4 py-6">
      <h1 className="text-xl font-semibold text-slate-900">Help</h1>
      <p className="mt-1 text-sm text-slate-600">
        The user guides, one per job, from the project&apos;s <code className="rounded bg-slate-100 px-1 py-px font-mono text-[0.9em] text-slate-900">docs/guides</code> folder.
        The <span aria-hidden="true">?</span> in the header opens the section for the page you are on.
      </p>
      <ul className="mt-4 flex flex-col gap-2" data-testid="help-guides">
        {guides.map((guide) => (
          <li key={guide}>
            <Link href={helpHref(guide)} className="text-sm font-medium text-sky-800 underline">
              {GUIDE_TITLES[guide]}
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}
