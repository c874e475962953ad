import { InvalidArgumentError, type Command } from "commander";
import { formatUsd } from "@/lib/domain/budget";
import { spendingPeriods, type SpendingLimitView, type SpendingPeriod, type SpendingScope } from "@/lib/domain/spending-limits";
import { currentActor } from "@/lib/actors/actor-context";
import { cliContext } from "./context";
import { positiveNumber } from "./budget-flags";

/**
 * `cli budgets list [--json]`, `cli budgets set (--lab | --each-person | --user <id>) --period day|month [--usd <n>] [--tokens <n>]`
 * and `cli budgets remove (--lab | --each-person | --user <id>) --period day|month`: budgets per person and per lab
 * across runs (docs/budgets.md) — the Settings → Budgets section, in the same database. USD and tokens per UTC day or month.
 */

interface ScopeFlags {
  lab?: boolean;
  eachPerson?: boolean;
  user?: string;
}

/** The scope the flags name; exactly one of --lab, --each-person, --user. */
export function scopeOfFlags(flags: ScopeFlags): SpendingScope {
  const named = [flags.lab === true, flags.eachPerson === true, flags.user !== undefined].filter(Boolean).length;
  if (named !== 1) throw new InvalidArgumentError("name exactly one of --lab, --each-person or --user <account id>.");
  if (flags.lab) return { kind: "lab" };
  if (flags.eachPerson) return { kind: "each-person" };
  return { kind: "person", userId: flags.user ?? "" };
}

function period(value: string): SpendingPeriod {
  if ((spendingPeriods as readonly string[]).includes(value)) return value as SpendingPeriod;
  throw new InvalidArgumentError(`must be ${spendingPeriods.join(" or ")}.`);
}

function tokens(value: string): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed <= 0) throw new InvalidArgumentError("must be a whole number of tokens above 0.");
  return parsed;
}

/** One budget as a text line: who, period, limit, spent this period, and EXHAUSTED when reached. */
export function budgetLine(view: SpendingLimitView): string {
  const { limit, spent } = view;
  const limits = [limit.usd !== null ? `$${formatUsd(limit.usd)}` : null, limit.tokens !== null ? `${limit.tokens.toLocaleString("en-US")} tokens` : null].filter(Boolean).join(" and ");
  const used = limit.scope.kind === "each-person" ? "per account" : `spent $${formatUsd(spent.usd)}, ${spent.tokens.toLocaleString("en-US")} tokens (${spent.calls} calls) since ${view.since}`;
  return `${view.label}\t${limit.period}\t${limits}\t${used}${view.exhausted ? "\tEXHAUSTED" : ""}`;
}

/** Registers `budgets`. */
export function registerSpendingLimitCommands(program: Command): void {
  const budgets = program.command("budgets").description("Budgets per person and per lab across runs (USD and tokens per UTC day or month); a spent one pauses runs before their next model call.");
  budgets
    .command("list")
    .description("Every budget, with what has been spent this period.")
    .option("--json", "print them as JSON")
    .action(async (options: { json?: boolean }) => {
      const context = cliContext();
      try {
        const views = await context.spending.list();
        if (options.json) process.stdout.write(`${JSON.stringify({ limits: views }, null, 2)}\n`);
        else if (views.length === 0) process.stdout.write("No budgets: runs are limited only by their own budgets. Set one with `cli budgets set --lab --period month --usd 100`.\n");
        else for (const view of views) process.stdout.write(`${budgetLine(view)}\n`);
      } finally {
        await context.close();
      }
    });
  budgets
    .command("set")
    .description("Set (or replace) a budget: the lab's, the default of each person, or one account's.")
    .option("--lab", "the whole lab (every run)")
    .option("--each-person", "every account without a budget of its own")
    .option("--user <id>", "one account: its email or id (see `cli users list`)")
    .requiredOption("--period <day|month>", "per UTC day or per calendar month", period)
    .option("--usd <n>", "USD per period", positiveNumber)
    .option("--tokens <n>", "tokens (input + output) per period", tokens)
    .action(async (options: ScopeFlags & { period: SpendingPeriod; usd?: number; tokens?: number }) => {
      if (options.usd === undefined && options.tokens === undefined) throw new InvalidArgumentError("give --usd and/or --tokens.");
      const context = cliContext();
      try {
        await context.spending.set({ scope: scopeOfFlags(options), period: options.period, usd: options.usd ?? null, tokens: options.tokens ?? null }, currentActor()?.name ?? "cli");
        for (const view of await context.spending.list()) process.stdout.write(`${budgetLine(view)}\n`);
      } finally {
        await context.close();
      }
    });
  budgets
    .command("remove")
    .description("Remove a budget.")
    .option("--lab", "the whole lab")
    .option("--each-person", "the default of each person")
    .option("--user <id>", "one account")
    .requiredOption("--period <day|month>", "which period's budget", period)
    .action(async (options: ScopeFlags & { period: SpendingPeriod }) => {
      const context = cliContext();
      try {
        if (!(await context.spending.remove(scopeOfFlags(options), options.period))) {
          process.stderr.write(`error: there is no such ${options.period} budget (see \`cli budgets list\`).\n`);
          process.exitCode = 1;
          return;
        }
        process.stdout.write("Removed.\n");
      } finally {
        await context.close();
      }
    });
}
