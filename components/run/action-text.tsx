import { cn } from "@/lib/utils/cn";

/**
 * An action written by a person, as text: a one-line action (QA, household)
 * inline, a program or a list of asserts (code runs, or any text with a line
 * break) in a scrolling `<pre>` that keeps its indentation.
 */
export function ActionText({ text, code, className, testId }: { text: string; code: boolean; className?: string; testId?: string }) {
  if (code || text.includes("\n")) {
    return (
      <pre
        data-testid={testId}
        tabIndex={0}
        className={cn(
          "mt-1 max-h-48 overflow-auto whitespace-pre rounded border border-slate-200 bg-white px-2 py-1 font-mono text-[11px] leading-snug text-slate-900",
          className,
        )}
      >
        {text}
      </pre>
    );
  }
  return (
    <code data-testid={testId} className={cn("font-mono font-semibold", className)}>
      {text}
    </code>
  );
}
