"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { GUIDE_TITLES, helpForPath, helpHref } from "@/lib/help/help-map";

/**
 * The header's `?`: opens the guide section for the current page (lib/help/help-map.ts), or the
 * list of guides where no section fits. Its accessible name says which guide it opens.
 */
export function HelpLink() {
  const pathname = usePathname() ?? "/";
  const target = helpForPath(pathname);
  const href = target ? helpHref(target.guide, target.section) : "/help";
  const name = target ? `Help: ${GUIDE_TITLES[target.guide]}` : "Help: the user guides";
  return (
    <Link
      href={href}
      aria-label={name}
      title={name}
      data-testid="help-link"
      className="flex h-7 w-7 flex-none items-center justify-center rounded-full border border-slate-300 text-sm font-semibold text-slate-700 hover:bg-slate-100 hover:text-slate-900"
    >
      <span aria-hidden="true">?</span>
    </Link>
  );
}
