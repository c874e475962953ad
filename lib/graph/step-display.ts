import type { RunState } from "@/lib/domain/fold-run";
import type { EnvironmentId } from "@/lib/domain/config";
import { familyDescriptor } from "@/lib/environments/descriptors";

/**
 * How a step's parsed action and thought read in each family's own syntax, for
 * the graph's nodes and the inspector (decision 0020). Components show these
 * strings; they never branch on the family themselves.
 * - QA (ReAct on HotpotQA, reference §2.3): `Search[Alan Turing]`, `Finish[1912]`;
 *   a step always has a thought (`Thought n:`), empty when the model skipped it.
 * - Household (ALFWorld, reference §3.3): the command as ALFWorld reads it —
 *   `go to desk 1`, `take mug 1 from desk 1`, `look`, `think: …` — and no
 *   separate thought: reasoning is the `think:` action itself.
 * - Code: the verbs (`WriteTests[…]`, `Implement[…]`) keep the bracket form; their
 *   nodes show code (code-views.ts), and their steps have no thought.
 */

/** The run's environment family, or null before `run-start`. */
export function familyOf(state: Pick<RunState, "config">): EnvironmentId | null {
  return state.config?.environment ?? null;
}

/**
 * The parsed action in the family's syntax.
 *
 * @param family the run's family (null: not known yet, the bracket form).
 * @param actionType the parsed verb (`go to`, `think`, `Search`).
 * @param argument the parsed argument (`desk 1`, the thought's text, `Alan Turing`); `""` for none.
 * @returns e.g. `go to desk 1`, `think: the mug may be in a cabinet`, `look`, `Search[Alan Turing]`.
 */
export function actionDisplay(family: EnvironmentId | null, actionType: string, argument: string): string {
  if (family !== null && familyDescriptor(family).step.actionSyntax === "command") {
    if (familyDescriptor(family).step.thinkIsAction && actionType === "think") return argument === "" ? "think:" : `think: ${argument}`;
    return argument === "" ? actionType : `${actionType} ${argument}`;
  }
  return `${actionType}[${argument}]`;
}

/**
 * Whether a step gets a thought node: QA always (an empty thought is a fact worth
 * seeing: the model skipped `Thought n:`); household and code only when the model
 * wrote one — their actions are the whole completion (a household `think:` is an
 * action, drawn as such), so an empty thought there is no thought at all.
 */
export function showsThought(family: EnvironmentId | null, thoughtText: string): boolean {
  if (family === null || familyDescriptor(family).step.alwaysShowsThought) return true;
  return thoughtText.trim() !== "";
}

/**
 * Whether an action is the step's thought: a household `think: …` (ReAct's
 * ALFWorld prompts write reasoning as an action the world answers "OK."). The
 * graph marks such actions as thoughts instead of drawing a separate thought node.
 */
export function isThoughtAction(family: EnvironmentId | null, actionType: string): boolean {
  return family !== null && familyDescriptor(family).step.thinkIsAction && actionType === "think";
}

/**
 * The verb and the rest of a display string, for drawing the verb in bold:
 * `go to desk 1` → `["go to", " desk 1"]`, `Search[x]` → `["Search", "[x]"]`.
 * The verb is empty when the display does not start with it.
 */
export function splitDisplay(display: string, actionType: string | null): [verb: string, rest: string] {
  if (actionType !== null && actionType !== "" && display.startsWith(actionType)) return [actionType, display.slice(actionType.length)];
  return ["", display];
}
