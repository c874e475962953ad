import type { RunStore } from "@/lib/db/store";
import type { SpendingLimitStore } from "@/lib/db/spending-limit-store";
import type { SpendingCall } from "@/lib/domain/budget";
import type { RunId } from "@/lib/domain/ids";
import {
  bindingLimits,
  limitReached,
  periodStart,
  scopeLabel,
  spendingLimitMessage,
  spendingLimitSchema,
  utcDay,
  type PeriodSpend,
  type SetSpendingLimitRequest,
  type SpendingLimit,
  type SpendingLimitView,
  type SpendingScope,
} from "@/lib/domain/spending-limits";
import type { SpendingGate } from "@/lib/engine/spending-gate";
import type { ModelPort } from "@/lib/engine/ports";
import { currentActor } from "@/lib/actors/actor-context";
import { AppError } from "@/lib/domain/errors";

/** How long limits read from the store are reused by the gate (ms): other processes' changes show within this. */
const LIMITS_TTL_MS = 2_000;

/**
 * Budgets per person and per lab (lib/domain/spending-limits.ts, docs/budgets.md): the engine's
 * {@link SpendingGate} (checked at step boundaries, fed every recorded call) and the admin's view and
 * edits (`/api/budgets`, `cli budgets`, Settings → Budgets). A run counts against its owner
 * (`RunRecord.ownerUserId`) and the lab; a run with no owner only against the lab.
 */
export class SpendingLimitService implements SpendingGate {
  private readonly owners = new Map<string, string | null>();
  private cached: { at: number; limits: SpendingLimit[] } | null = null;

  /**
   * @param nameOf an account's display name for messages (default: its id).
   * @param now the clock (tests).
   * @param findAccount the account an id or email names, or null when none (shared mode's accounts); absent
   *   without accounts (embedded mode), where a person's budget is kept under the id given.
   */
  constructor(
    private readonly runs: RunStore,
    readonly store: SpendingLimitStore,
    private readonly nameOf: (userId: string) => Promise<string> = async (userId) => userId,
    private readonly now: () => Date = () => new Date(),
    private readonly findAccount?: (idOrEmail: string) => Promise<{ id: string } | null>,
  ) {}

  async exhausted(runId: RunId): Promise<string | null> {
    if ((await this.limits()).length === 0) return null;
    return this.exhaustedFor(await this.ownerOf(runId));
  }

  /** Why a call on behalf of `owner` (an account id; null: nobody's) must not be made now, or null. */
  async exhaustedFor(owner: string | null): Promise<string | null> {
    const limits = await this.limits();
    if (limits.length === 0) return null;
    const at = this.now();
    for (const limit of bindingLimits(limits, owner)) {
      const spent = await this.store.spentSince(limit.scope.kind === "lab" ? null : owner ?? "", periodStart(limit.period, at));
      if (limitReached(limit, spent)) return spendingLimitMessage(limit, spent, owner === null ? "the lab" : await this.nameOf(owner));
    }
    return null;
  }

  async record(runId: RunId, call: SpendingCall, occurredAt: string): Promise<void> {
    if (call.source !== "live") return;
    try {
      await this.recordFor(await this.ownerOf(runId), call, occurredAt);
    } catch (error) {
      // The call is recorded in the run's log already; a lost ledger row only under-counts this budget.
      console.error(`[budgets] could not add a call of run ${runId} to the spend ledger: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /**
   * A model port for calls made outside runs (the judge of `reflect-traces`, the optimiser's meta-prompt,
   * insight extraction): each call is refused with AppError("conflict", <whose budget, how to raise it>)
   * while a budget binding the current actor's account (lib/actors/actor-context.ts) is spent, and
   * counted against that account and the lab once made.
   */
  guard(model: ModelPort): ModelPort {
    return {
      generate: async (request, options) => {
        const owner = currentActor()?.userId ?? null;
        const detail = await this.exhaustedFor(owner);
        if (detail !== null) throw new AppError("conflict", detail.replace(/, then resume the run\.$/, ", then try again."));
        const response = await model.generate(request, options);
        await this.recordFor(owner, response, new Date().toISOString()).catch((error: unknown) => {
          console.error(`[budgets] could not add a call to the spend ledger: ${error instanceof Error ? error.message : String(error)}`);
        });
        return response;
      },
    };
  }

  /** Adds one call made for `owner` (null: nobody's) to the ledger; cached calls spend nothing. */
  private async recordFor(owner: string | null, call: SpendingCall, occurredAt: string): Promise<void> {
    if (call.source !== "live") return;
    const at = new Date(occurredAt);
    const day = utcDay(Number.isNaN(at.getTime()) ? this.now() : at);
    await this.store.addSpend(owner ?? "", day, { usd: call.costUsd ?? 0, tokens: call.usage.inputTokens + call.usage.outputTokens, calls: 1 });
  }

  /** Every limit with what has been spent against it this period (for each-person: not per account — see `spentBy`). */
  async list(): Promise<SpendingLimitView[]> {
    const at = this.now();
    const limits = await this.store.listLimits();
    const names = new Map<string, string>();
    for (const limit of limits) if (limit.scope.kind === "person" && !names.has(limit.scope.userId)) names.set(limit.scope.userId, await this.nameOf(limit.scope.userId));
    return Promise.all(
      limits.map(async (limit) => {
        const since = periodStart(limit.period, at);
        const spent: PeriodSpend =
          limit.scope.kind === "lab" ? await this.store.spentSince(null, since) : limit.scope.kind === "person" ? await this.store.spentSince(limit.scope.userId, since) : { usd: 0, tokens: 0, calls: 0 };
        return { limit, label: scopeLabel(limit.scope, (id) => names.get(id) ?? id), since, spent, exhausted: limit.scope.kind !== "each-person" && limitReached(limit, spent) };
      }),
    );
  }

  /** What account `userId` (or `""`: runs with no owner) spent this `period`. */
  async spentBy(userId: string, period: SpendingLimit["period"]): Promise<PeriodSpend> {
    return this.store.spentSince(userId, periodStart(period, this.now()));
  }

  /** Sets (or replaces) a limit; `by` is who set it (an actor's name). Returns the stored limit. */
  async set(request: SetSpendingLimitRequest, by: string | null): Promise<SpendingLimit> {
    const scope = request.scope.kind === "person" && this.findAccount ? { kind: "person" as const, userId: await this.accountId(request.scope.userId) } : request.scope;
    const limit = spendingLimitSchema.parse({ scope, period: request.period, usd: request.usd ?? null, tokens: request.tokens ?? null, updatedAt: this.now().toISOString(), updatedBy: by });
    await this.store.setLimit(limit);
    this.cached = null;
    return limit;
  }

  /** Removes a limit; false when there was none. */
  async remove(scope: SpendingScope, period: SpendingLimit["period"]): Promise<boolean> {
    const account = scope.kind === "person" && this.findAccount ? await this.findAccount(scope.userId) : null;
    const removed = await this.store.removeLimit(account && scope.kind === "person" ? { kind: "person", userId: account.id } : scope, period);
    this.cached = null;
    return removed;
  }

  /** The account id an id or email names. @throws AppError("invalid-input") when no account has it. */
  private async accountId(idOrEmail: string): Promise<string> {
    const account = await this.findAccount?.(idOrEmail);
    if (!account) throw new AppError("invalid-input", `No account "${idOrEmail}": give an account's email or id (see \`cli users list\` or Settings → Users).`);
    return account.id;
  }

  private async limits(): Promise<SpendingLimit[]> {
    const now = Date.now();
    if (this.cached && now - this.cached.at < LIMITS_TTL_MS) return this.cached.limits;
    const limits = await this.store.listLimits();
    this.cached = { at: now, limits };
    return limits;
  }

  private async ownerOf(runId: RunId): Promise<string | null> {
    if (this.owners.has(runId)) return this.owners.get(runId) ?? null;
    const run = await this.runs.getRun(runId);
    const owner = run?.ownerUserId ?? null;
    if (run) this.owners.set(runId, owner);
    return owner;
  }
}
