import type { RunEvent } from "@/lib/domain/events";
import { foldRun } from "@/lib/domain/fold-run";

/**
 * A lesson played on a fork (after "Run trial N+1 with mine", or any branch of the lesson's run):
 * its narration was written for the model's own run (the root branch). What differs, and where a
 * step's moment sits on the fork's own log. Pure: no React.
 */

/** How the fork shown differs from the model's run: the trial whose reflection it replaced, both texts, and each run's next trial. */
export interface ForkDifference {
  /** The trial whose reflection differs (the fork's edit), or null when the fork changed no reflection (another edit). */
  trial: number | null;
  /** The fork's text of that reflection (the learner's), and the model's. */
  yours: string | null;
  model: string | null;
  /** What the trial after it did on the fork and in the model's run: "succeeded", "failed", "was halted", "is still running", "has not started". */
  yourNext: string;
  modelNext: string;
}

function nextTrialWords(outcome: string | null | undefined, exists: boolean, ended: boolean): string {
  if (!exists) return ended ? "did not run" : "has not started yet";
  switch (outcome) {
    case "success":
      return "succeeded";
    case "failure":
      return "failed";
    case "halted":
      return "was halted";
    case null:
    case undefined:
      return ended ? "stopped unfinished" : "is still running";
    default:
      return outcome;
  }
}

/**
 * What differs between the fork's log and the model's run (`main`, the root branch's log). The
 * reflection compared is the first whose text differs (edits applied), else the one at the fork point.
 */
export function forkDifference(main: readonly RunEvent[], fork: readonly RunEvent[]): ForkDifference {
  const mainState = foldRun(main);
  const forkState = foldRun(fork);
  const differing = forkState.trials.find((trial) => {
    const model = mainState.trials.find((candidate) => candidate.trial === trial.trial)?.reflection?.text ?? null;
    return trial.reflection !== null && trial.reflection.text !== model;
  });
  const trial = differing?.trial ?? null;
  const next = trial === null ? null : trial + 1;
  const yourTrial = next === null ? undefined : forkState.trials.find((candidate) => candidate.trial === next);
  const modelTrial = next === null ? undefined : mainState.trials.find((candidate) => candidate.trial === next);
  return {
    trial,
    yours: differing?.reflection?.text ?? null,
    model: trial === null ? null : (mainState.trials.find((candidate) => candidate.trial === trial)?.reflection?.text ?? null),
    yourNext: nextTrialWords(yourTrial?.outcome, yourTrial !== undefined, forkState.status === "ended"),
    modelNext: nextTrialWords(modelTrial?.outcome, modelTrial !== undefined, mainState.status === "ended"),
  };
}

const shorten = (text: string, max = 160) => (text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text);

/**
 * The note a step shows on a fork (Markdown, plain text quoted): that its narration describes the
 * model's own run, and what differs — "trial 1's reflection is yours (“…”), not the model's; on your
 * fork trial 2 succeeded, in the model's run it succeeded".
 */
export function forkNote(difference: ForkDifference): string {
  const lead = "This narration describes the model's own run; you are on your fork";
  if (difference.trial === null || difference.yours === null) return `${lead}, whose log differs from it after the fork point.`;
  const next = difference.trial + 1;
  return `${lead} — trial ${difference.trial}'s reflection is yours (“${shorten(difference.yours)}”), not the model's. On your fork trial ${next} ${difference.yourNext}; in the model's run it ${difference.modelNext}.`;
}

/**
 * The least cursor a step may set on a fork: just past the fork's own first events (`branch-start`
 * and the edits right after it), so a step pointing before the fork point still shows the learner's
 * reflection rather than the model's. 0 on a log with no `branch-start` (the root branch).
 */
export function forkFloor(events: readonly RunEvent[]): number {
  const start = events.findIndex((event) => event.type === "branch-start");
  if (start === -1) return 0;
  let floor = start + 1;
  while (floor < events.length && events[floor]!.type.endsWith("-edit")) floor += 1;
  return floor;
}
