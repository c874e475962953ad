import type { TreeTerminal } from "@/lib/domain/tree-search";
import { cn } from "@/lib/utils/cn";

const MARKS: Record<TreeTerminal["outcome"], { symbol: string; label: string; className: string }> = {
  success: { symbol: "✓", label: "success", className: "bg-green-100 text-green-800 border-green-300" },
  failure: { symbol: "✗", label: "failure", className: "bg-red-100 text-red-800 border-red-300" },
  halted: { symbol: "■", label: "halted", className: "bg-slate-100 text-slate-700 border-slate-300" },
};

/** The verdict of a trajectory that ended at a node: a symbol and a word, so it never rests on colour alone. */
export function TerminalMark({ outcome, className }: { outcome: TreeTerminal["outcome"]; className?: string }) {
  const mark = MARKS[outcome];
  return (
    <span
      data-testid="tree-terminal"
      data-outcome={outcome}
      title={`A trajectory ended here: ${mark.label}`}
      className={cn("inline-flex items-center gap-0.5 rounded border px-1 py-px text-[10px] font-semibold leading-none", mark.className, className)}
    >
      <span aria-hidden="true">{mark.symbol}</span>
      {mark.label}
    </span>
  );
}
