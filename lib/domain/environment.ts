import type { EnvironmentId, PromptTemplate, Strategy } from "./config";
import type { HiddenTestReport } from "./code-trial";
import type { JudgeVerdict } from "./judge";
import type { ChatMessage, MemoryItem, ParsedAction } from "./events";

/**
 * The contract every task family implements (DESIGN.md §3). Everything here is
 * synchronous and deterministic so the engine can rebuild an episode's state by
 * replaying the recorded actions (that is how pause, resume and crash recovery work).
 */

/** The outcome of parsing one Actor completion: never thrown, always returned. */
export type ActionParse =
  | {
      ok: true;
      action: ParsedAction;
      text: string;
      /** What the reader dropped around the first well-formed action (trailing text, a second action, a made-up observation); shown as "ignored". */
      ignored?: string;
    }
  | { ok: false; error: string; text: string };

/** What the Actor's single completion for a step splits into. */
export interface StepCompletion {
  /** The reasoning text, without its `Thought n:` label. Empty when the model gave none. */
  thought: string;
  /** The first action line, without its `Action n:` label. Empty when the model gave none. */
  actionText: string;
  /**
   * Reasoning blocks the model wrote (`<think>…</think>` and the like), taken
   * out of the completion: shown collapsed, never parsed for actions and never
   * put into later prompts. Absent or empty when there were none.
   */
  reasoning?: string;
  /** Text after the action line that the reader dropped (e.g. an `Observation` the model wrote itself). */
  ignored?: string;
}

/** The result of executing one action in an episode. */
export interface StepResult {
  observation: string;
  /** True when the episode is over (a final answer was given). */
  done: boolean;
  /** The submitted answer when `done` came from a final action, else null. */
  answer: string | null;
  /**
   * A small snapshot of the world after the step for the UI (e.g. the agent's
   * location and inventory in the household family). Optional; JSON only.
   */
  state?: Record<string, unknown>;
}

/**
 * A live episode of one task. Not shared between trials. `step` may be async for
 * families whose actions run somewhere else (code runs in the sandbox).
 */
export interface Episode {
  step(action: ActionParse): StepResult | Promise<StepResult>;
}

/** Where an action sits in the run: the code family reads the same text as tests or as an implementation depending on it. */
export interface ActionContext {
  trial: number;
  step: number;
  /**
   * The trial's recorded steps before this one, when the caller has them: a
   * family whose action kind depends on what happened (code: tests are asked
   * again when none was runnable) reads them; without them it assumes step 1's shape.
   */
  steps?: readonly TrajectoryStep[];
}

/** How a trial is judged: gold answer, the environment's own success flag, unit tests, or an LLM judge. */
export type EvaluatorKind = "exact-match" | "environment-success" | "unit-tests" | "llm-judge" | "trace-score";

/** A judged trial (DESIGN.md §1 `evaluation-end`). */
export interface Verdict {
  verdict: "pass" | "fail";
  score: number;
  feedback: string;
  evaluatorKind: EvaluatorKind;
  /** True when the evaluator used the gold answer: shown in the UI as an oracle signal. */
  oracle: boolean;
  details: Record<string, unknown>;
  /** Code tasks: the hidden tests' report (not shown to the agent); absent elsewhere. */
  hiddenTests?: HiddenTestReport | null;
  /** Code tasks: internal tests passed, hidden tests failed. */
  falsePositive?: boolean;
  /** LLM-judge Evaluators (`open`): per-criterion scores, weighted score vs threshold, the judge call; absent elsewhere. */
  judge?: JudgeVerdict | null;
}

/**
 * One judge call as the engine made it for a family's Evaluator: the completion's text, the
 * recorded `model-call-end`'s `callId` (so the verdict can name the call whose prompt the
 * inspector shows) and the model that answered (`provider:model`).
 */
export interface JudgeReply {
  text: string;
  callId: string;
  modelId: string;
}

/**
 * What the engine lends an Evaluator that calls a model ({@link EnvironmentFamily.evaluatorUsesModel}):
 * `judge(messages)` makes one call with role `evaluator` and the run's Evaluator model
 * (`RunConfig.models.evaluator`, else the Actor's) through the same model port as every other call
 * (response cache, recorded replay, retries), and records its `model-call-end` before the verdict.
 * `template` is the run's judge template (`RunConfig.templates.evaluator`), or null for the family's default.
 */
export interface EvaluationContext {
  judge(messages: ChatMessage[]): Promise<JudgeReply>;
  template: { id: string; version: number; text: string } | null;
  /** The trial being judged (1-based). */
  trial: number;
}

/** A recorded step, as the prompts render it. */
export interface TrajectoryStep {
  step: number;
  thought: string;
  actionText: string;
  observation: string;
  /** The observation's recorded `state` snapshot, when the family wrote one. */
  state?: Record<string, unknown> | null;
}

/**
 * What a family may use to render the Actor prompt of one step
 * ({@link EnvironmentFamily.actorVariables}).
 */
export interface ActorPromptContext {
  trial: number;
  step: number;
  strategy: Strategy;
  /** This trial's recorded steps so far. */
  steps: readonly TrajectoryStep[];
  /** The recorded steps of trials 1 … trial − 1, oldest first. */
  earlierTrials: ReadonlyArray<readonly TrajectoryStep[]>;
}

/** A short description of a task for lists and the run header. */
export interface TaskSummary {
  id: string;
  /** One line: the question, the function name, the goal. */
  title: string;
  /** The gold answer or similar, shown only where the UI labels it as such. */
  reference: string | null;
  /** Where the task takes place, when the family has such a thing (the household's opening room text). */
  setting?: string | null;
}

/**
 * How the engine asks a family to render the reflections (`renderMemory`).
 * Every field is optional, so a family may ignore the whole object.
 */
export interface MemoryRenderOptions {
  /**
   * True when the previous trial's block ({@link EnvironmentFamily.renderLastAttempt})
   * comes right before the reflections in `{memory}` (strategy
   * `last-attempt-and-reflexion`): the reference then uses a shorter header
   * without "you attempted this before" (reference §2.7).
   */
  afterLastAttempt?: boolean;
}

/** What a family may know when it starts an episode. Every field is optional. */
export interface EpisodeOptions {
  /**
   * The run's memory strategy. The QA family uses it to take the tools away
   * under the chain-of-thought strategies (`Search`/`Lookup` become invalid
   * actions, as in the reference's CoT agent, §2.8).
   */
  strategy?: Strategy;
  /** The trial this episode belongs to (1-based). */
  trial?: number;
  /**
   * The recorded steps of the earlier trials, oldest first (the code family reads
   * the internal tests written in trial 1 from them).
   */
  earlierTrials?: ReadonlyArray<readonly TrajectoryStep[]>;
}

/** The Actor and Self-Reflection templates a run uses. */
export interface StrategyTemplates {
  actor: PromptTemplate;
  reflector: PromptTemplate;
}

/**
 * A task family. `Task` is the family's own validated task type.
 * Prompt rendering lives in the engine; the family supplies the variables.
 */
export interface EnvironmentFamily<Task = unknown> {
  id: EnvironmentId;
  /** Validates a task snapshot (from `RunConfig.task`). Throws `AppError("invalid-dataset")`. */
  parseTask(json: unknown): Task;
  summarize(task: Task): TaskSummary;
  /** Splits a completion into thought and first action; drops anything the model invented after it. */
  splitCompletion(completion: string): StepCompletion;
  /** Total parser: never throws. `context` tells where the action sits (optional; most families ignore it). */
  parseAction(actionText: string, context?: ActionContext): ActionParse;
  /** A fresh episode for one trial. `options` is optional (families may ignore it). */
  startEpisode(task: Task, options?: EpisodeOptions): Episode;
  /**
   * Judges a finished or halted trial. `answer` is null when the trial halted
   * without one; `episode` is the trial's episode with every recorded action
   * replayed (for families whose success is a world state, not an answer).
   */
  evaluate(task: Task, answer: string | null, episode: Episode, context?: EvaluationContext): Verdict | Promise<Verdict>;
  /**
   * True when the Evaluator calls a model (an LLM judge, the `open` family): the engine then passes
   * an {@link EvaluationContext} to {@link evaluate}, and forms show the Evaluator's model picker
   * (`RunConfig.models.evaluator`). Absent or false: the Evaluator needs no model (QA, household, code).
   */
  evaluatorUsesModel?: boolean;
  /** The judge's built-in template (families with {@link evaluatorUsesModel}); the run's `templates.evaluator` replaces it. */
  defaultJudgeTemplate?: { id: string; version: number; text: string };
  /** The judge's first prompt for `answer` with `templateText`, exactly as {@link evaluate} sends it (the template preview renders it). */
  judgeMessages?(task: Task, answer: string, templateText: string): ChatMessage[];
  /** The placeholders the judge template is filled with, sorted. */
  judgeVariableNames?: readonly string[];
  /**
   * Rebuilds a trial's episode from its recorded steps (observations and states)
   * without executing anything again. Optional: families without it are rebuilt by
   * replaying the recorded actions through {@link startEpisode}, which must then be
   * deterministic. Families whose steps are expensive or not repeatable (code run
   * in the sandbox) implement it.
   */
  restoreEpisode?(task: Task, steps: readonly TrajectoryStep[], options: EpisodeOptions): Episode;
  /**
   * Extra Actor-prompt variables for one step, applied after the generic ones (so
   * a family may replace `scratchpad`). Optional. The code family uses it to ask
   * for tests or for an implementation and to show the previous implementation.
   */
  actorVariables?(task: Task, context: ActorPromptContext): Record<string, string>;
  /**
   * Evaluator heuristics that end a trial early (e.g. the same action and
   * observation three times in a row). Called after every step with the steps so
   * far; returns the reason to halt now, or null. Optional.
   */
  earlyStop?(steps: readonly TrajectoryStep[]): string | null;
  /** The family's default step budget per trial (QA: 6, the HotpotQA reference). */
  defaultMaxStepsPerTrial?: number;
  /**
   * The Self-Reflection input (the failed trial's trajectory) is trimmed to this many tokens, as
   * the family's reference does (HotpotQA: 1600, reference §2.6; lib/domain/context-budget.ts
   * `fitReflectionInput`). Absent: the whole trial is sent, as ALFWorld's `generate_reflections.py`
   * (§3.6) and the programming loop (§4) do; long observations are shortened either way.
   */
  reflectionTokenBudget?: number;
  /**
   * A step budget that replaces any requested one (code: 2, tests then the
   * implementation; a trial's shape is fixed there). Optional.
   */
  fixedStepsPerTrial?: number;
  /** The family's default memory window Ω when the request gives none (code: 1, as in the paper's programming runs). */
  defaultMemoryWindow?: number | null;
  /** Output-token limits per role when they differ from the app's defaults (code: 1024, the reference's `max_tokens`). */
  maxOutputTokens?: { actor?: number; reflector?: number; evaluator?: number };
  /**
   * Values for the Actor and Self-Reflection templates' placeholders (e.g.
   * `question`, `examples`). `strategy` (optional) lets a family give
   * strategy-specific values: the QA family's CoT examples under `cot`, and
   * `context` (the supporting paragraphs) under `cot-gold-context`.
   */
  promptVariables(task: Task, strategy?: Strategy): Record<string, string>;
  /**
   * The placeholders every Actor / Self-Reflection template of this family must use: the task
   * and the trajectory (e.g. QA `question`, `scratchpad`). A template edit that leaves one out is
   * refused unless the caller allows it explicitly (lib/domain/template-check.ts). Absent: none.
   */
  requiredTemplateVariables?: { actor: readonly string[]; reflector: readonly string[] };
  /**
   * Self-Refine's feedback and refine templates for this family (lib/domain/self-refine.ts). They are
   * filled with the family's `promptVariables`, `{task}` (the task's one-line summary), `{answer}`
   * ({@link renderAnswer}) and, for refine, `{feedback}`. Absent: the generic templates there.
   */
  refineTemplates?: { feedback: { id: string; version: number; text: string }; refine: { id: string; version: number; text: string } };
  /** An answer as Self-Refine's templates show it (code: a fenced block in the task's language). Absent: the answer as it is. */
  renderAnswer?(task: Task, answer: string): string;
  /**
   * The answer a Self-Refine refine completion gives (code: the fenced block's code; QA: the
   * argument of a `Finish[…]` if the model wrote one). Absent: the completion, trimmed. An empty
   * result means the completion held no answer (it is asked for again).
   */
  readRefinedAnswer?(completion: string): string;
  /** The default templates for this family (ids and versions included). */
  defaultTemplates: { actor: { id: string; version: number; text: string }; reflector: { id: string; version: number; text: string } };
  /**
   * The methods that run only on families that name them (method descriptor `families: "listed"`)
   * which this family runs: the QA family's CoT Actors. Every `families: "all"` method runs on
   * every family anyway (`supportedStrategiesOf`, lib/domain/strategies.ts). Absent: none.
   */
  ownStrategies?: readonly Strategy[];
  /**
   * The templates for a strategy (e.g. the QA family's CoT templates under
   * `cot`). Absent, or for strategies without their own: {@link defaultTemplates}.
   */
  templatesFor?(strategy: Strategy): StrategyTemplates;
  /**
   * The previous trial's block for the Actor's `{memory}` slot under
   * `last-attempt` and `last-attempt-and-reflexion` (the paper's EPM): a header,
   * the task, the trial's trajectory with long observations truncated, the
   * marker `(END PREVIOUS TRIAL)` and a blank line. Families without it cannot
   * run those strategies.
   */
  renderLastAttempt?(task: Task, steps: readonly TrajectoryStep[]): string;
  /** Renders the scratchpad of steps so far, e.g. `\nThought 1: …\nAction 1: …\nObservation 1: …`. */
  renderTrajectory(steps: readonly TrajectoryStep[]): string;
  /** Renders the reflections block for the Actor prompt; empty string when there is no memory. */
  renderMemory(memory: readonly MemoryItem[], options?: MemoryRenderOptions): string;
  /** The label the Actor's completion starts after, for step `n`, with its leading newline (e.g. `\nThought 3:`). */
  stepPrefix(step: number): string;
  /** Stop sequences for the Actor call (e.g. `\nObservation`). */
  actorStopSequences: string[];
}

/** An episode whose steps complete synchronously (QA, household). */
export interface SyncEpisode extends Episode {
  step(action: ActionParse): StepResult;
}

/**
 * A family whose episodes and evaluator are synchronous and deterministic (QA,
 * household): the engine may rebuild its episodes by replaying actions, and
 * tests can drive it without awaiting.
 */
export interface SyncEnvironmentFamily<Task = unknown> extends EnvironmentFamily<Task> {
  startEpisode(task: Task, options?: EpisodeOptions): SyncEpisode;
  evaluate(task: Task, answer: string | null, episode: Episode): Verdict;
}
