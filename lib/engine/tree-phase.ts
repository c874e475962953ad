import { DEFAULT_LATS_SETTINGS, type LatsSettings, type ModelSettings, type RunConfig } from "@/lib/domain/config";
import type { EnvironmentFamily, TrajectoryStep } from "@/lib/domain/environment";
import { draft, type ChatMessage, type EventDraft, type MemoryItem } from "@/lib/domain/events";
import type { RunState, TrialView } from "@/lib/domain/fold-run";
import { pathSteps } from "@/lib/domain/fold-tree";
import { asCallId } from "@/lib/domain/ids";
import { LATS_VALUE_TEMPLATE, parseValueScore, renderValueReflections } from "@/lib/domain/lats-value";
import { emptyTree, expansionNodeId, pathTo, selectPath, TREE_ROOT_ID, type TreeNodeView, type TreeSearchView } from "@/lib/domain/tree-search";
import { EpisodeCache } from "./episode-cache";
import { callModel, abortable, type EngineResponse, type ModelCallContext } from "./model-calls";
import type { ModelRequest } from "./ports";
import { actorCachePrefixChars, buildActorMessages, trajectoryOf } from "./prompts";
import { renderTemplate } from "./render-template";
import { MAX_COMPLETION_ATTEMPTS } from "./completion-checks";

/**
 * The tree-search part of a LATS trial (Zhou et al. 2024, §4 and Algorithm 1; docs/decisions/0036):
 * what the engine does before the trial's rollout (select a path by UCT, expand its leaf with n
 * sampled Actor steps, value each child with the value prompt, follow the best) and after its verdict
 * (backpropagate the reward). The rollout itself, the Evaluator and the Self-Reflection are the
 * engine's ordinary trial steps (lib/engine/run-engine.ts). Like every decision of the engine, the
 * next tree action is read from the folded log alone, so a LATS run pauses, resumes, replays and
 * forks like any other.
 */

/** The tree actions the engine performs (lib/engine/decide.ts returns them for tree-search methods). */
export type TreeAction =
  | { kind: "tree-select"; trial: number }
  | { kind: "tree-expand"; trial: number; leaf: string }
  | { kind: "tree-value"; trial: number; nodes: string[] }
  | { kind: "tree-follow"; trial: number; path: string[] }
  | { kind: "tree-backprop"; trial: number; path: string[]; reward: number };

/** The run's LATS settings, or the defaults. */
export function latsSettingsOf(config: Pick<RunConfig, "lats">): LatsSettings {
  return config.lats ?? DEFAULT_LATS_SETTINGS;
}

/**
 * The tree action an open trial needs before its rollout, or null when the tree phase is done
 * (the trial's steps hold the followed path) or the tree is exhausted (`{ exhausted: true }`).
 */
export function treeActionBeforeRollout(state: RunState, trial: TrialView): TreeAction | { exhausted: true } | null {
  const config = state.config!;
  const tree = state.tree;
  const iteration = tree?.iterations.find((it) => it.trial === trial.trial);
  if (!tree || !iteration) {
    const path = selectPath(tree ?? emptyTree(), latsSettingsOf(config).exploration, config.maxStepsPerTrial);
    return path === null ? { exhausted: true } : { kind: "tree-select", trial: trial.trial };
  }
  // Followed: the rollout is ordinary Actor steps.
  if (iteration.followed) return null;
  const leafId = iteration.selected.at(-1)!;
  const leaf = tree.nodes.get(leafId)!;
  // An unjudged final answer sampled earlier: the trial ends there, and the Evaluator judges it.
  if (leaf.done) return { kind: "tree-follow", trial: trial.trial, path: iteration.selected };
  const fresh = childrenOf(tree, leaf).filter((child) => child.iteration === trial.trial && child.origin === "expansion");
  if (fresh.length === 0) return { kind: "tree-expand", trial: trial.trial, leaf: leafId };
  const unvalued = fresh.filter((child) => child.estimateCallId === null);
  if (unvalued.length > 0) return { kind: "tree-value", trial: trial.trial, nodes: unvalued.map((child) => child.id) };
  return { kind: "tree-follow", trial: trial.trial, path: [...iteration.selected, bestChild(fresh).id] };
}

/** After a judged trial: the backpropagation it still needs, or null. */
export function treeActionAfterTrial(state: RunState, trial: TrialView): TreeAction | null {
  const iteration = state.tree?.iterations.find((it) => it.trial === trial.trial);
  if (!iteration || iteration.reward !== null || trial.outcome === null) return null;
  return { kind: "tree-backprop", trial: trial.trial, path: iteration.path, reward: trial.outcome === "success" ? 1 : 0 };
}

/** Whether selection has nothing left to expand (every subtree ended or hit the depth limit). */
export function treeExhausted(state: RunState): boolean {
  const config = state.config;
  if (!config || !state.tree) return false;
  return selectPath(state.tree, latsSettingsOf(config).exploration, config.maxStepsPerTrial) === null;
}

function childrenOf(tree: TreeSearchView, node: TreeNodeView): TreeNodeView[] {
  return node.children.flatMap((id) => tree.nodes.get(id) ?? []);
}

/** The child the rollout follows: the highest estimate (none counts as 0), the earlier on a tie. */
function bestChild(children: TreeNodeView[]): TreeNodeView {
  return children.reduce((best, child) => ((child.estimate ?? 0) > (best.estimate ?? 0) ? child : best));
}

/**
 * The seed of sample k (1-based) of an expansion: the Actor's seed (0 without one) times 1000 plus k,
 * so the n samples are distinct requests (each its own cache entry) and the same on replay.
 */
export function sampleSeed(actorSeed: number | undefined, k: number): number {
  return ((actorSeed ?? 0) * 1000 + k) % 2_147_483_647;
}

/**
 * The Actor's settings for a rollout step of trial `trial` (paper §4 "Simulation": the rollout
 * samples from the same policy as the expansion): the settings of the sample that produced the
 * followed child — the sampling temperature and that sample's seed — so a rollout continues the way
 * its child was drawn. Null outside a tree-search trial that followed one of its own expansion's
 * children (the Actor's own settings then).
 */
export function rolloutSettings(state: RunState, trial: number): ModelSettings | null {
  const config = state.config;
  const iteration = state.tree?.iterations.find((it) => it.trial === trial);
  if (!config || !iteration?.followed) return null;
  const prefix = `t${trial}.e`;
  const child = iteration.path.find((id) => id.startsWith(prefix));
  const k = child === undefined ? NaN : Number(child.slice(prefix.length));
  if (!Number.isInteger(k)) return null;
  const base = config.models.actor;
  return { ...base, temperature: latsSettingsOf(config).sampleTemperature, seed: sampleSeed(base.seed, k) };
}

/**
 * The value prompt (role `value`) for a trajectory: the template with `{task}` (the family's one-line
 * task and its setting), `{trajectory}` (the steps as the family renders them) and `{reflections}`
 * (the trial's reflections, or nothing), as one user message. Also what the template workbench previews.
 */
export function buildValueMessages<Task>(templateText: string, family: EnvironmentFamily<Task>, task: Task, memory: readonly MemoryItem[], steps: readonly TrajectoryStep[]): ChatMessage[] {
  const summary = family.summarize(task);
  const text = renderTemplate(templateText, {
    task: summary.setting ? `${summary.title}\n${summary.setting}` : summary.title,
    trajectory: family.renderTrajectory(steps),
    reflections: renderValueReflections(memory),
  }).text;
  return [{ role: "user", content: text }];
}

/** What performing a tree action needs from the engine. */
export interface TreePerformContext extends ModelCallContext {
  newId: () => string;
  append: (drafts: EventDraft[]) => Promise<void>;
  /** Builds the `model-call-end` draft of a call (run-engine's `callEnd`). */
  callEnd: (eventId: string, callId: ReturnType<typeof asCallId>, request: ModelRequest, response: EngineResponse, trial: number, step: number | null) => EventDraft;
}

/**
 * A call context whose request counts include the calls made earlier in the same batch: two
 * identical requests of one batch (two children whose value prompts render the same) are then
 * occurrences 1 and 2, as the fold counts them once appended, so a recorded replay serves each its own
 * response.
 */
function batchContext(context: TreePerformContext): { context: TreePerformContext; made: (response: EngineResponse) => void } {
  const counts: Record<string, number> = { ...context.requestCounts };
  return {
    context: { ...context, requestCounts: counts },
    made: (response) => {
      counts[response.requestHash] = (counts[response.requestHash] ?? 0) + 1;
    },
  };
}

/** Performs one tree action and appends its events in one batch. */
export async function performTreeAction<Task>(
  action: TreeAction,
  state: RunState,
  family: EnvironmentFamily<Task>,
  task: Task,
  context: TreePerformContext,
): Promise<void> {
  const config = state.config!;
  const settings = latsSettingsOf(config);
  switch (action.kind) {
    case "tree-select": {
      const path = selectPath(state.tree ?? emptyTree(), settings.exploration, config.maxStepsPerTrial) ?? [TREE_ROOT_ID];
      await context.append([draft("tree-select", { trial: action.trial, path, exploration: settings.exploration })]);
      return;
    }
    case "tree-expand":
      await context.append(await expand(action, state, family, task, context, settings));
      return;
    case "tree-value":
      await context.append(await value(action, state, family, task, context));
      return;
    case "tree-follow":
      await context.append([draft("tree-follow", { trial: action.trial, path: action.path })]);
      return;
    case "tree-backprop":
      await context.append([draft("tree-backprop", { trial: action.trial, path: action.path, reward: action.reward })]);
      return;
  }
}

/** The trial as it would stand at `path`'s end: its memory, and the path's nodes as its steps. */
function trialAt(state: RunState, trial: number, path: readonly string[]): TrialView {
  const view = state.trials.find((t) => t.trial === trial)!;
  return { ...view, steps: pathSteps(state.tree!, path, trial), answer: null, outcome: null };
}

/** Expansion: n Actor samples at the leaf, each executed in the environment replayed to the leaf. */
async function expand<Task>(
  action: Extract<TreeAction, { kind: "tree-expand" }>,
  state: RunState,
  family: EnvironmentFamily<Task>,
  task: Task,
  context: TreePerformContext,
  settings: LatsSettings,
): Promise<EventDraft[]> {
  const config = state.config!;
  const tree = state.tree!;
  const iteration = tree.iterations.find((it) => it.trial === action.trial)!;
  const leaf = tree.nodes.get(action.leaf)!;
  const at = trialAt(state, action.trial, iteration.selected);
  const step = leaf.depth + 1;
  const previous = state.trials.find((t) => t.trial === action.trial - 1) ?? null;
  const messages = buildActorMessages(config, family, task, at, step, previous, state.trials);
  const actionContext = { trial: action.trial, step, steps: trajectoryOf(at) };
  const usableAction = (text: string) => family.parseAction(family.splitCompletion(text).actionText, actionContext).ok;
  const drafts: EventDraft[] = [];
  const children: Array<{ data: Parameters<typeof draft<"tree-node">>[1]; duplicates: string[] }> = [];
  const base: ModelSettings = config.models.actor;
  const batch = batchContext(context);
  for (let k = 1; k <= settings.children; k += 1) {
    const request: ModelRequest = {
      role: "actor",
      settings: { ...base, temperature: settings.sampleTemperature, seed: sampleSeed(base.seed, k) },
      messages,
      stopSequences: family.actorStopSequences,
      cachePrefixChars: actorCachePrefixChars(config, family, task),
    };
    const response = await callModel(batch.context, request, { role: "actor", trial: action.trial, step }, state.replayMode, usableAction);
    batch.made(response);
    const callEventId = context.newId();
    const callId = asCallId(context.newId());
    drafts.push(context.callEnd(callEventId, callId, request, response, action.trial, step));
    const completion = family.splitCompletion(response.text);
    const same = children.find((child) => child.data.actionText.trim() === completion.actionText.trim());
    if (same) {
      same.duplicates.push(callId);
      continue;
    }
    const parsed = family.parseAction(completion.actionText, actionContext);
    // A fresh episode per child: the environment replayed to the leaf, then this child's action.
    const episode = await new EpisodeCache().episodeFor(family, task, state, at, config.strategy);
    const result = await abortable(Promise.resolve(episode.step(parsed)), context.signal);
    children.push({
      duplicates: [],
      data: {
        trial: action.trial,
        node: expansionNodeId(action.trial, children.length + 1),
        parent: leaf.id,
        depth: step,
        thought: completion.thought,
        actionText: completion.actionText,
        action: parsed.ok ? parsed.action : null,
        parseError: parsed.ok ? null : parsed.error,
        observation: result.observation,
        done: result.done,
        answer: result.answer,
        state: result.state ?? null,
        callId,
      },
    });
  }
  return [...drafts, ...children.map((child) => draft("tree-node", { ...child.data, duplicateCallIds: child.duplicates }))];
}

/** Evaluation: one value call per new child (the Actor's model, at the Actor's settings). */
async function value<Task>(
  action: Extract<TreeAction, { kind: "tree-value" }>,
  state: RunState,
  family: EnvironmentFamily<Task>,
  task: Task,
  context: TreePerformContext,
): Promise<EventDraft[]> {
  const config = state.config!;
  const tree = state.tree!;
  const trial = state.trials.find((t) => t.trial === action.trial)!;
  const template = config.templates.value ?? LATS_VALUE_TEMPLATE;
  const drafts: EventDraft[] = [];
  const batch = batchContext(context);
  for (const nodeId of action.nodes) {
    const node = tree.nodes.get(nodeId);
    if (!node) continue;
    const steps = trajectoryOf(trialAt(state, action.trial, pathTo(tree, nodeId)));
    const request: ModelRequest = { role: "actor", settings: config.models.actor, messages: buildValueMessages(template.text, family, task, trial.memory, steps), stopSequences: [] };
    const readable = (reply: string) => parseValueScore(reply) !== null;
    let response = await callModel(batch.context, request, { role: "actor", trial: action.trial, step: node.depth }, state.replayMode, readable);
    let score = parseValueScore(response.text);
    if (score === null) {
      // Asked once more under its own cache key; a reply still without a score is recorded as no estimate.
      response = await callModel(batch.context, request, { role: "actor", trial: action.trial, step: node.depth }, state.replayMode, readable, MAX_COMPLETION_ATTEMPTS);
      score = parseValueScore(response.text);
    }
    batch.made(response);
    const callEventId = context.newId();
    const callId = asCallId(context.newId());
    drafts.push(
      context.callEnd(callEventId, callId, request, response, action.trial, node.depth),
      draft(
        "tree-value",
        { trial: action.trial, node: nodeId, value: score, callId, warning: score === null ? 'The value reply stated no "correctness score" from 1 to 10 (asked twice); counted as 0.' : null },
        { causedBy: callEventId },
      ),
    );
  }
  return drafts;
}
