import type { ArmResult } from "./experiment";
import type { EnvironmentId } from "./config";
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

/** Programming logs whose iterations are counted from the reflections (lib/importers/log-catalog.ts notes). */
const INFERRED_ITERATIONS = /Iterations = reflections \+ 1/;

/**
 * The notes of one imported arm, or none for an experiment run here.
 * - Programming Reflexion logs record each problem's final solution and verdict only: the trial of
 *   first success is inferred from the number of reflections, so every point before the last trial
 *   is unrecorded.
 * - ALFWorld ReAct + Reflexion (`reflexion_run_logs`): the paper reports 130 of 134 environments
 *   solved by trial 12 (Shinn et al. 2023, §4.1 and Fig. 3), while the logs go on to trial 15.
 */
export function paperCurveNotes(provenance: Provenance | null, environment: EnvironmentId, arm: Pick<ArmResult, "trials" | "tasks" | "successByTrial">): PaperCurveNotes {
  const none: PaperCurveNotes = { unrecorded: null, reported: null };
  if (!provenance || provenance.kind !== "paper-log") return none;
  const trials = arm.successByTrial.length;
  if (environment === "code" && trials > 1 && provenance.notes.some((note) => INFERRED_ITERATIONS.test(note))) {
    return {
      unrecorded: { fromTrial: 1, toTrial: trials - 1, note: "not recorded in the logs: the trial of first success is inferred from the number of reflections (only the final verdict was published)." },
      reported: null,
    };
  }
  if (environment === "household" && /reflexion_run_logs/.test(provenance.source)) {
    return { unrecorded: null, reported: { trial: 12, solved: 130, tasks: 134, label: "paper: 130/134 by trial 12" } };
  }
  return none;
}
