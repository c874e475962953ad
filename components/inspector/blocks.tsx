import type { ReactNode } from "react";
import { LongText } from "@/components/ui/long-text";

/** Building blocks of the inspector's node views. */

/** A titled part of the inspector, with an optional control on the right. */
export function Section({ title, children, right }: { title: string; children: ReactNode; right?: ReactNode }) {
  return (
    <section className="space-y-1.5">
      <div className="flex items-center justify-between gap-2">
        <h3 className="text-[11px] font-semibold uppercase tracking-wide text-slate-500">{title}</h3>
        {right}
      </div>
      {children}
    </section>
  );
}

/**
 * Text as recorded, in a scrollable box (`mono` for code and actions). A plain
 * string goes through {@link LongText}: collapsed with "show more" above a size,
 * base64 and data URIs as placeholders with their size.
 */
export function TextBlock({ children, testId, mono = false }: { children: ReactNode; testId?: string; mono?: boolean }) {
  return (
    <pre
      data-testid={testId}
      tabIndex={0}
      className={`max-h-80 overflow-auto whitespace-pre-wrap break-words rounded-md border border-slate-200 bg-slate-50 p-2 text-xs leading-relaxed text-slate-800 ${mono ? "font-mono" : "font-sans"}`}
    >
      {typeof children === "string" ? <LongText text={children} /> : children}
    </pre>
  );
}

/** Label / value rows. */
export function Facts({ rows }: { rows: Array<[string, ReactNode]> }) {
  return (
    <dl className="grid grid-cols-[max-content_1fr] gap-x-3 gap-y-1 text-xs">
      {rows.map(([label, value]) => (
        <div key={label} className="contents">
          <dt className="text-slate-500">{label}</dt>
          <dd className="min-w-0 break-words text-slate-900">{value}</dd>
        </div>
      ))}
    </dl>
  );
}
