import { cn } from "@/lib/utils/cn";

/** A small busy indicator with an accessible label. */
export function Spinner({ className, label = "Loading" }: { className?: string; label?: string }) {
  return (
    <span role="status" aria-label={label} className={cn("inline-block size-4 animate-spin rounded-full border-2 border-slate-300 border-t-slate-700", className)} />
  );
}
