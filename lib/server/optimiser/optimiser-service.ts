import { randomBytes } from "node:crypto";
import type { Budget } from "@/lib/domain/budget";
import { AppError } from "@/lib/domain/errors";
import { metaPromptTemplateId } from "@/lib/domain/optimiser/meta-prompt";
import { splitTasks } from "@/lib/domain/optimiser/split";
import { optimisationRequestSchema, type OptimisationRecord, type OptimisationRequest } from "@/lib/domain/optimiser/types";
import { strategyBehaviour } from "@/lib/domain/strategies";
import { environmentEntry } from "@/lib/environments/registry";
import type { ExperimentDriver, OptimiserDeps, ProgressListener } from "./optimiser-types";
import { blankCandidate, OptimisationSteps } from "./optimisation-steps";
import { describeIssues } from "@/lib/domain/describe-issues";

export type { OptimiserDeps, ProgressListener } from "./optimiser-types";

/**
 * The reflective optimiser (docs/optimiser.md; GEPA, Agrawal et al. 2025): start an optimisation
 * from an experiment, run it round by round — propose candidates from failed trials with the
 * meta-prompt, evaluate each on the train tasks, keep the Pareto front, then test the front's
 * candidates against their parents on the held-out tasks — and resume one that stopped. The record
 * is saved at every boundary (after each proposal and each evaluation); a budget is checked at
 * each boundary, so an evaluation in progress finishes before the optimisation stops.
 */
export class OptimiserService {
  /** Optimisations this process is working on (a second `run` of one of them is refused). */
  private readonly active = new Set<string>();

  constructor(private readonly deps: OptimiserDeps) {}

  /**
   * Validates a request against its source experiment and stores the optimisation (status
   * `running`, nothing run yet); call {@link run} to work on it.
   * @throws AppError("invalid-input") for a bad request, an unknown arm, a strategy without
   *   reflections for the reflector, or a start version of another family or role;
   *   AppError("not-found") for an unknown experiment or version.
   */
  async create(input: OptimisationRequest): Promise<OptimisationRecord> {
    const parsed = optimisationRequestSchema.safeParse(input);
    if (!parsed.success) throw new AppError("invalid-input", `Not a valid optimisation: ${describeIssues(parsed.error, "request")}`);
    const request = parsed.data;
    const source = await this.deps.experiments.get(request.experimentId);
    if (source.damaged) throw new AppError("conflict", `${source.damaged} It cannot feed an optimisation.`);
    const { definition } = source;
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
      },
      split,
      candidates: [blankCandidate("0:0", 0, 0, start.version.id, start.version.parentId)],
      spend: { usd: 0, tokens: 0 },
    };
    await this.deps.store.createOptimisation(record);
    return record;
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
   * (null: no limit); call {@link run} next. A `done` one is returned as it is.
   * @throws AppError("conflict") when this process is already working on it.
   */
  async resume(id: string, options: { budget?: Budget | null } = {}): Promise<OptimisationRecord> {
    const record = await this.get(id);
    if (this.active.has(id)) throw new AppError("conflict", `Optimisation ${id} is running in this process already.`);
    if (record.status === "done") return record;
    const next: OptimisationRecord = {
      ...record,
      status: "running",
      detail: null,
      request: options.budget === undefined ? record.request : { ...record.request, budget: options.budget },
    };
    await this.save(next);
    return next;
  }

  /**
   * Works on the optimisation until it is done or its budget is spent, saving after every step.
   * Resolves with the final record (`done`, `budget-spent`, or `failed` with `detail`).
   */
  async run(id: string, drive: ExperimentDriver, progress: ProgressListener = () => undefined): Promise<OptimisationRecord> {
    if (this.active.has(id)) throw new AppError("conflict", `Optimisation ${id} is running in this process already.`);
    this.active.add(id);
    let record = await this.get(id);
    try {
      if (record.status === "done") return record;
      if (record.status !== "running") record = { ...record, status: "running", detail: null };
      const stepper = new OptimisationSteps(this.deps, record, drive, progress, (next) => this.save(next));
      record = await stepper.all();
      return record;
    } catch (error) {
      const failed: OptimisationRecord = { ...(await this.get(id)), status: "failed", detail: error instanceof Error ? error.message : String(error) };
      await this.save(failed);
      return failed;
    } finally {
      this.active.delete(id);
    }
  }

  private async save(record: OptimisationRecord): Promise<void> {
    await this.deps.store.saveOptimisation({ ...record, updatedAt: new Date().toISOString() });
  }
}
