import { z } from "zod";
import { callIdSchema } from "./ids";

/**
 * The events of a tree-search trial (LATS, Zhou et al. 2024 §4; docs/decisions/0036-lats-as-trials.md),
 * kept beside the event catalogue (lib/domain/events.ts) which spreads them in. Node ids follow
 * lib/domain/tree-search.ts: `root`, `t<trial>.e<k>`, `t<trial>.s<step>`.
 */

const trial = z.number().int().positive();
const nodeId = z.string().min(1);
/** Node ids from the root, in order. */
const path = z.array(nodeId).min(1);

export const treeEventSchemas = {
  /** Selection: the path UCT chose, root → the leaf the trial expands (paper §4 "Selection"). */
  "tree-select": z.object({
    trial,
    path,
    /** The exploration weight w it was chosen with. */
    exploration: z.number().nonnegative(),
  }),
  /**
   * Expansion: one child sampled at the selected leaf — an Actor step executed in the environment
   * replayed to the leaf (paper §4 "Expansion"). Samples whose action repeats an earlier sibling's
   * are not separate nodes: their calls are listed in `duplicateCallIds`.
   */
  "tree-node": z.object({
    trial,
    node: nodeId,
    parent: nodeId,
    /** The node's step number in any trajectory through it (root 0). */
    depth: z.number().int().positive(),
    thought: z.string(),
    /** The action line as the model wrote it. */
    actionText: z.string(),
    action: z.object({ type: z.string(), argument: z.string() }).nullable(),
    parseError: z.string().nullable(),
    observation: z.string(),
    done: z.boolean(),
    answer: z.string().nullable(),
    state: z.record(z.string(), z.unknown()).nullable().default(null),
    callId: callIdSchema,
    duplicateCallIds: z.array(callIdSchema).default([]),
  }),
  /**
   * Evaluation: the value model's estimate of a new child, 0–1 (its 1–10 score / 10; paper §4
   * "Evaluation"). Null when no score could be read from the reply even when asked twice (`warning`
   * says so); selection then counts it as 0.
   */
  "tree-value": z.object({
    trial,
    node: nodeId,
    value: z.number().min(0).max(1).nullable(),
    callId: callIdSchema,
    warning: z.string().nullable().default(null),
  }),
  /**
   * The trial follows the best-valued new child: the path root → that child becomes the trial's
   * first steps, and the rollout (plain Actor steps) continues from there (paper §4 "Simulation").
   */
  "tree-follow": z.object({ trial, path }),
  /**
   * Backpropagation: the trajectory's reward (1 when the Evaluator passed it, else 0) added to every
   * node on its path, root → terminal (paper §4 "Backpropagation").
   */
  "tree-backprop": z.object({ trial, path, reward: z.number().min(0).max(1) }),
  /**
   * An edit (on a branch forked from a tree node): later selections start at `node` instead of the
   * root, so the branch searches only that subtree.
   */
  "tree-focus": z.object({ node: nodeId, note: z.string().nullable().default(null) }),
} as const;
