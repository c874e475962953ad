import { randomBytes } from "node:crypto";
import { budgetExhausted, type Budget } from "@/lib/domain/budget";
import { AppError } from "@/lib/domain/errors";
import type { Arm } from "@/lib/domain/experiment";
import { metaPromptTemplateId } from "@/lib/domain/optimiser/meta-prompt";
import { paretoFront, pickParent, type FrontEntry } from "@/lib/domain/optimiser/pareto";
import { splitTasks } from "@/lib/domain/optimiser/split";
import {
  optimisationRequestSchema,
  type OptimisationCandidate,
  type OptimisationRecord,
  type OptimisationRequest,
} from "@/lib/domain/optimiser/types";
import { assertTemplateText } from "@/lib/domain/template-check";
import type { CallPricer, ModelPort } from "@/lib/engine/ports";
import { environmentEntry } from "@/lib/environments/registry";
import type { OptimisationStore } from "@/lib/db/optimisation-store";
import type { ExperimentService } from "@/lib/server/experiment-service";
import type { RunService } from "@/lib/server/run-service";
import type { TemplateService } from "@/lib/server/template-service";
import { templateRulesFor } from "@/lib/server/template-rules";
import type { ExperimentDriver } from "./experiment-driver";
import { CANDIDATE_ARM, PARENT_ARM, pAgainstParent, rateOf, scoresByTask, spendOf, startEvaluation, type EvaluationPlan } from "./evaluation";
import { failedTrials, failureSlice } from "./failures";
import { proposeTemplate } from "./proposal";

/** What the optimiser needs from the composition root. */
export interface OptimiserDeps {
  store: OptimisationStore;
  templates: TemplateService;
  experiments: ExperimentService;
  runs: RunService;
  model: ModelPort;
  pricing?: CallPricer;
}

/** Where a running optimisation tells people what it does (the CLI writes it to stderr). */
export type ProgressListener = (message: string) => void;

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
    if (!parsed.success) throw new AppError("invalid-input", `Not a valid optimisation: ${parsed.error.issues.map((issue) => `${issue.path.join(".") || "request"}: ${issue.message}`).join("; ")}`);
    const request = parsed.data;
    const source = await this.deps.experiments.get(request.experimentId);
    if (source.damaged) throw new AppError("conflict", `${source.damaged} It cannot feed an optimisation.`);
    const { definition } = source;
    const arm = request.arm === undefined ? definition.arms[0] : definition.arms.find((candidate) => candidate.label === request.arm);
    if (!arm) throw new AppError("invalid-input", `Experiment ${source.id} has no arm "${request.arm}"; its arms are ${definition.arms.map((a) => `"${a.label}"`).join(", ")}.`);
    if (request.role === "reflector" && arm.strategy === "none") throw new AppError("invalid-input", `Arm "${arm.label}" runs the strategy none, which writes no reflections: optimise its actor, or pick an arm with reflections.`);
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
      const stepper = new Steps(this.deps, record, drive, progress, (next) => this.save(next));
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

/** A candidate slot before anything was done for it. */
function blankCandidate(key: string, round: number, index: number, versionId: string | null, parentId: string | null): OptimisationCandidate {
  return {
    key, round, index, versionId, parentId, status: "proposed", error: null, failuresRead: [], trainExperimentId: null, train: null, trainByTask: null,
    heldOutExperimentId: null, heldOut: null, parentHeldOut: null, pVsParent: null, onFront: false, costUsd: 0, tokens: 0,
  };
}

/** Thrown inside {@link Steps} when the budget stops the optimisation at a boundary. */
class BudgetSpent extends Error {}

/** One pass over an optimisation's remaining steps, in a fixed order, so a resumed one does exactly what is left. */
class Steps {
  constructor(
    private readonly deps: OptimiserDeps,
    private record: OptimisationRecord,
    private readonly drive: ExperimentDriver,
    private readonly progress: ProgressListener,
    private readonly persist: (record: OptimisationRecord) => Promise<void>,
  ) {}

  async all(): Promise<OptimisationRecord> {
    try {
      const { rounds, candidatesPerRound } = this.record.request;
      await this.evaluateTrain("0:0");
      for (let round = 1; round <= rounds; round += 1) {
        for (let index = 0; index < candidatesPerRound; index += 1) {
          const key = `${round}:${index}`;
          if (!this.candidate(key)) await this.propose(round, index);
          if (this.candidate(key)?.status === "proposed") await this.evaluateTrain(key);
        }
      }
      for (const candidate of this.record.candidates) {
        if (candidate.round > 0 && candidate.onFront && candidate.status === "evaluated" && candidate.pVsParent === null) await this.evaluateHeldOut(candidate.key);
      }
      await this.update({ status: "done", detail: null });
      this.progress(`Optimisation ${this.record.id} done.`);
    } catch (error) {
      if (!(error instanceof BudgetSpent)) throw error;
      await this.update({ status: "budget-spent", detail: error.message });
      this.progress(error.message);
    }
    return this.record;
  }

  private candidate(key: string): OptimisationCandidate | undefined {
    return this.record.candidates.find((candidate) => candidate.key === key);
  }

  private async update(changes: Partial<OptimisationRecord>): Promise<void> {
    this.record = { ...this.record, ...changes };
    await this.persist(this.record);
  }

  private async updateCandidate(key: string, changes: Partial<OptimisationCandidate>, spent = { tokens: 0, usd: 0 }): Promise<void> {
    const candidates = this.record.candidates.map((candidate) =>
      candidate.key === key ? { ...candidate, ...changes, tokens: candidate.tokens + spent.tokens, costUsd: candidate.costUsd + spent.usd } : candidate,
    );
    if (!candidates.some((candidate) => candidate.key === key)) throw new Error(`No candidate ${key}.`);
    await this.update({ candidates, spend: { tokens: this.record.spend.tokens + spent.tokens, usd: this.record.spend.usd + spent.usd } });
  }

  /** Stops at this boundary when the budget is spent. */
  private checkBudget(): void {
    const why = budgetExhausted(this.record.request.budget, this.record.spend);
    if (why !== null) throw new BudgetSpent(`${why.replace(/ Resume with a higher budget to continue\.$/, "")} The optimisation stopped at a boundary; continue with \`npm run cli -- templates optimise --resume ${this.record.id}\` and a larger --budget-usd / --budget-tokens.`);
  }

  private async plan(taskIds: readonly string[]): Promise<EvaluationPlan> {
    const source = await this.deps.experiments.get(this.record.request.experimentId);
    const arm = source.definition.arms.find((candidate) => candidate.label === this.record.request.arm) as Arm;
    return { source, arm, role: this.record.request.role, taskIds, repeats: this.record.request.repeats, maxTrials: this.record.request.maxTrials };
  }

  /** Drives an evaluation experiment to its end (resuming one a stopped process left). */
  private async finish(experimentId: string, resumed: boolean) {
    if (resumed) await this.deps.experiments.resume(experimentId);
    return this.drive(experimentId);
  }

  private async evaluateTrain(key: string): Promise<void> {
    const candidate = this.candidate(key)!;
    if (candidate.status !== "proposed" || candidate.versionId === null) return;
    this.checkBudget();
    let experimentId = candidate.trainExperimentId;
    const resumed = experimentId !== null;
    if (experimentId === null) {
      const plan = await this.plan(this.record.split.train);
      experimentId = await startEvaluation(this.deps.experiments, plan, `${this.record.id} ${key} train`, [{ label: CANDIDATE_ARM, versionId: candidate.versionId }]);
      await this.updateCandidate(key, { trainExperimentId: experimentId });
    }
    this.progress(`[${key}] evaluating ${candidate.versionId} on ${this.record.split.train.length} train task(s) (experiment ${experimentId})…`);
    const summary = await this.finish(experimentId, resumed);
    const train = rateOf(summary, CANDIDATE_ARM);
    await this.updateCandidate(key, { status: "evaluated", train, trainByTask: scoresByTask(summary, CANDIDATE_ARM) }, spendOf(summary));
    await this.refreshFront();
    this.progress(`[${key}] train success ${(train.rate * 100).toFixed(0)} % [${(train.interval[0] * 100).toFixed(0)}, ${(train.interval[1] * 100).toFixed(0)}] on ${train.n} task(s).`);
  }

  private frontEntries(before = Infinity): FrontEntry[] {
    return this.record.candidates
      .filter((candidate) => candidate.round < before && candidate.status === "evaluated" && candidate.trainByTask !== null)
      .map((candidate) => ({ key: candidate.key, scores: candidate.trainByTask! }));
  }

  private async refreshFront(): Promise<void> {
    const front = new Set(paretoFront(this.frontEntries(), this.record.split.train));
    await this.update({ candidates: this.record.candidates.map((candidate) => ({ ...candidate, onFront: front.has(candidate.key) })) });
  }

  private async propose(round: number, index: number): Promise<void> {
    const key = `${round}:${index}`;
    const { request, split } = this.record;
    const entries = this.frontEntries(round);
    const keep = new Set(paretoFront(entries, split.train));
    const parentEntry = pickParent(entries.filter((entry) => keep.has(entry.key)), split.train, index, (k) => Number(k.split(":")[0]));
    const parent = parentEntry ? this.candidate(parentEntry.key) : undefined;
    if (!parent?.versionId) throw new Error(`Round ${round} has no evaluated parent to mutate (the starting version was not evaluated).`);
    this.checkBudget();
    this.record = { ...this.record, candidates: [...this.record.candidates, blankCandidate(key, round, index, null, parent.versionId)] };
    // The parent's own failures: the source experiment's for the starting version, its train evaluation's after.
    const fromSource = parent.key === "0:0" && parent.versionId === request.startVersionId;
    const experimentId = fromSource ? request.experimentId : parent.trainExperimentId!;
    const armLabel = fromSource ? request.arm : CANDIDATE_ARM;
    const all = await failedTrials(await this.deps.experiments.summary(experimentId), armLabel, split.train, async (runId) => (await this.deps.runs.events(runId)).events);
    // Every proposal of the optimisation starts at another place in the list, so rounds read new failures too.
    const failures = failureSlice(all, (round - 1) * request.candidatesPerRound + index, request.failuresPerProposal);
    if (failures.length === 0) {
      await this.updateCandidate(key, { status: "failed", error: `Its parent ${parent.versionId} failed no train trial: there is nothing to learn from.` });
      return;
    }
    const parentVersion = (await this.deps.templates.resolve(parent.versionId)).version;
    const meta = (await this.deps.templates.resolve(request.metaPromptVersionId)).version;
    this.progress(`[${key}] proposing from ${parent.versionId} with ${failures.length} failed trial(s) (model ${request.modelId})…`);
    const proposal = await proposeTemplate(this.deps, { metaPrompt: meta.text, role: request.role, family: request.family, template: parentVersion.text, failures, modelId: request.modelId });
    const failuresRead = failures.map((failure) => failure.id);
    const spent = { tokens: proposal.tokens, usd: proposal.usd };
    const refusal = proposal.text === null ? proposal.error : this.refusal(proposal.text, parentVersion.text);
    if (refusal !== null || proposal.text === null) {
      await this.updateCandidate(key, { status: "failed", error: refusal, failuresRead }, spent);
      this.progress(`[${key}] no candidate: ${refusal}`);
      return;
    }
    const { version, created } = await this.deps.templates.store.addVersion({
      templateId: request.targetTemplateId,
      parentId: parent.versionId,
      text: proposal.text,
      message: `Optimisation ${this.record.id}, round ${round}: proposed by ${request.modelId} from ${failures.length} failed trial(s) of ${parent.versionId}.`,
      builtIn: false,
    });
    if (!created) {
      await this.updateCandidate(key, { status: "failed", error: `The proposal is the text of version ${version.id} already; nothing new to evaluate.`, failuresRead }, spent);
      return;
    }
    await this.updateCandidate(key, { versionId: version.id, failuresRead }, spent);
    this.progress(`[${key}] saved ${version.id} (v${version.number} of ${request.targetTemplateId}), parent ${parent.versionId}.`);
  }

  /** Why a proposed text cannot be a candidate (the same as its parent, or refused by the template check), or null. */
  private refusal(text: string, parentText: string): string | null {
    if (text.trim() === parentText.trim()) return "The proposal repeats its parent's text; nothing new to evaluate.";
    try {
      assertTemplateText(text, templateRulesFor(this.record.request.family, this.record.request.role), { what: "The proposed template" });
      return null;
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
  }

  private async evaluateHeldOut(key: string): Promise<void> {
    const candidate = this.candidate(key)!;
    const parent = this.record.candidates.find((other) => other.versionId === candidate.parentId);
    if (!candidate.versionId || !candidate.parentId || this.record.split.heldOut.length === 0) return;
    this.checkBudget();
    let experimentId = candidate.heldOutExperimentId;
    const resumed = experimentId !== null;
    if (experimentId === null) {
      const plan = await this.plan(this.record.split.heldOut);
      experimentId = await startEvaluation(this.deps.experiments, plan, `${this.record.id} ${key} held-out vs parent`, [
        { label: PARENT_ARM, versionId: candidate.parentId },
        { label: CANDIDATE_ARM, versionId: candidate.versionId },
      ]);
      await this.updateCandidate(key, { heldOutExperimentId: experimentId });
    }
    this.progress(`[${key}] testing ${candidate.versionId} against its parent on ${this.record.split.heldOut.length} held-out task(s) (experiment ${experimentId})…`);
    const summary = await this.finish(experimentId, resumed);
    const heldOut = rateOf(summary, CANDIDATE_ARM);
    const parentHeldOut = rateOf(summary, PARENT_ARM);
    const pVsParent = await pAgainstParent(this.deps.experiments, experimentId);
    await this.updateCandidate(key, { heldOut, parentHeldOut, pVsParent }, spendOf(summary));
    // The parent's held-out score is measured here too: recorded on it when it has none.
    if (parent && parent.heldOut === null) await this.updateCandidate(parent.key, { heldOut: parentHeldOut });
    this.progress(`[${key}] held-out ${(heldOut.rate * 100).toFixed(0)} % vs parent ${(parentHeldOut.rate * 100).toFixed(0)} %, p = ${pVsParent.toPrecision(3)}.`);
  }
}
