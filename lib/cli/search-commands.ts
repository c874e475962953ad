import type { Command } from "commander";
import { parseQuery } from "@/lib/domain/search-grammar";
import { focusSnippet, queryPhrases } from "@/lib/domain/search-match";
import { SearchQueryError, type TrialHit, type TrialSearchResult } from "@/lib/domain/search-query";
import { runMomentHref } from "@/lib/query/url-state";
import { MAX_SEARCH_LIMIT } from "@/lib/server/search-service";
import { cliContext } from "./context";
import { rangedInt } from "./options";

/**
 * `cli search "<query>" [--json] [--limit n]`: search across runs (docs/search.md) in the app's
 * database. Prints one row per trial — run, task, trial, outcome, repeat, cost, the first match's
 * snippet — and the path of the run page that opens the node. A query that does not parse exits 2
 * with the parser's message and a caret under the offset.
 */

/** The run page path that opens a hit's node: `/runs/<id>?branch=…&node=<eventId>` (lib/query/url-state.ts). */
export function hitPath(hit: TrialHit): string {
  return runMomentHref(hit.runId, { branch: hit.branchId, node: hit.eventId });
}

function cost(usd: number | null): string {
  return usd === null ? "—" : `$${usd.toFixed(4)}`;
}

/** The result as an aligned text table, then a `N of M trials` line. */
export function searchTable(result: TrialSearchResult): string {
  const phrases = queryPhrases(parseQuery(result.query));
  const header = ["RUN", "TASK", "TRIAL", "OUTCOME", "REPEAT", "COST", "MATCH", "LINK"];
  const rows = result.hits.map((hit) => [
    hit.runId.slice(0, 8),
    hit.taskId,
    String(hit.trial),
    hit.outcome ?? "—",
    String(hit.repeat),
    cost(hit.costUsd),
    hit.matches[0] ? focusSnippet(hit.matches[0].snippet, phrases, 25) : (hit.repeatedAction ?? "").slice(0, 60),
    hitPath(hit),
  ]);
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  const line = (cells: string[]) => cells.map((cell, column) => (column === cells.length - 1 ? cell : cell.padEnd(widths[column]!))).join("  ");
  const summary = `${result.hits.length} of ${result.total} trial${result.total === 1 ? "" : "s"} (${result.normalized || "every trial"}; ${result.tookMs} ms)`;
  return [line(header), ...rows.map(line), summary].join("\n");
}

/** The parser's message with the query and a caret under the offset. */
export function describeQueryError(query: string, error: SearchQueryError): string {
  return `Bad query: ${error.message}\n  ${query}\n  ${" ".repeat(error.offset)}^ (character ${error.offset + 1})`;
}

/** Registers `search`. */
export function registerSearchCommands(program: Command): void {
  program
    .command("search <query>")
    .description('Find trials across runs: field:value, comparisons, text (e.g. "family:household repeat>=3"); see docs/search.md.')
    .option("--json", "print the whole result (hits with their matches) as JSON")
    .option("--limit <n>", `trials to show (1–${MAX_SEARCH_LIMIT}, default 50)`, rangedInt(1, MAX_SEARCH_LIMIT))
    .action(async (query: string, options: { json?: boolean; limit?: number }) => {
      const context = cliContext();
      try {
        const result = await context.search.searchTrials(query, { limit: options.limit });
        if (options.json) process.stdout.write(`${JSON.stringify({ ...result, hits: result.hits.map((hit) => ({ ...hit, path: hitPath(hit) })) }, null, 2)}\n`);
        else process.stdout.write(`${searchTable(result)}\n`);
      } catch (error) {
        if (!(error instanceof SearchQueryError)) throw error;
        process.stderr.write(`${describeQueryError(query, error)}\n`);
        process.exitCode = 2;
      } finally {
        await context.close();
      }
    });
}
