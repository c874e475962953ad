import type { ActionParse, StepResult, SyncEpisode } from "@/lib/domain/environment";
import { OPEN_ACTION_FORM } from "./prompts";

/** What the Actor sees after submitting an answer. */
export const SUBMITTED_OBSERVATION = "Answer submitted for judging.";

/**
 * One trial of an open task: `Finish[answer]` submits the answer (done); anything else is an
 * invalid action and the Actor may try again within the step budget. No world state; deterministic.
 */
export class OpenEpisode implements SyncEpisode {
  step(action: ActionParse): StepResult {
    if (action.ok && action.action.type === "Finish") return { observation: SUBMITTED_OBSERVATION, done: true, answer: action.action.argument };
    const why = action.ok ? `Invalid Action. Valid action: ${OPEN_ACTION_FORM}.` : action.error;
    return { observation: `${why} Write your whole answer inside Finish[...].`, done: false, answer: null };
  }
}
