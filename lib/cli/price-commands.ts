import type { Command } from "commander";
import type { PriceRow } from "@/lib/domain/prices";
import { cliContext } from "./context";
import { positiveNumber } from "./budget-flags";

/**
 * `cli prices list [--all] [--json]` and `cli prices set <provider:model> --input <usd> --output <usd> [--cached <usd>] [--note <text>]`:
 * the price table of the settings page, in the same database.
 * USD per 1M tokens; `set` appends a row dated now (older rows stay as history).
 */

/** One row as a text line. */
export function priceLine(row: PriceRow, current: boolean): string {
  const cached = row.cachedInputUsdPerMTok === null ? "unknown" : `$${row.cachedInputUsdPerMTok}`;
  return `${current ? "*" : " "} ${row.provider}:${row.model}\tin $${row.inputUsdPerMTok}\tout $${row.outputUsdPerMTok}\tcached ${cached}\t${row.enteredAt}\t${row.note}`;
}

/** Non-negative USD rate (0 allowed: a free local model). */
function rate(value: string): number {
  if (value.trim() === "0") return 0;
  return positiveNumber(value);
}

/** Registers `prices`. */
export function registerPriceCommands(program: Command): void {
  const prices = program.command("prices").description("The price table (USD per 1M input / output / cached-input tokens) used to price every model call.");
  prices
    .command("list")
    .description("The rows in force (marked *); with --all, the older rows too.")
    .option("--all", "include the older rows (history)")
    .option("--json", "print the table as JSON")
    .action(async (options: { all?: boolean; json?: boolean }) => {
      const context = cliContext();
      try {
        const table = await context.prices.table();
        if (options.json) {
          process.stdout.write(`${JSON.stringify(table, null, 2)}\n`);
          return;
        }
        const current = new Set(table.currentIds);
        for (const row of table.rows.filter((r) => options.all || current.has(r.id))) process.stdout.write(`${priceLine(row, current.has(row.id))}\n`);
      } finally {
        await context.close();
      }
    });
  prices
    .command("set <modelId>")
    .description("Add a price row dated now for provider:model (or provider:* for all its models); calls from now on use it.")
    .requiredOption("--input <usd>", "USD per 1M input tokens", rate)
    .requiredOption("--output <usd>", "USD per 1M output tokens", rate)
    .option("--cached <usd>", "USD per 1M cached input tokens (default: unknown, cached tokens then priced as input)", rate)
    .option("--note <text>", "where the price comes from", "set by hand (cli)")
    .action(async (modelId: string, options: { input: number; output: number; cached?: number; note: string }) => {
      const context = cliContext();
      try {
        const row = await context.prices.set({ modelId, inputUsdPerMTok: options.input, outputUsdPerMTok: options.output, cachedInputUsdPerMTok: options.cached ?? null, note: options.note });
        process.stdout.write(`${priceLine(row, true)}\n`);
      } finally {
        await context.close();
      }
    });
}
