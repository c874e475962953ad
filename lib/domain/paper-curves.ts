import type { ArmResult } from "./experiment";
import type { Provenance } from "./provenance";

/**
 * What an imported paper curve must say about itself (docs/decisions/0031): the trials whose points
 * the authors' logs do not record (drawn dashed, hollow, with a note) and the point the paper itself
 * reports as its stopping point (drawn as a marked point). Pure; read by the results page and the
 * SVG export alike.
 */
export interface PaperCurveNotes {
  /** Trials (1-based, inclusive) whose points are inferred rather than recorded, and why. */
  unrecorded: { fromTrial: number; toTrial: number; note: string } | null;
  /** The paper's reported point on this curve, in tasks. */
  reported: { trial: number; solved: number; tasks: number; label: string } | null;
}

/**
 * What one family's published logs need said about their curves: the family descriptor's
 * `paperLogCurves` (lib/environments/<family>/descriptor.ts), passed in by the callers, since
 * lib/domain does not read the families.
 */
export interface PaperLogCurveRules {
  /**
   * Logs that record each task's final verdict only, recognised by a provenance note
   * (lib/importers/log-catalog.ts): the trial of first success is inferred, so every point before
   * the last trial is unrecorded, with `note` saying why. Null: the family's logs record every trial.
   */
  inferredTrials: { noteMatches: RegExp; note: string } | null;
  /** The points the paper itself reports on the curves of logs whose provenance source matches `sourceMatches`. */
  reportedPoints: ReadonlyArray<{ sourceMatches: RegExp } & NonNullable<PaperCurveNotes["reported"]>>;
}

/** No notes: an experiment run here, or logs that need none. */
const NO_NOTES: PaperCurveNotes = { unrecorded: null, reported: null };

/**
 * The notes of one imported arm under its family's `rules`, or none for an experiment run here.
 * An arm with inferred trials gets no reported point: the paper's point would sit on inferred data.
 */
export function paperCurveNotes(provenance: Provenance | null, rules: PaperLogCurveRules, arm: Pick<ArmResult, "trials" | "tasks" | "successByTrial">): PaperCurveNotes {
  if (!provenance || provenance.kind !== "paper-log") return NO_NOTES;
  const trials = arm.successByTrial.length;
  const inferred = rules.inferredTrials;
  if (inferred && trials > 1 && provenance.notes.some((note) => inferred.noteMatches.test(note))) {
    return { unrecorded: { fromTrial: 1, toTrial: trials - 1, note: inferred.note }, reported: null };
  }
  const point = rules.reportedPoints.find((candidate) => candidate.sourceMatches.test(provenance.source));
  if (!point) return NO_NOTES;
  const { sourceMatches: _sourceMatches, ...reported } = point;
  return { unrecorded: null, reported };
}
