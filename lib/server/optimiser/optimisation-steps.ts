import { pValueText } from "@/lib/domain/stats/p-value";
import { budgetExhausted } from "@/lib/domain/budget";
import type { Arm } from "@/lib/domain/experiment";
import { paretoFront, pickParent, type FrontEntry } from "@/lib/domain/optimiser/pareto";
import type { OptimisationCandidate, OptimisationRecord } from "@/lib/domain/optimiser/types";
import { GOLD_REFLECTIONS_PER_PROPOSAL, type GoldReflection } from "@/lib/domain/optimiser/meta-prompt";
import { isAppError } from "@/lib/domain/errors";
import { templateProblem } from "@/lib/domain/optimiser/template-problem";
import { templateRulesFor } from "@/lib/server/template-rules";
import { CANDIDATE_ARM, PARENT_ARM, pAgainstParent, rateOf, scoresByTask, spendOf, startEvaluation, type EvaluationPlan } from "./evaluation";
import { failedTrials, failureSlice } from "./failures";
import type { ExperimentDriver, OptimiserDeps, ProgressListener } from "./optimiser-types";
import { proposeTemplate } from "./proposal";

/**
 * The steps of one optimisation (lib/server/optimiser/optimiser-service.ts runs them): evaluate the
 * starting version on the train tasks; for each round and candidate, propose (meta-prompt) and
 * evaluate on the train tasks, updating the Pareto front; then test every front candidate against
 * its parent on the held-out tasks. Each step first checks the budget and ends by saving the
 * record, and a step already done is skipped, so a resumed optimisation does exactly what is left.
 */

/** A candidate slot before anything was done for it. */
export function blankCandidate(key: string, round: number, index: number, versionId: string | null, parentId: string | null): OptimisationCandidate {
  return {
    key, round, index, versionId, parentId, status: "proposed", error: null, failuresRead: [], trainExperimentId: null, train: null, trainByTask: null,
    heldOutExperimentId: null, heldOut: null, parentHeldOut: null, pVsParent: null, onFront: false, costUsd: 0, tokens: 0,
  };
}

/** Thrown inside {@link Steps} when the budget stops the optimisation at a boundary. */
class BudgetSpent extends Error {}

/** One pass over an optimisation's remaining steps, in a fixed order, so a resumed one does exactly what is left. */
export class OptimisationSteps {
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
      const proposals = this.record.candidates.filter((candidate) => candidate.round > 0);
      if (proposals.length > 0 && !proposals.some((candidate) => candidate.status === "evaluated")) {
        const detail = `No new candidate: all ${proposals.length} proposal(s) failed (see each one's reason); nothing was evaluated beyond the starting version.`;
        await this.update({ status: "no-candidate", detail });
        this.progress(`Optimisation ${this.record.id} finished. ${detail}`);
      } else {
        await this.update({ status: "done", detail: null });
        this.progress(`Optimisation ${this.record.id} done.`);
      }
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
    // Said for every client (the web page's Resume button, the CLI's --resume): no command in it.
    if (why !== null) throw new BudgetSpent(`${why.replace(/ Resume with a higher budget to continue\.$/, "")} The optimisation stopped at a boundary; resume it with a larger budget to continue.`);
  }

  private async plan(taskIds: readonly string[]): Promise<EvaluationPlan> {
    const source = await this.deps.experiments.get(this.record.request.experimentId);
    const arm = source.definition.arms.find((candidate) => candidate.label === this.record.request.arm) as Arm;
    return { optimisationId: this.record.id, source, arm, role: this.record.request.role, taskIds, repeats: this.record.request.repeats, maxTrials: this.record.request.maxTrials };
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
      const error = `Its parent ${parent.versionId} failed no train trial: there is nothing to learn from.`;
      await this.updateCandidate(key, { status: "failed", error });
      this.progress(`[${key}] no candidate: ${error}`);
      return;
    }
    const parentVersion = (await this.deps.templates.resolve(parent.versionId)).version;
    const meta = (await this.deps.templates.resolve(request.metaPromptVersionId)).version;
    this.progress(`[${key}] proposing from ${parent.versionId} with ${failures.length} failed trial(s) (model ${request.modelId})…`);
    const gold = await this.goldReflections();
    const proposal = await proposeTemplate(this.deps, { metaPrompt: meta.text, role: request.role, family: request.family, template: parentVersion.text, failures, gold, modelId: request.modelId });
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
      // A version saved before: a repeat of this optimisation's own candidate teaches nothing new; one from
      // elsewhere (an earlier optimisation of the template, a hand edit) is a fair candidate here.
      const twin = this.record.candidates.find((other) => other.key !== key && other.versionId === version.id);
      if (twin) {
        const error = `The proposal is the text of version ${version.id}, already ${twin.round === 0 ? "the starting version" : `candidate ${twin.key}`} of this optimisation; nothing new to evaluate.`;
        await this.updateCandidate(key, { status: "failed", error, failuresRead }, spent);
        this.progress(`[${key}] no candidate: ${error}`);
        return;
      }
      await this.updateCandidate(key, { versionId: version.id, failuresRead, proposedAgain: true }, spent);
      this.progress(`[${key}] proposed again: ${version.id} (v${version.number} of ${request.targetTemplateId}) was saved before; evaluating it in this optimisation, parent ${parent.versionId}.`);
      return;
    }
    await this.updateCandidate(key, { versionId: version.id, failuresRead }, spent);
    this.progress(`[${key}] saved ${version.id} (v${version.number} of ${request.targetTemplateId}), parent ${parent.versionId}.`);
  }

  /** Why a proposed text cannot be a candidate (the same as its parent, or refused by the template check), or null. */
  /**
   * The gold reflections a proposal shows: the newest entries of the request's gold store for the
   * family's **train** tasks only (a held-out task's corrected reflection would leak its answer into
   * the template and flatter the held-out test). None without a gold store; a store deleted since the
   * optimisation was created gives none, with a progress note.
   */
  private async goldReflections(): Promise<GoldReflection[]> {
    const { request, split } = this.record;
    if (!request.goldStore || !this.deps.memoryStores) return [];
    const train = new Set(split.train);
    try {
      const exported = await this.deps.memoryStores.exportEntries(request.goldStore, { family: request.family, limit: 1000 });
      return exported.entries
        .filter((entry) => entry.kind === "reflection" && train.has(entry.taskId))
        .slice(0, GOLD_REFLECTIONS_PER_PROPOSAL)
        .map((entry) => ({ taskId: entry.taskId, text: entry.text }));
    } catch (error) {
      if (!isAppError(error, "not-found")) throw error;
      this.progress(`The gold-reflection store ${request.goldStore} is gone; proposing without gold reflections.`);
      return [];
    }
  }

  private refusal(text: string, parentText: string): string | null {
    if (text.trim() === parentText.trim()) return "The proposal repeats its parent's text; nothing new to evaluate.";
    const problem = templateProblem(text, templateRulesFor(this.record.request.family, this.record.request.role), "The proposed template");
    return problem === null ? null : `${problem} The template check refused it, so it was not saved; the meta-prompt may need to insist on keeping every placeholder.`;
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
    this.progress(`[${key}] held-out ${(heldOut.rate * 100).toFixed(0)} % vs parent ${(parentHeldOut.rate * 100).toFixed(0)} %, ${pValueText(pVsParent)}.`);
  }
}
