import type { ReactNode } from "react";
import { cn } from "@/lib/utils/cn";

type Tone = "info" | "warning" | "error" | "success";
const tones: Record<Tone, string> = {
  info: "border-sky-200 bg-sky-50 text-sky-900",
  warning: "border-amber-300 bg-amber-50 text-amber-950",
  error: "border-red-300 bg-red-50 text-red-900",
  success: "border-green-300 bg-green-50 text-green-900",
};

/** An inline message box. Errors are announced to screen readers. */
export function Notice({ tone = "info", title, children, className, ...rest }: { tone?: Tone; title?: ReactNode; children?: ReactNode; className?: string; "data-testid"?: string }) {
  return (
    <div role={tone === "error" ? "alert" : "status"} className={cn("rounded-md border px-3 py-2 text-sm", tones[tone], className)} {...rest}>
      {title ? <p className="font-medium">{title}</p> : null}
      {children ? <div className={cn(title ? "mt-0.5" : undefined)}>{children}</div> : null}
    </div>
  );
}

/** A centred placeholder for empty, loading and not-found states. */
export function EmptyState({ title, children, action, className }: { title: ReactNode; children?: ReactNode; action?: ReactNode; className?: string }) {
  return (
    <div className={cn("flex flex-col items-center justify-center gap-2 px-6 py-12 text-center", className)}>
      <p className="text-sm font-medium text-slate-800">{title}</p>
      {children ? <div className="max-w-md text-sm text-slate-600">{children}</div> : null}
      {action ? <div className="mt-2">{action}</div> : null}
    </div>
  );
}
