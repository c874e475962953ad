import type { ImportedRunInput } from "@/lib/db/store";
import type { LogSummaryLine } from "@/lib/domain/provenance";
import type { LogDescriptor } from "./log-catalog";

/**
 * What a mapper makes of one parsed log: the runs of its single arm (one per
 * question / environment / problem), the arm's trial budget T, and what the
 * import must tell people (docs/decisions/0015).
 */
export interface MappedLog {
  descriptor: LogDescriptor;
  /** The arm's trial budget: the log's number of trials (1 for a one-shot log). */
  trials: number;
  runs: ImportedRunInput[];
  /** Caveats found while mapping (summary lines that disagree with the blocks, unmatched questions, …). */
  warnings: string[];
  /** The log's own per-trial summary lines (HotpotQA), else null. */
  logSummary: LogSummaryLine[] | null;
  /** Extra caveats for `provenance.notes` learnt from this file's content. */
  notes: string[];
}

/** Where the runs' tasks come from: the task set id the experiment points at, and its name for `RunConfig.taskSetName`. */
export interface TaskSetRef {
  id: string;
  name: string;
}
