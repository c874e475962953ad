import Link from "next/link";
import { EMPTY_STATE_HELP, helpHref, type EmptyStateList } from "@/lib/help/help-map";
import { cn } from "@/lib/utils/cn";

/**
 * An empty state's "How to …" link: the guide section for `list` in lib/help/help-map.ts
 * (EMPTY_STATE_HELP). `children` is the link text, e.g. "How to run an experiment".
 */
export function HowToLink({ list, children, className }: { list: EmptyStateList; children: string; className?: string }) {
  const { guide, section } = EMPTY_STATE_HELP[list];
  return (
    <Link href={helpHref(guide, section)} className={cn("text-sm font-medium text-sky-800 underline", className)} data-testid="how-to-link">
      {children}
    </Link>
  );
}
