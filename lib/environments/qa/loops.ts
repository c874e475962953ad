import type { Episode, TrajectoryStep, Verdict } from "@/lib/domain/environment";
import { displayAction, parseAction } from "./action-parser";
import { QaEpisode } from "./environment";
import { evaluateQa, NO_ANSWER_FEEDBACK } from "./exact-match";
import { DEFAULT_LOOP_RULES, detectLoop, foldActionText, type ActionReading, type LoopHalt, type LoopRules } from "./loop-rules";
import type { QaTask } from "./task";

/**
 * The QA family's early stops: the household family's loop rules (loop-rules.ts;
 * the paper's ALFWorld heuristic, reference §3.5) applied to Search / Lookup /
 * Finish. The HotpotQA reference has none — its agent repeats a failed Search
 * until the 6-step budget runs out (§2.5; the reference's own reflection
 * example is such a "stuck in a search loop" trial) — so this is our addition:
 * a looping trial halts as soon as the loop is certain, and the reason reaches
 * the Self-Reflection model through the Evaluator's feedback.
 */

/**
 * The query a failed Search echoes (`Could not find [x]. Similar: [...]`, the
 * reference's wording, environment.ts `notFoundObservation`): lazy, so a query
 * holding brackets (`List [x]`) is taken up to the `]. Similar: ` that closes it.
 */
const echoedQuery = /^(\s*Could not find \[)[^]*?(\]\. Similar: )/u;

/**
 * How QA actions compare: by the parsed action, the verb in any case and the
 * argument without case, extra spaces or trailing punctuation
 * (`search[ Dunmere. ]` ≡ `Search[Dunmere]`); text that does not parse compares
 * as text, folded the same way. Quoted as `Search[Dunmere]`. Observations
 * compare without the query a failed Search echoes, and the stall rule groups
 * actions by verb, so three failed Searches for different queries that get the
 * same suggestion list end the trial.
 */
export const qaActionReading: ActionReading = {
  key(actionText) {
    const parsed = parseAction(actionText);
    if (parsed.ok) return `${parsed.action.type.toLowerCase()}[${foldActionText(parsed.action.argument)}]`;
    return foldActionText(actionText);
  },
  display: displayAction,
  observationKey: (_actionText, observation) => observation.replace(echoedQuery, "$1$2"),
  stallKey(actionText) {
    const parsed = parseAction(actionText);
    return parsed.ok ? parsed.action.type : null;
  },
};

/** The loop rules over QA steps (oldest first): the loop found at the last step, or null. */
export function detectQaLoop(steps: readonly { actionText: string; observation: string }[], rules: LoopRules = DEFAULT_LOOP_RULES): LoopHalt | null {
  return detectLoop(steps, qaActionReading, rules);
}

/** `EnvironmentFamily.earlyStop` for QA: the loop's sentence, or null. */
export function qaEarlyStop(steps: readonly TrajectoryStep[], rules: LoopRules = DEFAULT_LOOP_RULES): string | null {
  return detectQaLoop(steps, rules)?.message ?? null;
}

/**
 * Judges a QA trial: exact match ({@link evaluateQa}), and when the trial
 * ended without an answer and its last steps loop, the loop's sentence —
 * the same one {@link qaEarlyStop} gave the engine as the halt reason — is
 * added to the feedback (`No answer: the trial ended without Finish[...]. The
 * same action …`), so the trial end and the evaluation give one reason.
 * `details.halt` is `{ kind, message }` or null.
 */
export function evaluateQaTrial(task: QaTask, answer: string | null, episode: Episode, rules: LoopRules = DEFAULT_LOOP_RULES): Verdict {
  const verdict = evaluateQa(task, answer);
  const loop = answer === null && episode instanceof QaEpisode ? detectQaLoop(episode.history, rules) : null;
  const halt = loop === null ? null : { kind: loop.kind, message: loop.message };
  const feedback = halt === null ? verdict.feedback : `${NO_ANSWER_FEEDBACK}. ${halt.message}`;
  return { ...verdict, feedback, details: { ...verdict.details, halt } };
}
