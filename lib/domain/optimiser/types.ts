import { z } from "zod";
import { budgetSchema } from "@/lib/domain/budget";
import { environmentIdSchema, modelIdSchema, strategySchema } from "@/lib/domain/config";
import { lineageRateSchema } from "@/lib/domain/template-lineage";
import { memoryStoreNameSchema } from "@/lib/domain/memory-store";

/**
 * The reflective optimiser's shapes (docs/optimiser.md, docs/decisions/0033-reflective-optimiser.md):
 * what a person asks for ({@link optimisationRequestSchema}) and what is stored while it runs and
 * after ({@link optimisationRecordSchema}). After GEPA (Agrawal et al. 2025, "GEPA: Reflective Prompt
 * Evolution Can Outperform Reinforcement Learning"): a model reads failed trials and proposes a mutated
 * template; candidates are kept on a Pareto front over train tasks; the best are tested on held-out tasks.
 *
 * HTTP: `POST /api/optimisations` body {@link optimisationRequestSchema} → `{ optimisation }` (202, it runs
 * in the background); `GET /api/optimisations/:id` → `{ optimisation }`; `POST /api/optimisations/:id/resume`
 * body {@link resumeOptimisationRequestSchema} → `{ optimisation }` (202).
 */

/**
 * Roles the optimiser can mutate: the Actor's and the Self-Reflection's templates. The LATS value
 * prompt is not a template of this app (LATS is not implemented), so it cannot be optimised yet.
 */
export const optimisedRoleSchema = z.enum(["actor", "reflector"]);
export type OptimisedRole = z.infer<typeof optimisedRoleSchema>;

/** What `POST /api/optimisations` and `cli templates optimise` ask for. */
export const optimisationRequestSchema = z.object({
  /** The source experiment: its failed trials on the train tasks feed the meta-prompt, its tasks are split. */
  experimentId: z.string().min(1),
  /** The source experiment's arm whose runs are read and whose configuration candidates run with; default its first arm. */
  arm: z.string().min(1).optional(),
  role: optimisedRoleSchema,
  /** Version reference of the starting template; default the version the arm used for the role (the family's built-in when it chose none). */
  startVersion: z.string().min(1).optional(),
  /** Share of the experiment's tasks used for training (the rest is held out), in (0, 1). Default 0.7. */
  trainFraction: z.number().gt(0).lt(1).default(0.7),
  /** Seed of the train / held-out split (the same seed and tasks always give the same split). */
  seed: z.number().int().min(0).max(2_147_483_647).default(0),
  /** USD and/or tokens for meta-prompt calls and evaluations together; null or absent = no limit. */
  budget: budgetSchema.nullable().optional(),
  /** Candidates proposed per round. */
  candidatesPerRound: z.number().int().min(1).max(8).default(2),
  rounds: z.number().int().min(1).max(10).default(2),
  /** Repetitions of every (task, template) evaluation (the statistics' repeats; > 1 sends seeds). */
  repeats: z.number().int().min(1).max(20).default(1),
  /** The model that answers the meta-prompt; default the arm's model. */
  modelId: modelIdSchema.optional(),
  /** Version reference of the meta-prompt template; default the family's built-in `<family>/optimise`. */
  metaPromptVersion: z.string().min(1).optional(),
  /** Failed trials shown to the meta-prompt per proposal (the newest first). */
  failuresPerProposal: z.number().int().min(1).max(20).default(6),
  /**
   * A memory store of gold reflections (reviewers' corrections, docs/review-queues.md): its entries
   * for the train tasks are shown to the meta-prompt as examples of good reflections. Absent: none.
   */
  goldStore: memoryStoreNameSchema.optional(),
});
export type OptimisationRequest = z.input<typeof optimisationRequestSchema>;
export type ParsedOptimisationRequest = z.infer<typeof optimisationRequestSchema>;

/** `POST /api/optimisations/:id/resume`: a new budget replaces the old one (absent: keep it; null: no limit). */
export const resumeOptimisationRequestSchema = z.object({ budget: budgetSchema.nullable().optional() });
export type ResumeOptimisationRequest = z.infer<typeof resumeOptimisationRequestSchema>;

/**
 * `running` while a process works on it; `budget-spent` stopped at a boundary; `done`;
 * `no-candidate` finished with no proposal evaluated (every one failed: see each candidate's
 * `error` and the record's `detail`); `failed` (see `detail`).
 */
export const optimisationStatusSchema = z.enum(["running", "budget-spent", "done", "no-candidate", "failed"]);
export type OptimisationStatus = z.infer<typeof optimisationStatusSchema>;

/** Whether an optimisation has finished (`done` or `no-candidate`): resuming it does nothing. */
export function optimisationFinished(status: OptimisationStatus): boolean {
  return status === "done" || status === "no-candidate";
}

/**
 * Which process works on an optimisation: its owner id (`host:pid:random`) and the epoch ms after
 * which the lease is void. The holder renews it every few seconds while it works and releases it
 * when it stops; a second process can claim it only once it is released or expired.
 */
export const optimisationLeaseSchema = z.object({ owner: z.string().min(1), expiresAt: z.number().int() });
export type OptimisationLease = z.infer<typeof optimisationLeaseSchema>;

/**
 * What an optimisation is doing, for people: its stored status, except that a `running` one whose
 * lease is absent or expired is `interrupted` (its process ended without finishing: resume it).
 * Derived, never stored, so the status and the lease cannot disagree.
 */
export type OptimisationPhase = OptimisationStatus | "interrupted";

/** The {@link OptimisationPhase} of a record at `now` (epoch ms). */
export function optimisationPhase(record: Pick<OptimisationRecord, "status" | "lease">, now = Date.now()): OptimisationPhase {
  if (record.status !== "running") return record.status;
  return record.lease && record.lease.expiresAt > now ? "running" : "interrupted";
}

/** Why a process cannot work on an optimisation another holds: names the holder and when its lease expires. */
export function leaseHeldMessage(id: string, holder: OptimisationLease): string {
  return `Optimisation ${id} is being worked on by ${holder.owner} (host:pid) until its lease expires at ${new Date(holder.expiresAt).toISOString()}; the holder renews it while it runs. Wait for it to stop, or resume it once the lease has expired.`;
}

/** One version the optimisation proposed or started from. */
export const optimisationCandidateSchema = z.object({
  /** `round:index`, unique in the optimisation; `0:0` is the starting version. */
  key: z.string().min(1),
  round: z.number().int().nonnegative(),
  index: z.number().int().nonnegative(),
  /** The saved version; null when the proposal failed before a version existed. */
  versionId: z.string().nullable(),
  /** The version it was mutated from (the starting version's own parent for round 0). */
  parentId: z.string().nullable(),
  /**
   * True when the proposal's text was a version saved before (by an earlier optimisation, or by
   * hand) that is neither its parent nor a candidate of this optimisation: that version is reused
   * and evaluated again here, not saved twice.
   */
  proposedAgain: z.boolean().optional(),
  /** `proposed` (saved, not evaluated yet), `evaluated`, or `failed` (see `error`). */
  status: z.enum(["proposed", "evaluated", "failed"]),
  /** Why the proposal failed (no template in the reply, a template the check refuses, a model error). */
  error: z.string().nullable(),
  /** `runId#trial` of the failed trials the meta-prompt showed. */
  failuresRead: z.array(z.string()),
  trainExperimentId: z.string().nullable(),
  train: lineageRateSchema.nullable(),
  /** Per train task: the share of repetitions solved within the trial budget (the Pareto front's objectives). */
  trainByTask: z.record(z.string(), z.number().min(0).max(1)).nullable(),
  heldOutExperimentId: z.string().nullable(),
  heldOut: lineageRateSchema.nullable(),
  /** The parent's held-out score in the same experiment (the paired test's other arm). */
  parentHeldOut: lineageRateSchema.nullable(),
  /** Two-sided p of the exact paired test (McNemar) on held-out final success against the parent. */
  pVsParent: z.number().min(0).max(1).nullable(),
  onFront: z.boolean(),
  /** USD spent proposing and evaluating it (0 for the demo model). */
  costUsd: z.number().nonnegative(),
  /** Tokens (input + output) spent proposing and evaluating it. */
  tokens: z.number().int().nonnegative(),
});
export type OptimisationCandidate = z.infer<typeof optimisationCandidateSchema>;

/** A stored optimisation: the request as resolved at the start, its split, its candidates and its spend. */
export const optimisationRecordSchema = z.object({
  /** `opt-<12 hex>`. */
  id: z.string().min(1),
  createdAt: z.string(),
  updatedAt: z.string(),
  status: optimisationStatusSchema,
  /** Why it stopped (`budget-spent`, `failed`), for people; null otherwise. */
  detail: z.string().nullable(),
  request: z.object({
    experimentId: z.string(),
    arm: z.string(),
    role: optimisedRoleSchema,
    family: environmentIdSchema,
    strategy: strategySchema,
    startVersionId: z.string(),
    /** The non-built-in template the candidates are saved in. */
    targetTemplateId: z.string(),
    metaPromptVersionId: z.string(),
    modelId: z.string(),
    trainFraction: z.number(),
    seed: z.number().int(),
    budget: budgetSchema.nullable(),
    candidatesPerRound: z.number().int().positive(),
    rounds: z.number().int().positive(),
    repeats: z.number().int().positive(),
    maxTrials: z.number().int().positive(),
    failuresPerProposal: z.number().int().positive(),
    /** The gold-reflection store the proposals read; absent or null: none. */
    goldStore: z.string().nullable().optional(),
  }),
  split: z.object({ train: z.array(z.string()), heldOut: z.array(z.string()) }),
  candidates: z.array(optimisationCandidateSchema),
  spend: z.object({ usd: z.number().nonnegative(), tokens: z.number().int().nonnegative() }),
  /** Who works on it now (absent or null: nobody). Kept by the store apart from the rest of the record: saving a record never moves it. */
  lease: optimisationLeaseSchema.nullable().optional(),
});
export type OptimisationRecord = z.infer<typeof optimisationRecordSchema>;

/** The `--json` closing line of `cli templates optimise`: every candidate with its parent, scores and test. */
export interface OptimisationSummaryLine {
  type: "optimisation-summary";
  optimisationId: string;
  status: OptimisationStatus;
  detail: string | null;
  targetTemplateId: string;
  spend: { usd: number; tokens: number };
  candidates: Array<{
    versionId: string | null;
    parentId: string | null;
    round: number;
    status: OptimisationCandidate["status"];
    error: string | null;
    train: number | null;
    heldOut: { rate: number; interval: [number, number]; n: number; repeats: number } | null;
    parentHeldOut: { rate: number; interval: [number, number] } | null;
    pVsParent: number | null;
    onFront: boolean;
    /** The proposal equalled a version saved before (see `OptimisationCandidate.proposedAgain`). */
    proposedAgain: boolean;
    tokens: number;
    costUsd: number;
  }>;
}

/** The summary line of a record (see {@link OptimisationSummaryLine}). */
export function optimisationSummaryLine(record: OptimisationRecord): OptimisationSummaryLine {
  return {
    type: "optimisation-summary",
    optimisationId: record.id,
    status: record.status,
    detail: record.detail,
    targetTemplateId: record.request.targetTemplateId,
    spend: record.spend,
    candidates: record.candidates.map((candidate) => ({
      versionId: candidate.versionId,
      parentId: candidate.parentId,
      round: candidate.round,
      status: candidate.status,
      error: candidate.error,
      train: candidate.train?.rate ?? null,
      heldOut: candidate.heldOut,
      parentHeldOut: candidate.parentHeldOut ? { rate: candidate.parentHeldOut.rate, interval: candidate.parentHeldOut.interval } : null,
      pVsParent: candidate.pVsParent,
      onFront: candidate.onFront,
      proposedAgain: candidate.proposedAgain ?? false,
      tokens: candidate.tokens,
      costUsd: candidate.costUsd,
    })),
  };
}
