import { Option, type Command } from "commander";
import { AppError } from "@/lib/domain/errors";
import { noInsightsNote } from "@/lib/domain/insights";
import { memoryStoreNameSchema, type MemoryEntry } from "@/lib/domain/memory-store";
import { methodDescriptor, type MethodId } from "@/lib/methods/registry";
import { availableEnvironments } from "@/lib/environments/registry";
import { extractInsights } from "@/lib/server/insight-extraction";
import type { ServerContext } from "@/lib/server/app-context";
import { cliContext } from "./context";
import { modelIdArg } from "./model-flags";

/**
 * `cli insights extract --experiment <id> --store <name> [--model <id>] [--json]` and
 * `cli insights list --store <name> [--env <family>] [--json]`: ExpeL's insight extraction
 * (lib/server/insight-extraction.ts) and the insights a memory store holds, with their provenance.
 * An ExpeL run reads them with `cli run --strategy expel --insights <store>`.
 */

function storeName(value: string): string {
  const parsed = memoryStoreNameSchema.safeParse(value);
  if (!parsed.success) throw new Error(`"${value}": ${parsed.error.issues[0]?.message ?? "not a memory store name"}`);
  return parsed.data;
}

/** One insight as printed: its text, then where it came from. */
export function insightLines(entry: Pick<MemoryEntry, "text" | "environment" | "provenance" | "createdAt">, index: number): string {
  const provenance = entry.provenance;
  const from = provenance
    ? `${provenance.experimentId ? `experiment ${provenance.experimentId}, ` : ""}${provenance.runIds.length} run(s): ${provenance.runIds.map((id) => id.slice(0, 8)).join(" ")}; template ${provenance.template.id} v${provenance.template.version}; model ${provenance.model}`
    : "no provenance recorded";
  return `${index + 1}. ${entry.text}\n   [${entry.environment}] ${from}; ${entry.createdAt}`;
}

/** Every family's insights in `store` (families in family order). */
async function insightsOf(context: ServerContext, store: string, env?: string): Promise<MemoryEntry[]> {
  const families = env ? [env] : availableEnvironments();
  const out: MemoryEntry[] = [];
  for (const family of families) out.push(...(await context.memoryStores.insights(store, family)));
  return out;
}

/** The experiment's run ids. @throws AppError("not-found") naming the database for an unknown experiment id. */
async function experimentRunIds(context: ServerContext, id: string): Promise<string[]> {
  await context.experiments.get(id);
  return context.experiments.runIds(id);
}

/** Registers `insights`. */
export function registerInsightCommands(program: Command): void {
  const insights = program
    .command("insights")
    .description("ExpeL insights: general rules extracted from an experiment's failed and successful trials, carried by --strategy expel runs.");
  insights
    .command("extract")
    .description("Ask the Self-Reflection model for general insights from an experiment's trajectories and store them, with their provenance, in a memory store.")
    .requiredOption("--experiment <id>", "the experiment whose runs to learn from (cli experiment list)")
    .requiredOption("--store <name>", "the memory store to write the insights to (created when missing)", storeName)
    .option("--model <id>", "the model to ask (default: the runs' Self-Reflection model)", modelIdArg)
    .addOption(new Option("--max-tasks <n>", "at most this many tasks in the prompt (default 12)").argParser((value) => {
      const n = Number(value);
      if (!Number.isInteger(n) || n < 1 || n > 100) throw new Error(`expected a whole number from 1 to 100, got "${value}"`);
      return n;
    }))
    .option("--json", "print the stored insights as JSON")
    .action(async (options: { experiment: string; store: string; model?: string; maxTasks?: number; json?: boolean }) => {
      const context = cliContext();
      try {
        const extractions = await extractInsights(
          { store: context.store, experimentRunIds: (id) => experimentRunIds(context, id), memoryStores: context.memoryStores, model: context.spending.guard(context.engineDeps.model) },
          { experimentId: options.experiment, store: options.store, modelId: options.model, maxTasks: options.maxTasks },
        );
        if (options.json) {
          process.stdout.write(`${JSON.stringify(extractions.map(({ environment, insights: stored, provenance }) => ({ environment, provenance, insights: stored })), null, 2)}\n`);
          return;
        }
        for (const extraction of extractions) {
          process.stdout.write(`${extraction.insights.length} insight(s) for ${extraction.environment} stored in memory store ${options.store}:\n`);
          extraction.insights.forEach((entry, index) => process.stdout.write(`${insightLines(entry, index)}\n`));
        }
        process.stdout.write(`Run with them: cli run --strategy expel --insights ${options.store} …\n`);
      } finally {
        await context.close();
      }
    });
  insights
    .command("list")
    .description("The insights a memory store holds, per family, with where each came from.")
    .requiredOption("--store <name>", "the memory store", storeName)
    .option("--env <family>", "only this family's insights")
    .option("--json", "print them as JSON")
    .action(async (options: { store: string; env?: string; json?: boolean }) => {
      const context = cliContext();
      try {
        const found = await insightsOf(context, options.store, options.env);
        if (options.json) {
          process.stdout.write(`${JSON.stringify(found, null, 2)}\n`);
          return;
        }
        if (found.length === 0) {
          process.stdout.write(`Memory store ${options.store} holds no insights; extract them with: cli insights extract --experiment <id> --store ${options.store}\n`);
          return;
        }
        found.forEach((entry, index) => process.stdout.write(`${insightLines(entry, index)}\n`));
      } finally {
        await context.close();
      }
    });
}

/** The `--insights <store>` option of `cli run` and `cli experiment run`. */
export function insightsOption(): Option {
  return new Option("--insights <store>", "ExpeL (--strategy expel, or an expel arm): the memory store whose insights the Actor prompt carries from trial 1 on").argParser(storeName);
}

/**
 * The arms of `cli experiment run` with `--insights` applied: every arm of a method that carries
 * insights and names no store of its own gets `store`. Other arms are left as they are.
 * @throws AppError("invalid-input") when such an arm ends up without a store: an ExpeL arm without
 *   insights would be a second Reflexion arm under another name; the message says how to extract them.
 */
export function withInsightsStore<A extends { label: string; strategy: string; insights?: { store: string } | null }>(arms: readonly A[], store: string | undefined): A[] {
  const carries = (arm: A) => methodDescriptor(arm.strategy as MethodId).remembers.insights === true;
  const out = arms.map((arm) => (carries(arm) && !arm.insights && store !== undefined ? { ...arm, insights: { store } } : arm));
  const bare = out.filter((arm) => carries(arm) && !arm.insights);
  if (bare.length > 0) {
    throw new AppError(
      "invalid-input",
      `The arm${bare.length > 1 ? "s" : ""} ${bare.map((arm) => arm.label).join(", ")} need${bare.length > 1 ? "" : "s"} insights: extract them from an earlier experiment with \`cli insights extract --experiment <id> --store <name>\`, then pass --insights <name>.`,
    );
  }
  return out;
}

/**
 * The warning `cli run` prints before an ExpeL run that will carry no insights (no `--insights`, or a
 * store without insights for the family; the run records the same note and runs as Reflexion), else null.
 */
export async function expelRunWarning(context: Pick<ServerContext, "memoryStores">, run: { strategy: string; environment: string; store?: string }): Promise<string | null> {
  if (methodDescriptor(run.strategy as MethodId).remembers.insights !== true) return null;
  if (run.store !== undefined && (await context.memoryStores.insights(run.store, run.environment, 1)).length > 0) return null;
  return `Warning: ${noInsightsNote(run.store ?? null, run.environment)}; the run starts as Reflexion.`;
}
