import { randomBytes } from "node:crypto";
import type { Budget } from "@/lib/domain/budget";
import { AppError } from "@/lib/domain/errors";
import { familyDescriptor } from "@/lib/environments/descriptors";
import { metaPromptTemplateId } from "@/lib/domain/optimiser/meta-prompt";
import { splitTasks } from "@/lib/domain/optimiser/split";
import { leaseHeldMessage, optimisationFinished, optimisationRequestSchema, type OptimisationRecord, type OptimisationRequest } from "@/lib/domain/optimiser/types";
import { leaseOwnerAlive, newLeaseOwner } from "@/lib/server/lease-owner";
import { strategyBehaviour } from "@/lib/domain/strategies";
import { environmentEntry } from "@/lib/environments/registry";
import type { ExperimentDriver, OptimiserDeps, ProgressListener } from "./optimiser-types";
import { blankCandidate, OptimisationSteps } from "./optimisation-steps";
import { describeIssues } from "@/lib/domain/describe-issues";
import { templateProblem } from "@/lib/domain/optimiser/template-problem";
import { templateRulesFor } from "@/lib/server/template-rules";

export type { OptimiserDeps, ProgressListener } from "./optimiser-types";

/**
 * The reflective optimiser (docs/optimiser.md; GEPA, Agrawal et al. 2025): start an optimisation
 * from an experiment, run it round by round — propose candidates from failed trials with the
 * meta-prompt, evaluate each on the train tasks, keep the Pareto front, then test the front's
 * candidates against their parents on the held-out tasks — and resume one that stopped. The record
 * is saved at every boundary (after each proposal and each evaluation); a budget is checked at
 * each boundary, so an evaluation in progress finishes before the optimisation stops.
 */
/** How long a claimed optimisation lease lasts without renewal, ms. */
export const OPTIMISATION_LEASE_TTL_MS = 15_000;
/** How often the holder renews its lease while it works, ms. */
export const OPTIMISATION_LEASE_RENEW_MS = 5_000;

/** Thrown by a save once another process took the lease: this process stops without writing. */
class LeaseLost extends Error {}

export class OptimiserService {
  /** Optimisations this process is working on (a second `run` of one of them is refused). */
  private readonly active = new Set<string>();
  /** Leases this process holds, with their renewal timers. */
  private readonly held = new Map<string, ReturnType<typeof setInterval>>();
  /** Optimisations whose lease another process took while this one worked: their saves are refused. */
  private readonly lost = new Set<string>();
  /** This process's lease owner id (`host:pid:random`, lib/server/lease-owner.ts), the same rule as runs. */
  readonly leaseOwner: string;

  constructor(
    private readonly deps: OptimiserDeps,
    options: { leaseOwner?: string; leaseTtlMs?: number; leaseRenewMs?: number } = {},
  ) {
    this.leaseOwner = options.leaseOwner ?? newLeaseOwner();
    this.leaseTtlMs = options.leaseTtlMs ?? OPTIMISATION_LEASE_TTL_MS;
    this.leaseRenewMs = options.leaseRenewMs ?? OPTIMISATION_LEASE_RENEW_MS;
  }

  private readonly leaseTtlMs: number;
  private readonly leaseRenewMs: number;

  /**
   * Claims the optimisation's lease for this process (atomically in the store) and renews it every
   * few seconds until {@link release}. Claiming one this process holds already is a no-op.
   * A holder on this host whose process no longer exists (lib/server/lease-owner.ts) is taken over
   * at once.
   * @throws AppError("conflict") naming the holder and when its lease expires, when another live
   *   process holds an unexpired lease, or when this process is running it already.
   */
  async claim(id: string): Promise<void> {
    if (this.active.has(id)) throw new AppError("conflict", leaseHeldMessage(id, { owner: `this process (${this.leaseOwner})`, expiresAt: Date.now() + this.leaseTtlMs }));
    if (this.held.has(id)) return;
    let claim = await this.deps.store.claimOptimisationLease(id, this.leaseOwner, this.leaseTtlMs);
    if (!claim.claimed && !leaseOwnerAlive(claim.holder.owner)) {
      // A holder on this host whose process is gone (killed with -9) cannot renew: take over now, as
      // runs do, instead of waiting for its lease to expire. The claim is still the store's
      // conditional update, at the holder's expiry, so a live newcomer's later lease is not taken.
      claim = await this.deps.store.claimOptimisationLease(id, this.leaseOwner, this.leaseTtlMs, claim.holder.expiresAt);
    }
    if (!claim.claimed) throw new AppError("conflict", leaseHeldMessage(id, claim.holder));
    this.lost.delete(id);
    const timer = setInterval(() => void this.renew(id), this.leaseRenewMs);
    timer.unref?.();
    this.held.set(id, timer);
  }

  /** Stops renewing and drops this process's lease on the optimisation (no-op when it holds none). */
  async release(id: string): Promise<void> {
    const timer = this.held.get(id);
    if (timer === undefined) return;
    clearInterval(timer);
    this.held.delete(id);
    await this.deps.store.releaseOptimisationLease(id, this.leaseOwner);
  }

  /** Releases every lease this process holds (a CLI interrupted by a signal); resolves with their ids. */
  async releaseAll(): Promise<string[]> {
    const ids = [...this.held.keys()];
    await Promise.all(ids.map((id) => this.release(id)));
    return ids;
  }

  private async renew(id: string): Promise<void> {
    try {
      const claim = await this.deps.store.claimOptimisationLease(id, this.leaseOwner, this.leaseTtlMs);
      if (!claim.claimed) {
        this.lost.add(id);
        const timer = this.held.get(id);
        if (timer !== undefined) clearInterval(timer);
        this.held.delete(id);
      }
    } catch (error) {
      console.error(`Could not renew the lease of optimisation ${id}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /**
   * Validates a request against its source experiment and stores the optimisation (status
   * `running`, nothing run yet) with this process holding its lease; call {@link run} to work on it.
   * @throws AppError("invalid-input") for a bad request, an unknown arm, a strategy without
   *   reflections for the reflector, a start version of another family or role, or one the
   *   template check refuses (e.g. a required placeholder missing: it was saved with allowUnknown);
   *   AppError("not-found") for an unknown experiment or version.
   */
  async create(input: OptimisationRequest): Promise<OptimisationRecord> {
    const parsed = optimisationRequestSchema.safeParse(input);
    if (!parsed.success) throw new AppError("invalid-input", `Not a valid optimisation: ${describeIssues(parsed.error, "request")}`);
    const request = parsed.data;
    const source = await this.deps.experiments.get(request.experimentId);
    if (source.damaged) throw new AppError("conflict", `${source.damaged} It cannot feed an optimisation.`);
    const { definition } = source;
    if (familyDescriptor(definition.environment).runsImportedOnly) {
      throw new AppError(
        "invalid-input",
        `Experiment ${source.id} holds imported traces of an agent that runs elsewhere: the optimiser scores candidates by running the tasks again, which cannot happen here. Compare Self-Reflection templates on its failures instead (cli reflect-traces --template <version> --store <one store per version>), give each store's lessons to your agent and import its new traces (docs/external-agents.md).`,
      );
    }
    const arm = request.arm === undefined ? definition.arms[0] : definition.arms.find((candidate) => candidate.label === request.arm);
    if (!arm) throw new AppError("invalid-input", `Experiment ${source.id} has no arm "${request.arm}"; its arms are ${definition.arms.map((a) => `"${a.label}"`).join(", ")}.`);
    if (request.role === "reflector" && !strategyBehaviour(arm.strategy).reflectsAfterFailure) {
      throw new AppError("invalid-input", `Arm "${arm.label}" runs the strategy ${arm.strategy}, which writes no reflections: optimise its actor, or pick an arm with reflections.`);
    }
    if (request.startVersion === undefined && arm.templates?.[request.role] !== undefined) {
      throw new AppError("invalid-input", `Arm "${arm.label}" gave its ${request.role} template as text, not as a library version: save it (\`npm run cli -- templates save\`) and pass it as the start version.`);
    }
    const family = definition.environment;
    const entry = environmentEntry(family);
    const builtIn = (entry.family.templatesFor?.(arm.strategy) ?? entry.family.defaultTemplates)[request.role].id;
    const start = await this.deps.templates.resolve(request.startVersion ?? arm.templateVersions?.[request.role] ?? builtIn);
    if (start.template.family !== family || start.template.role !== request.role) {
      throw new AppError("invalid-input", `The start version ${start.version.id} is a ${start.template.family} ${start.template.role} template; this optimisation needs a ${family} ${request.role} template.`);
    }
    const startProblem = templateProblem(start.version.text, templateRulesFor(family, request.role), `The start version ${start.version.id}`);
    if (startProblem !== null) {
      throw new AppError(
        "invalid-input",
        `${startProblem} It was saved without the template check, and every candidate proposed from it would be refused, so nothing was run. Pick another start version (--start <version>, or set the arm's ${request.role} template), or fix this one in the template workbench and save it as a new version.`,
      );
    }
    if (request.goldStore !== undefined) {
      const stores = this.deps.memoryStores ? (await this.deps.memoryStores.list()).map((store) => store.name) : [];
      if (!stores.includes(request.goldStore)) {
        throw new AppError("invalid-input", `No memory store ${request.goldStore} to read gold reflections from${stores.length > 0 ? ` (the stores are ${stores.join(", ")})` : ""}; a reviewer's correction in a review queue creates gold-reflections.`);
      }
    }
    const meta = await this.deps.templates.resolve(request.metaPromptVersion ?? metaPromptTemplateId(family));
    if (meta.template.role !== "optimiser") throw new AppError("invalid-input", `The meta-prompt ${meta.version.id} is a ${meta.template.role} template, not an optimiser meta-prompt.`);
    const split = splitTasks(definition.taskIds, request.trainFraction, request.seed);
    const id = `opt-${randomBytes(6).toString("hex")}`;
    const now = new Date().toISOString();
    // A built-in stays read-only: candidates go into a new template whose first version's parent is the built-in version.
    let targetTemplateId = start.template.id;
    if (start.template.builtIn) {
      targetTemplateId = `tpl-${randomBytes(6).toString("hex")}`;
      await this.deps.templates.store.createTemplate({
        id: targetTemplateId,
        name: `${start.template.name} (optimised ${id})`.slice(0, 120),
        family,
        role: request.role,
        strategy: start.template.strategy,
        builtIn: false,
        source: null,
        labels: {},
        createdAt: now,
      });
    }
    const record: OptimisationRecord = {
      id,
      createdAt: now,
      updatedAt: now,
      status: "running",
      detail: null,
      request: {
        experimentId: source.id,
        arm: arm.label,
        role: request.role,
        family,
        strategy: arm.strategy,
        startVersionId: start.version.id,
        targetTemplateId,
        metaPromptVersionId: meta.version.id,
        modelId: request.modelId ?? arm.modelId,
        trainFraction: request.trainFraction,
        seed: request.seed,
        budget: request.budget ?? null,
        candidatesPerRound: request.candidatesPerRound,
        rounds: request.rounds,
        repeats: request.repeats,
        maxTrials: arm.maxTrials ?? definition.maxTrials,
        failuresPerProposal: request.failuresPerProposal,
        goldStore: request.goldStore ?? null,
      },
      split,
      candidates: [blankCandidate("0:0", 0, 0, start.version.id, start.version.parentId)],
      spend: { usd: 0, tokens: 0 },
    };
    await this.deps.store.createOptimisation(record);
    await this.claim(record.id);
    return this.get(record.id);
  }

  /** The stored record. @throws AppError("not-found") */
  async get(id: string): Promise<OptimisationRecord> {
    const record = await this.deps.store.getOptimisation(id);
    if (!record) throw new AppError("not-found", `No optimisation ${id}. It may have been made with another database (REFLEXION_DB_PATH).`);
    return record;
  }

  /** Every optimisation, newest first. */
  list(): Promise<OptimisationRecord[]> {
    return this.deps.store.listOptimisations();
  }

  /**
   * Marks a stopped optimisation to go on (status `running`), with a new budget when one is given
   * (null: no limit), with this process holding its lease; call {@link run} next. A `done` one is
   * returned as it is (no lease taken).
   * @throws AppError("conflict") when this or another process holds its lease (the message names
   *   the holder and when its lease expires).
   */
  async resume(id: string, options: { budget?: Budget | null } = {}): Promise<OptimisationRecord> {
    const record = await this.get(id);
    if (optimisationFinished(record.status)) return record;
    await this.claim(id);
    const next: OptimisationRecord = {
      ...record,
      status: "running",
      detail: null,
      request: options.budget === undefined ? record.request : { ...record.request, budget: options.budget },
    };
    await this.save(next);
    return this.get(id);
  }

  /**
   * Works on the optimisation until it is done or its budget is spent, saving after every step,
   * while holding its lease (claimed if not yet held, renewed, released at the end). Resolves with
   * the final record (`done`, `budget-spent`, or `failed` with `detail`).
   * @throws AppError("conflict") when another process, or this one, is working on it.
   */
  async run(id: string, drive: ExperimentDriver, progress: ProgressListener = () => undefined): Promise<OptimisationRecord> {
    let record = await this.get(id);
    if (optimisationFinished(record.status)) return record;
    await this.claim(id);
    this.active.add(id);
    try {
      if (record.status !== "running") record = { ...record, status: "running", detail: null };
      const stepper = new OptimisationSteps(this.deps, record, drive, progress, (next) => this.saveHeld(next));
      record = await stepper.all();
      return record;
    } catch (error) {
      if (error instanceof LeaseLost) {
        progress(error.message);
        return this.get(id);
      }
      const failed: OptimisationRecord = { ...(await this.get(id)), status: "failed", detail: error instanceof Error ? error.message : String(error) };
      await this.save(failed);
      return failed;
    } finally {
      this.active.delete(id);
      await this.release(id);
    }
  }

  private async save(record: OptimisationRecord): Promise<void> {
    await this.deps.store.saveOptimisation({ ...record, updatedAt: new Date().toISOString() });
  }

  /** A save while working: refused once another process took the lease, so two never write one record. */
  private async saveHeld(record: OptimisationRecord): Promise<void> {
    if (this.lost.has(record.id) || !this.held.has(record.id)) {
      throw new LeaseLost(`Optimisation ${record.id}: this process lost its lease (another process took it over after it expired); stopping without saving.`);
    }
    await this.save(record);
  }
}
