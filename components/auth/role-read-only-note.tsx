import { cn } from "@/lib/utils/cn";

/**
 * The line shown where a run's controls would be when the signed-in person may not change it
 * ("read-only: viewers can look at runs but not change them"); reasons come from
 * lib/domain/run-permissions.ts. The server refuses such requests whatever the page shows.
 */
export function RoleReadOnlyNote({ reason, className }: { reason: string; className?: string }) {
  return (
    <p className={cn("rounded-md border border-slate-300 bg-slate-50 px-2.5 py-1.5 text-xs text-slate-700", className)} role="note" data-testid="role-read-only">
      read-only: {reason}
    </p>
  );
}
