import type { RunConfig, Strategy } from "@/lib/domain/config";
import type { EnvironmentFamily, TrajectoryStep } from "@/lib/domain/environment";
import { fitReflectionInput, shortenLongObservations, shrinkToFit, type ShrinkResult } from "@/lib/domain/context-budget";
import type { ChatMessage } from "@/lib/domain/events";
import { foldLineBreaks } from "@/lib/domain/linear-text";
import type { StepView, TrialView } from "@/lib/domain/fold-run";
import type { TextMeasure } from "@/lib/domain/trajectory-budget";
import { renderTemplate } from "./render-template";
import { strategyBehaviour, supportedStrategiesOf } from "./strategies";

/** Trajectories of ended trials, per folded trial object (see {@link trajectoryOf}). */
const endedTrajectories = new WeakMap<TrialView, { steps: TrialView["steps"]; length: number; last: StepView; trajectory: readonly TrajectoryStep[] }>();

function buildTrajectory(trial: TrialView): TrajectoryStep[] {
  const out: TrajectoryStep[] = [];
  for (const step of trial.steps) {
    if (step.observation === null) continue;
    out.push({
      step: step.step,
      thought: step.thought?.text ?? "",
      actionText: step.action?.text ?? "",
      observation: step.observation.text,
      state: step.observation.state ?? null,
    });
  }
  return out;
}

/**
 * The recorded steps of a trial that have an observation, in the shape templates render.
 *
 * An ended trial's trajectory is computed once per folded trial object and then
 * shared (frozen): the engine folds incrementally, so every later step of a long
 * run asks again for every earlier trial (memory slots, episode restore), and
 * rebuilding them all made the per-step cost grow with the run. The cache is
 * checked against the trial's steps array, its length and its last step, and a
 * trial still in progress is always rebuilt.
 */
export function trajectoryOf(trial: TrialView): readonly TrajectoryStep[] {
  const last = trial.steps.at(-1);
  if (trial.outcome === null || last === undefined) return buildTrajectory(trial);
  const cached = endedTrajectories.get(trial);
  if (cached && cached.steps === trial.steps && cached.length === trial.steps.length && cached.last === last) return cached.trajectory;
  const trajectory = Object.freeze(buildTrajectory(trial).map((step) => Object.freeze(step)));
  endedTrajectories.set(trial, { steps: trial.steps, length: trial.steps.length, last, trajectory });
  return trajectory;
}

/**
 * The Actor's `{memory}` slot for a trial, in the reference's order (§2.7):
 * the previous trial's block (strategies that include the last attempt, from
 * trial 2 on, when the family can render it), then the reflections the trial
 * started with (`TrialView.memory`, already windowed by the strategy at
 * `trial-start`). The previous trial's long observations are shortened
 * (`shortenLongObservations`, docs/decisions/0016) before the family fits it to its budget. Either part may be empty; both empty gives `""`, so trial 1
 * renders the same prompt under every strategy that shares a template.
 *
 * @param previousTrial trial n − 1 of the folded state (`RunState.trials`), or null for trial 1.
 */
export function renderMemorySlot<Task>(
  config: RunConfig,
  family: EnvironmentFamily<Task>,
  task: Task,
  trial: TrialView,
  previousTrial: TrialView | null,
): string {
  const behaviour = strategyBehaviour(config.strategy);
  const lastAttempt =
    behaviour.includesLastAttempt && previousTrial !== null && family.renderLastAttempt
      ? family.renderLastAttempt(task, shortenLongObservations(trajectoryOf(previousTrial)))
      : "";
  return lastAttempt + family.renderMemory(trial.memory, { afterLastAttempt: lastAttempt !== "" });
}

/**
 * A tighter fit for one prompt, after a provider's context-length error: the
 * whole prompt is brought to at most `target` tokens by `measure` (the model's
 * tokenizer) with {@link shrinkToFit} — longest observations first, then the
 * oldest steps; the task, the examples and the memory are never cut.
 */
export interface PromptFit {
  target: number;
  measure: TextMeasure;
}

/** A built prompt and, when a {@link PromptFit} was asked for, what shrinking did. */
export interface BuiltPrompt {
  messages: ChatMessage[];
  shrink: ShrinkResult | null;
}

/**
 * The Actor prompt for step `step` of `trial`: the run's Actor template with the
 * family's variables for the run's strategy, the memory slot (`{memory}`, see
 * {@link renderMemorySlot}) and the scratchpad so far ending in the step prefix
 * (`{scratchpad}`). Sent as one user message, as the completion-style reference
 * prompts are.
 *
 * Observations over `OBSERVATION_TOKEN_LIMIT` tokens are shortened, with a
 * visible marker, in every prompt after the step that produced them — the
 * very next one included (lib/domain/context-budget.ts; the `step-observation`
 * event keeps the full text).
 *
 * @param previousTrial trial n − 1 of the folded state (`RunState.trials`); needed by
 *   `last-attempt` and `last-attempt-and-reflexion`, ignored by the other strategies.
 *   Omitted or null: no previous-trial block.
 * @param allTrials every trial of the folded state; families with `actorVariables`
 *   read the earlier ones (the code family's internal tests and previous implementation).
 *   Defaults to `[previousTrial]`.
 */
export function buildActorMessages<Task>(
  config: RunConfig,
  family: EnvironmentFamily<Task>,
  task: Task,
  trial: TrialView,
  step: number,
  previousTrial: TrialView | null = null,
  allTrials: readonly TrialView[] = previousTrial ? [previousTrial] : [],
): ChatMessage[] {
  return buildActorPrompt(config, family, task, trial, step, previousTrial, allTrials).messages;
}

/** {@link buildActorMessages}, optionally shrunk to a {@link PromptFit}; also says what shrinking did. */
export function buildActorPrompt<Task>(
  config: RunConfig,
  family: EnvironmentFamily<Task>,
  task: Task,
  trial: TrialView,
  step: number,
  previousTrial: TrialView | null = null,
  allTrials: readonly TrialView[] = previousTrial ? [previousTrial] : [],
  fit: PromptFit | null = null,
): BuiltPrompt {
  const memory = renderMemorySlot(config, family, task, trial, previousTrial);
  // Only families with `actorVariables` read the earlier trials: skip the walk over the whole run otherwise.
  const earlierTrials = family.actorVariables ? allTrials.filter((t) => t.trial < trial.trial).map((t) => shortenLongObservations(trajectoryOf(t))) : [];
  const render = (steps: readonly TrajectoryStep[]) =>
    renderTemplate(config.templates.actor.text, actorTemplateVariables(family, task, config.strategy, { trial: trial.trial, step, steps, earlierTrials, memory })).text;
  return fitted(shortenLongObservations(trajectoryOf(trial)), render, fit);
}

/** Renders `steps` with `render` as one user message, shrunk to `fit` when given. */
function fitted(steps: readonly TrajectoryStep[], render: (steps: readonly TrajectoryStep[]) => string, fit: PromptFit | null): BuiltPrompt {
  if (fit === null) return { messages: [{ role: "user", content: render(steps) }], shrink: null };
  const shrink = shrinkToFit(steps, render, fit.target, fit.measure);
  return { messages: [{ role: "user", content: render(shrink.steps) }], shrink };
}

/**
 * The values of the Actor template's placeholders for one step: the family's
 * variables for the strategy, `{memory}`, `{scratchpad}` (the steps so far and
 * the step prefix), then the family's `actorVariables`, which may replace any of
 * them. Shared by {@link buildActorMessages} and {@link templateVariableNames}.
 */
function actorTemplateVariables<Task>(
  family: EnvironmentFamily<Task>,
  task: Task,
  strategy: Strategy,
  at: { trial: number; step: number; steps: readonly TrajectoryStep[]; earlierTrials: ReadonlyArray<readonly TrajectoryStep[]>; memory: string },
): Record<string, string> {
  return {
    ...family.promptVariables(task, strategy),
    memory: at.memory,
    scratchpad: family.renderTrajectory(at.steps) + family.stepPrefix(at.step),
    ...family.actorVariables?.(task, { trial: at.trial, step: at.step, strategy, steps: at.steps, earlierTrials: at.earlierTrials }),
  };
}

/**
 * The Self-Reflection prompt after a failed trial: the reflector template with the
 * family's variables for the run's strategy, the trial's trajectory
 * (`{scratchpad}`) and the Evaluator's feedback (`{feedback}`). The trajectory
 * is trimmed the way the family's reference trims it ({@link fitReflectionInput},
 * the family's `reflectionTokenBudget`): long observations shortened, then for QA the
 * longest observations replaced until it is within 1600 tokens (§2.6, pitfall 8);
 * household and code send the whole trial, as ALFWorld's and the programming reference do.
 */
export function buildReflectorMessages<Task>(
  config: RunConfig,
  family: EnvironmentFamily<Task>,
  task: Task,
  trial: TrialView,
): ChatMessage[] {
  return buildReflectorPrompt(config, family, task, trial).messages;
}

/** {@link buildReflectorMessages}, optionally shrunk to a {@link PromptFit}; also says what shrinking did. */
export function buildReflectorPrompt<Task>(config: RunConfig, family: EnvironmentFamily<Task>, task: Task, trial: TrialView, fit: PromptFit | null = null): BuiltPrompt {
  const feedback = trial.evaluation?.feedback ?? "";
  const render = (steps: readonly TrajectoryStep[]) =>
    renderTemplate(config.templates.reflector.text, reflectorTemplateVariables(family, task, config.strategy, steps, feedback)).text;
  return fitted(fitReflectionInput(trajectoryOf(trial), (steps) => family.renderTrajectory(steps), family.reflectionTokenBudget ?? null), render, fit);
}

/** The values of the Self-Reflection template's placeholders: the family's variables, `{scratchpad}` and `{feedback}`. */
function reflectorTemplateVariables<Task>(
  family: EnvironmentFamily<Task>,
  task: Task,
  strategy: Strategy,
  steps: readonly TrajectoryStep[],
  feedback: string,
): Record<string, string> {
  return {
    ...family.promptVariables(task, strategy),
    scratchpad: family.renderTrajectory(steps),
    feedback,
  };
}

/**
 * The placeholder names the engine fills in a family's Actor and Self-Reflection
 * templates, sorted. Any other `{name}` is left in the prompt as literal text
 * (`renderTemplate`). Derived by building the same variables as
 * {@link buildActorMessages} and {@link buildReflectorMessages} for `task` (a
 * sample task of the family) under each strategy the family supports, for step 1
 * of trial 1 and of trial 2 (families such as code fill other names from trial 2).
 */
export function templateVariableNames<Task>(family: EnvironmentFamily<Task>, task: Task): { actor: string[]; reflector: string[] } {
  const actor = new Set<string>();
  const reflector = new Set<string>();
  for (const strategy of supportedStrategiesOf(family)) {
    for (const trial of [1, 2]) {
      const earlierTrials: TrajectoryStep[][] = Array.from({ length: trial - 1 }, () => []);
      const variables = actorTemplateVariables(family, task, strategy, { trial, step: 1, steps: [], earlierTrials, memory: "" });
      for (const name of Object.keys(variables)) actor.add(name);
    }
    for (const name of Object.keys(reflectorTemplateVariables(family, task, strategy, [], ""))) reflector.add(name);
  }
  return { actor: [...actor].sort(), reflector: [...reflector].sort() };
}

/**
 * The length in characters of the Actor prompt's stable prefix: the
 * template's text up to its first placeholder whose value can change within the run
 * (`{memory}`, `{scratchpad}`, or anything the family's `actorVariables` sets),
 * rendered with the family's `promptVariables` — typically the instructions and
 * few-shot examples. It is byte-identical in every Actor call of the run, so a
 * provider's prompt cache can serve it (Anthropic cache control is put on it by the
 * model port); the messages themselves are unchanged. 0 when the template starts
 * with a changing placeholder.
 */
export function actorCachePrefixChars<Task>(config: RunConfig, family: EnvironmentFamily<Task>, task: Task): number {
  const stable: Record<string, string> = { ...family.promptVariables(task, config.strategy) };
  delete stable.memory;
  delete stable.scratchpad;
  const changing = family.actorVariables?.(task, { trial: 1, step: 1, strategy: config.strategy, steps: [], earlierTrials: [] }) ?? {};
  for (const name of Object.keys(changing)) delete stable[name];
  const template = config.templates.actor.text;
  for (const match of template.matchAll(/\{([A-Za-z][A-Za-z0-9_]*)\}/g)) {
    const name = match[1] ?? "";
    // A name without a value stays literal text (renderTemplate), so it is stable too.
    const isChanging = name === "memory" || name === "scratchpad" || name in changing;
    if (isChanging) return renderTemplate(template.slice(0, match.index), stable).text.length;
  }
  return 0;
}

/** Reflections are kept to one paragraph: trimmed, inner newlines folded to spaces (reference §2.6). */
export function cleanReflection(text: string): string {
  return foldLineBreaks(text).trim();
}
