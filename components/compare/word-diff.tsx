import type { Change } from "diff";
import { cn } from "@/lib/utils/cn";

/**
 * A word diff (jsdiff `Change[]`) as text: removed words struck through on
 * red, added words underlined on green — the marks carry the meaning without
 * colour, and screen readers hear "removed" / "added".
 */
export function WordDiff({ changes, className }: { changes: readonly Change[]; className?: string }) {
  return (
    <span className={cn("whitespace-pre-wrap break-words", className)} data-testid="word-diff">
      {changes.map((change, index) =>
        change.removed ? (
          <del key={index} className="mr-0.5 rounded-sm bg-red-100 text-red-900 decoration-red-700 decoration-2" data-change="removed">
            <span className="sr-only">[removed: </span>
            {change.value}
            <span className="sr-only">]</span>
          </del>
        ) : change.added ? (
          <ins key={index} className="rounded-sm bg-green-100 text-green-900 underline decoration-green-700 decoration-2 underline-offset-2" data-change="added">
            <span className="sr-only">[added: </span>
            {change.value}
            <span className="sr-only">]</span>
          </ins>
        ) : (
          <span key={index}>{change.value}</span>
        ),
      )}
    </span>
  );
}

/** The key to {@link WordDiff}'s marks, for the top of a diff section. */
export function WordDiffKey() {
  return (
    <span className="inline-flex flex-wrap items-center gap-2 text-[11px] text-slate-600">
      <del className="rounded-sm bg-red-100 px-1 text-red-900 decoration-red-700 decoration-2">struck through = removed</del>
      <ins className="rounded-sm bg-green-100 px-1 text-green-900 underline decoration-green-700 decoration-2 underline-offset-2">underlined = added</ins>
    </span>
  );
}
