import { z } from "zod";

/**
 * The lineage of a template: its versions as a tree (a version's parent is
 * the version it was edited from, or the version an optimiser mutated), with
 * the measured effect of each version where one was measured.
 *
 * Hand-written versions take part like any other: their `score` is null until
 * an optimisation (or a template check) evaluates them. The shape is shared by
 * `GET /api/templates/[templateId]/lineage`, the lineage view and
 * `cli templates optimise --json`.
 */

/** A success rate on a set of tasks with its 95 % interval (fractions in [0, 1]). */
export const lineageRateSchema = z.object({
  /** Fraction of tasks solved within the trial budget (Reflexion's final success; pass@1 for code at trial 1). */
  rate: z.number().min(0).max(1),
  /** 95 % interval of `rate`, [low, high] (Wilson for one repeat, clustered bootstrap over tasks with repeats; docs/statistics.md). */
  interval: z.tuple([z.number().min(0).max(1), z.number().min(0).max(1)]),
  /** Tasks in the sample. */
  n: z.number().int().nonnegative(),
  /** Repeats per task (1 = no repeats). */
  repeats: z.number().int().positive(),
});
export type LineageRate = z.infer<typeof lineageRateSchema>;

/** What an optimisation measured for one candidate version. */
export const lineageScoreSchema = z.object({
  /** The optimisation that proposed or evaluated this version (`opt-…`). */
  optimisationId: z.string().min(1),
  /** 0 for the starting version (the parent of round 1), 1, 2, … for candidates. */
  round: z.number().int().nonnegative(),
  /** Success on the train split, per candidate; null when not evaluated there. */
  train: lineageRateSchema.nullable(),
  /** Success on the held-out split; null when the candidate was not among the best evaluated there. */
  heldOut: lineageRateSchema.nullable(),
  /** Two-sided p of the paired test on held-out tasks against the parent version; null when not tested. */
  pVsParent: z.number().min(0).max(1).nullable(),
  /** On the Pareto front over train tasks (no other candidate solves a superset of its tasks). */
  onFront: z.boolean(),
  /** Model spend to propose and evaluate this candidate, USD (0 for the offline demo model). */
  costUsd: z.number().nonnegative(),
  /** Tokens spent to propose and evaluate this candidate (prompt + completion). */
  tokens: z.number().int().nonnegative(),
  /** Ids of the failed trials (`runId#trial`) the meta-prompt read to propose it; empty for the starting version. */
  failuresRead: z.array(z.string()),
});
export type LineageScore = z.infer<typeof lineageScoreSchema>;

/** One version in the tree. */
export const lineageNodeSchema = z.object({
  versionId: z.string().min(1),
  /** The version it was derived from; null for a root. May name a version of another template (e.g. a built-in). */
  parentId: z.string().nullable(),
  /** The version's number within its template (v1, v2, …). */
  number: z.number().int().positive(),
  /** The version's commit message. */
  message: z.string(),
  /** ISO-8601. */
  createdAt: z.string(),
  /** Labels pointing at this version (e.g. "production", "accepted"). */
  labels: z.array(z.string()),
  /** The most recent measured score, or null when never measured. */
  score: lineageScoreSchema.nullable(),
});
export type LineageNode = z.infer<typeof lineageNodeSchema>;

/** `GET /api/templates/[templateId]/lineage`. */
export const lineageResponseSchema = z.object({
  templateId: z.string().min(1),
  nodes: z.array(lineageNodeSchema),
});
export type LineageResponse = z.infer<typeof lineageResponseSchema>;
