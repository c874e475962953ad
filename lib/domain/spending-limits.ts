import { z } from "zod";
import { formatUsd, MAX_BUDGET_TOKENS, MAX_BUDGET_USD } from "./budget";

/**
 * Budgets per person and per lab (docs/budgets.md, decision 0041): how much the lab's provider
 * accounts may spend per UTC day or calendar month (UTC), in USD and/or tokens (input + output), over
 * every run — unlike a run's own budget (lib/domain/budget.ts), which counts one branch. Scopes:
 * - `lab`: every live call of everyone (and of runs with no owner);
 * - `person`: the live calls of the runs one account owns (`userId`);
 * - `each-person`: the default limit of every account that has no `person` limit of its own.
 * The engine asks before each action that may call a model (the same step boundaries as the run's
 * budget); a spent limit pauses the run with reason `spending-limit`, naming whose budget and how to raise it.
 * What counts: live calls only, priced at record time (cached calls and unpriced calls cost 0 USD, so use
 * a token limit for unpriced models).
 */
export const spendingPeriods = ["day", "month"] as const;
export type SpendingPeriod = (typeof spendingPeriods)[number];

export const spendingScopeSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("lab") }),
  z.object({ kind: z.literal("each-person") }),
  z.object({ kind: z.literal("person"), userId: z.string().min(1).max(200) }),
]);
export type SpendingScope = z.infer<typeof spendingScopeSchema>;

/** One limit: a scope, a period, and at least one of USD and tokens. */
export const spendingLimitSchema = z
  .object({
    scope: spendingScopeSchema,
    period: z.enum(spendingPeriods),
    /** USD per period, > 0. */
    usd: z.number().positive().max(MAX_BUDGET_USD).nullable().default(null),
    /** Tokens (input + output) per period, > 0. */
    tokens: z.number().int().positive().max(MAX_BUDGET_TOKENS).nullable().default(null),
    /** ISO-8601: when it was last set. */
    updatedAt: z.string(),
    /** Who set it (an actor's name), for the audit. */
    updatedBy: z.string().nullable().default(null),
  })
  .refine((limit) => limit.usd !== null || limit.tokens !== null, { message: "a budget needs usd or tokens" });
export type SpendingLimit = z.infer<typeof spendingLimitSchema>;

/** `PUT /api/budgets` body: set (or replace) the limit of one scope and period. */
export const setSpendingLimitRequestSchema = z
  .object({
    scope: spendingScopeSchema,
    period: z.enum(spendingPeriods),
    usd: z.number().positive().max(MAX_BUDGET_USD).nullable().optional(),
    tokens: z.number().int().positive().max(MAX_BUDGET_TOKENS).nullable().optional(),
  })
  .refine((body) => (body.usd ?? null) !== null || (body.tokens ?? null) !== null, { message: "a budget needs usd or tokens; to remove one, DELETE /api/budgets?scope=…&period=…" });
export type SetSpendingLimitRequest = z.infer<typeof setSpendingLimitRequestSchema>;

/** Spend in one period: USD of priced live calls, tokens of all live calls, number of live calls. */
export interface PeriodSpend {
  usd: number;
  tokens: number;
  calls: number;
}

/** One limit with what has been spent against it in its current period (`GET /api/budgets`). */
export const spendingLimitViewSchema = z.object({
  limit: spendingLimitSchema,
  /** Who it applies to, for people: "the lab", "each person", "alice". */
  label: z.string(),
  /** The current period's first day (UTC, `YYYY-MM-DD`). */
  since: z.string(),
  spent: z.object({ usd: z.number(), tokens: z.number(), calls: z.number() }),
  /** True when the limit is reached: that scope's runs pause before their next model call. */
  exhausted: z.boolean(),
});
export type SpendingLimitView = z.infer<typeof spendingLimitViewSchema>;

export const spendingLimitsResponseSchema = z.object({ limits: z.array(spendingLimitViewSchema) });
export type SpendingLimitsResponse = z.infer<typeof spendingLimitsResponseSchema>;

/** The stable key of a scope (storage primary key part): `lab`, `each-person`, `person:<userId>`. */
export function scopeKey(scope: SpendingScope): string {
  return scope.kind === "person" ? `person:${scope.userId}` : scope.kind;
}

/** The scope of a {@link scopeKey}; throws on a key no scope has. */
export function scopeOfKey(key: string): SpendingScope {
  if (key === "lab" || key === "each-person") return { kind: key };
  if (key.startsWith("person:") && key.length > "person:".length) return { kind: "person", userId: key.slice("person:".length) };
  throw new Error(`Not a budget scope: "${key}" (expected lab, each-person or person:<user id>).`);
}

/** The UTC day of an instant, `YYYY-MM-DD` (the spend ledger's key). */
export function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/** The first UTC day of the period containing `at`: that day for `day`, the 1st for `month`. */
export function periodStart(period: SpendingPeriod, at: Date): string {
  const day = utcDay(at);
  return period === "day" ? day : `${day.slice(0, 7)}-01`;
}

/**
 * The limits that bind a run owned by `ownerUserId` (null: no owner): the lab's, and the owner's own
 * `person` limits, or `each-person` for a period the owner has no own limit for.
 */
export function bindingLimits(limits: readonly SpendingLimit[], ownerUserId: string | null): SpendingLimit[] {
  const lab = limits.filter((limit) => limit.scope.kind === "lab");
  if (ownerUserId === null) return lab;
  const own = limits.filter((limit) => limit.scope.kind === "person" && limit.scope.userId === ownerUserId);
  const ownPeriods = new Set(own.map((limit) => limit.period));
  const defaults = limits.filter((limit) => limit.scope.kind === "each-person" && !ownPeriods.has(limit.period));
  return [...own, ...defaults, ...lab];
}

/** True when `spent` reaches `limit` (at or over its USD or its tokens). */
export function limitReached(limit: SpendingLimit, spent: PeriodSpend): boolean {
  return (limit.usd !== null && spent.usd >= limit.usd) || (limit.tokens !== null && spent.tokens >= limit.tokens);
}

/**
 * Why a run must not call a model now, for people (`run-pause.detail`): whose budget, what was spent
 * of what, and how an admin raises it. `who` is the owner's display name (or "the lab").
 * Example: "alice's daily budget is spent: $5.03 of $5.00 today (UTC). An admin raises it under
 * Settings → Budgets or with `cli budgets set --user alice --period day --usd 10`, then resume the run."
 */
export function spendingLimitMessage(limit: SpendingLimit, spent: PeriodSpend, who: string): string {
  const lab = limit.scope.kind === "lab";
  const whose = lab ? "The lab's" : `${who}'s`;
  const period = limit.period === "day" ? "daily" : "monthly";
  const when = limit.period === "day" ? "today (UTC)" : "this month (UTC)";
  const usdOver = limit.usd !== null && spent.usd >= limit.usd;
  const figure = usdOver
    ? `$${formatUsd(spent.usd)} of $${formatUsd(limit.usd ?? 0)}`
    : `${spent.tokens.toLocaleString("en-US")} tokens of ${(limit.tokens ?? 0).toLocaleString("en-US")}`;
  // Twice what is spent (or the limit, when more): a raise that lets the run go on.
  const flag = usdOver ? `--usd ${suggestRaise(Math.max(limit.usd ?? 0, spent.usd))}` : `--tokens ${suggestRaise(Math.max(limit.tokens ?? 0, spent.tokens))}`;
  const target = lab ? "--lab" : limit.scope.kind === "each-person" ? "--each-person" : `--user ${limit.scope.kind === "person" ? limit.scope.userId : who}`;
  return `${whose} ${period} budget is spent: ${figure} ${when}. An admin raises it under Settings → Budgets or with \`cli budgets set ${target} --period ${limit.period} ${flag}\`, then resume the run.`;
}

/** Twice a figure, rounded up to a readable one (a suggestion in messages, not a policy). */
function suggestRaise(value: number): string {
  const doubled = value * 2;
  return doubled >= 10 ? String(Math.ceil(doubled)) : formatUsd(doubled);
}

/** Who a scope applies to, for people. `nameOf` gives an account's display name. */
export function scopeLabel(scope: SpendingScope, nameOf: (userId: string) => string): string {
  if (scope.kind === "lab") return "the lab";
  if (scope.kind === "each-person") return "each person";
  return nameOf(scope.userId);
}
