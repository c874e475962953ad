import { describe, expect, it } from "vitest";
import type { EnvironmentId, Strategy } from "@/lib/domain/config";
import type { RunEvent } from "@/lib/domain/events";
import { applyEvent, emptyRunState, foldRun, type RunState } from "@/lib/domain/fold-run";
import { MemoryRunStore } from "@/lib/db/memory-store";
import { SqliteRunStore } from "@/lib/db/sqlite-store";
import type { RunStore } from "@/lib/db/store";
import { deriveRunGraph } from "@/lib/graph/derive-run-graph";
import { createModelPort } from "@/lib/llm/model-port";
import { methodDescriptor } from "@/lib/methods/registry";
import { createServerContext, type ServerContext } from "@/lib/server/app-context";
import { promptText, queuedMockModel } from "../helpers/mock-model";
import { REFINE_STOP_PHRASE } from "@/lib/domain/self-refine";

/**
 * What a family gives the conformance suite to run one of its tasks: the task, and the model's
 * replies in call order for a trial that fails and a trial that passes. The suite composes the
 * run's replies per method: trial 1's, then the reflection when the method reflects, then trial 2's.
 * The replies of a trial include every call the trial makes (the Actor's steps and, for a family
 * whose Evaluator is a model, the judge's replies).
 */
export interface FamilyConformanceScript {
  family: EnvironmentId;
  /** A built-in task of the family (task set `builtin`). */
  taskId: string;
  /** Every call of a trial the Evaluator fails, in order. */
  failingTrial: readonly string[];
  /** The Self-Reflection's reply after the failed trial. */
  reflection: string;
  /** Every call of a trial the Evaluator passes, in order. */
  passingTrial: readonly string[];
  /** Create-run fields the family needs (a step budget for the household's short scripts, …). */
  request?: { maxStepsPerTrial?: number };
  /**
   * The replies of a tree-search method (LATS, `lats.children` 2; build them with
   * {@link treeSearchScript}): trial 1 samples two children at the root, values the first 9/10 and
   * the second 1/10, follows the first and fails; trial 2 selects the second (unvisited, so its
   * estimate beats the failed child's) and passes from there.
   */
  treeSearch: TreeSearchScript;
  /**
   * How many of each trial's replies, at its end, are the Evaluator's (a judge family: 1). A method
   * that refines (Self-Refine) makes its calls between the Actor's and the Evaluator's. Default 0.
   */
  evaluatorReplies?: number;
  /** False for a family whose trials end without an answer (household: a world state), which Self-Refine has nothing to refine in. Default true. */
  endsWithAnswer?: boolean;
  /**
   * The failing trial's answer as a Self-Refine refine call writes it (code: fenced). Given: trial 1
   * of a refining method runs one full round (feedback, this refinement — still failing) and stops on
   * round 2's feedback; absent: every trial's first feedback says the stop phrase.
   */
  refinedFailingAnswer?: string;
}

/** Feedback that asks for a change (no stop phrase). */
export const CONFORMANCE_FEEDBACK = "Check the answer once more against the task before submitting it.";
/** Feedback that says the stop phrase. */
export const CONFORMANCE_STOP = `The answer looks complete. ${REFINE_STOP_PHRASE}`;

/**
 * One trial's replies under `strategy`: the family's replies, with a refining method's feedback
 * (and refinement) calls placed between the Actor's and the Evaluator's.
 */
export function trialReplies(script: FamilyConformanceScript, strategy: Strategy, which: "failing" | "passing"): string[] {
  const replies = which === "failing" ? script.failingTrial : script.passingTrial;
  if (methodDescriptor(strategy).trial.refine === null || script.endsWithAnswer === false) return [...replies];
  const judged = script.evaluatorReplies ?? 0;
  const rounds =
    which === "failing" && script.refinedFailingAnswer !== undefined ? [CONFORMANCE_FEEDBACK, script.refinedFailingAnswer, CONFORMANCE_STOP] : [CONFORMANCE_STOP];
  return [...replies.slice(0, replies.length - judged), ...rounds, ...replies.slice(replies.length - judged)];
}

/** Call-order replies of a two-iteration tree search (see {@link FamilyConformanceScript.treeSearch}). */
export interface TreeSearchScript {
  trial1: readonly string[];
  trial2: readonly string[];
  /** Trial 2 starts with an Actor call (an expansion), whose prompt must carry the reflection; false when it only judges an answer sampled in trial 1. */
  trial2StartsWithActor: boolean;
}

/** A value model's reply with score `score` (1–10). */
export const valueReply = (score: number) => `The attempt is judged. Thus the correctness score is ${score}`;

/**
 * A {@link TreeSearchScript}: trial 1 samples `failing[0]` and `other` at the root (values 9 and 1),
 * follows the first and rolls out `failing.slice(1)` (plus `afterFailing`, e.g. a judge's reply);
 * trial 2 either judges `other` itself (`passingFrom: null`, when `other` is a final answer) or
 * expands it with two identical samples of `passingFrom[0]` (one child, value 5) and rolls out the rest.
 */
export function treeSearchScript(parts: { failing: readonly string[]; other: string; afterFailing?: readonly string[]; passingFrom: readonly string[] | null; afterPassing?: readonly string[] }): TreeSearchScript {
  const [first, ...rollout] = parts.failing;
  const trial1 = [first!, parts.other, valueReply(9), valueReply(1), ...rollout, ...(parts.afterFailing ?? [])];
  if (parts.passingFrom === null) return { trial1, trial2: [...(parts.afterPassing ?? [])], trial2StartsWithActor: false };
  const [next, ...rest] = parts.passingFrom;
  return { trial1, trial2: [next!, next!, valueReply(5), ...rest, ...(parts.afterPassing ?? [])], trial2StartsWithActor: true };
}

/** The request fields a tree-search run of the suite adds. */
const TREE_SEARCH_REQUEST = { lats: { children: 2, exploration: 1 } };

/** The replies of a two-trial run of `script` under `strategy`: fail, (reflect), pass. */
export function repliesFor(script: FamilyConformanceScript, strategy: Strategy): string[] {
  const method = methodDescriptor(strategy);
  const reflects = method.reflects === "after-failure";
  if (method.trial.shape === "tree-search") return [...script.treeSearch.trial1, ...(reflects ? [script.reflection] : []), ...script.treeSearch.trial2];
  return [...trialReplies(script, strategy, "failing"), ...(reflects ? [script.reflection] : []), ...trialReplies(script, strategy, "passing")];
}

/** The replies of trial 2 alone (what a live fork after trial 1 asks for). */
function trial2RepliesFor(script: FamilyConformanceScript, strategy: Strategy): readonly string[] {
  return methodDescriptor(strategy).trial.shape === "tree-search" ? script.treeSearch.trial2 : trialReplies(script, strategy, "passing");
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

/**
 * A branch's events as a replay must reproduce them: type and data, without generated ids,
 * latency, the cache marker, cost, the checkpoint digest (which covers memory item ids) and
 * measured test durations.
 */
function comparable(events: readonly RunEvent[]) {
  return events
    .filter((event) => event.type !== "run-start" && event.type !== "branch-start")
    .map((event) => {
      const data: Record<string, unknown> = { ...event.data };
      for (const key of ["latencyMs", "source", "costUsd", "digest"]) delete data[key];
      // Sandbox test results carry their measured `durationMs` at any depth: a replay re-runs them.
      const json = JSON.stringify(data, (key, value: unknown) => (key === "durationMs" ? undefined : value));
      return { type: event.type, data: JSON.parse(json.replace(UUID, "<id>")) as unknown };
    });
}

/**
 * A server context on an in-memory store whose every model is `model` (the run's model id names
 * a configured provider, so nothing takes the demo model's paths).
 */
function contextOver(model: ReturnType<typeof queuedMockModel>, store: RunStore = new MemoryRunStore()): ServerContext {
  return createServerContext({
    store,
    env: { OPENAI_API_KEY: "sk-conformance-not-a-key" },
    model: createModelPort({ resolveModel: () => model, maxRetries: 0 }),
  });
}

/** A finished two-trial run of `script` under `strategy` on an in-memory store, with the model its replies came from. */
async function finishedRun(script: FamilyConformanceScript, strategy: Strategy) {
  const replies = repliesFor(script, strategy);
  const model = queuedMockModel(replies);
  const context = contextOver(model);
  const run = await context.service.createRun({
    environment: script.family,
    taskSet: "builtin",
    taskId: script.taskId,
    strategy,
    modelId: "openai:conformance-mock",
    maxTrials: 2,
    ...script.request,
    ...(methodDescriptor(strategy).trial.shape === "tree-search" ? TREE_SEARCH_REQUEST : {}),
  });
  await context.workers.untilSettled(run.rootBranchId);
  const events = (await context.service.events(run.id)).events;
  return { context, model, replies, run, events, state: foldRun(events) };
}

/** The state after each event, folded one event at a time (the replay cursor's way). */
function foldByPrefix(events: readonly RunEvent[]): RunState[] {
  const state = emptyRunState();
  return events.map((event) => {
    applyEvent(state, event);
    return structuredClone(state);
  });
}

/**
 * The conformance suite every task family and every method must pass (docs/adding-a-family.md,
 * docs/adding-a-method.md): for each method the family supports, a two-trial run (fail, then pass)
 * driven by call-order replies goes through the whole product — run, fold, replay, fork, export
 * and graph — on an in-memory store with the real engine, services and projections.
 *
 * @param script the family's task and replies (see {@link FamilyConformanceScript}).
 * @param strategies the methods to run it under (the family's supported strategies).
 */
export function describeConformance(script: FamilyConformanceScript, strategies: readonly Strategy[]): void {
  describe.each(strategies)(`${script.family} × %s conforms`, (strategy) => {
    const method = methodDescriptor(strategy);

    it("run: trial 1 fails, trial 2 passes, every queued reply is used, and trial 2's prompt carries what the method remembers", async () => {
      const { model, replies, state } = await finishedRun(script, strategy);
      expect(state.status).toBe("ended");
      expect(state.error).toBeNull();
      expect(state.trials.map((trial) => trial.outcome)).toEqual([expect.stringMatching(/^(failure|halted)$/), "success"]);
      expect(state.outcome).toBe("success");
      expect(model.doStreamCalls.length).toBe(replies.length);
      expect(state.trials[0]!.reflection?.text ?? null).toBe(method.reflects === "after-failure" ? script.reflection.trim() : null);

      // The first Actor call of trial 2 comes right after trial 1's calls (and the reflection).
      const trial2 = trial2RepliesFor(script, strategy);
      if (method.trial.shape === "tree-search" && !script.treeSearch.trial2StartsWithActor) return;
      const trial2Prompt = promptText(model.doStreamCalls[replies.length - trial2.length]!);
      const reflectionShown = trial2Prompt.includes(script.reflection.trim().slice(0, 60));
      expect(reflectionShown).toBe(method.remembers.reflections && method.reflects === "after-failure");
      const lastAction = state.trials[0]!.steps.at(-1)?.action?.text ?? null;
      if (method.remembers.lastAttempt && lastAction) expect(trial2Prompt).toContain(lastAction.trim().split("\n")[0]);

      // A refining method critiques every answer, stops on the stop phrase, and the Evaluator judges the last refined answer.
      const refines = method.trial.refine !== null && script.endsWithAnswer !== false;
      for (const trial of state.trials) {
        if (!refines) {
          expect(trial.refinements).toEqual([]);
          continue;
        }
        expect(trial.refinements.at(-1)?.feedback?.stop).toBe(true);
        const full = trial.trial === 1 && script.refinedFailingAnswer !== undefined;
        expect(trial.refinements.map((round) => round.answer !== null)).toEqual(full ? [true, false] : [false]);
        const refined = trial.refinements.find((round) => round.answer !== null)?.answer?.text;
        if (refined !== undefined) expect(trial.answer).toBe(refined);
      }
    });

    it("fold: folding the log at once equals folding it event by event, and every prefix folds", async () => {
      const { events, state } = await finishedRun(script, strategy);
      const prefixes = foldByPrefix(events);
      expect(prefixes.at(-1)).toEqual(state);
      const trialCounts = prefixes.map((prefix) => prefix.trials.length);
      expect(trialCounts).toEqual([...trialCounts].sort((a, b) => a - b));
      expect(state.eventCount).toBe(events.length);
    });

    it("replay: a recorded replay from the run start makes no model call and reproduces every event", async () => {
      const { context, model, run, events } = await finishedRun(script, strategy);
      const calls = model.doStreamCalls.length;
      const { branchId } = await context.service.fork(run.id, { atSeq: 1, replay: "recorded" });
      await context.workers.untilSettled(branchId);
      const replay = (await context.service.events(run.id, 0, branchId)).events;
      expect(model.doStreamCalls.length).toBe(calls);
      expect(comparable(replay)).toEqual(comparable(events));
      expect(foldRun(replay.filter((event) => event.branchId === branchId)).totals).toMatchObject({ liveCalls: 0, cachedCalls: calls });
    });

    it("fork: a live fork after trial 1 calls the model only for trial 2 and reaches the same outcome", async () => {
      const { context, model, replies, run, events, state } = await finishedRun(script, strategy);
      const trial2Start = events.find((event) => event.type === "trial-start" && event.data.trial === 2)!;
      const checkpoint = events.filter((event) => event.type === "checkpoint" && event.seq < trial2Start.seq).at(-1);
      if (!checkpoint) throw new Error("no checkpoint before trial 2");
      const trial2 = trial2RepliesFor(script, strategy);
      replies.push(...trial2);
      const calls = model.doStreamCalls.length;
      const { branchId } = await context.service.fork(run.id, { atSeq: checkpoint.seq, replay: "live" });
      await context.workers.untilSettled(branchId);
      const fork = foldRun((await context.service.events(run.id, 0, branchId)).events);
      expect(model.doStreamCalls.length - calls).toBe(trial2.length);
      expect(fork.trials.map((trial) => trial.outcome)).toEqual(state.trials.map((trial) => trial.outcome));
      expect(fork.fork?.forkSeq ?? null).toBe(checkpoint.seq);
    });

    it("export: the run's bundle imports into an empty store with the same log, and its OTLP trace has a span per trial", async () => {
      const { context, run, events, state } = await finishedRun(script, strategy);
      const download = await context.bundles.exportRun(run.id);
      expect(download.bytes.length).toBeGreaterThan(0);
      // Bundles are stored by the SQLite store only (the in-memory store has no bundle table).
      const elsewhere = contextOver(queuedMockModel([]), new SqliteRunStore(":memory:"));
      const imported = await elsewhere.bundles.importBundle(download.bytes, download.fileName);
      expect(imported.created).toBe(true);
      const copy = (await elsewhere.service.events(run.id)).events;
      expect(comparable(copy)).toEqual(comparable(events));
      expect(foldRun(copy).trials.map((trial) => trial.outcome)).toEqual(state.trials.map((trial) => trial.outcome));

      const spanNames = (await context.otlp.jsonLines(run.id))
        .trim()
        .split("\n")
        .flatMap((line) =>
          (JSON.parse(line) as { resourceSpans: Array<{ scopeSpans: Array<{ spans: Array<{ name: string }> }> }> }).resourceSpans.flatMap((resource) =>
            resource.scopeSpans.flatMap((scope) => scope.spans.map((span) => span.name)),
          ),
        );
      expect(spanNames.filter((name) => /trial/i.test(name)).length).toBeGreaterThanOrEqual(state.trials.length);
    });

    it("graph: every step, verdict and reflection is a node, in one lane per trial", async () => {
      const { state } = await finishedRun(script, strategy);
      const graph = deriveRunGraph(state);
      const count = (type: string) => graph.nodes.filter((node) => node.type === type).length;
      expect(count("lane")).toBe(state.trials.length);
      expect(count("evaluation")).toBe(state.trials.length);
      expect(count("action")).toBe(state.trials.reduce((sum, trial) => sum + trial.steps.length, 0));
      expect(count("reflection")).toBe(state.trials.filter((trial) => trial.reflection).length);
      expect(count("refinement")).toBe(state.trials.reduce((sum, trial) => sum + trial.refinements.length, 0));
      const ids = new Set(graph.nodes.map((node) => node.id));
      for (const edge of graph.edges) {
        expect(ids.has(edge.source)).toBe(true);
        expect(ids.has(edge.target)).toBe(true);
      }
    });
  });
}
