import { InvalidArgumentError, Option, type Command } from "commander";
import { MAX_BUDGET_TOKENS, MAX_BUDGET_USD } from "@/lib/domain/budget";
import { optimisationFinished, optimisationSummaryLine, type OptimisationRecord } from "@/lib/domain/optimiser/types";
import { pValueText } from "@/lib/domain/stats/p-value";
import { inProcessDriver } from "@/lib/server/optimiser/experiment-driver";
import { budgetFromFlags } from "./budget-flags";
import { EXIT_BUDGET_EXHAUSTED } from "./follow";
import { cliContext } from "./context";
import { positiveInt, rangedInt } from "./options";

/**
 * `cli templates optimise` (docs/optimiser.md): starts a reflective optimisation from an experiment,
 * or resumes one (`--resume <opt-id>`), and drives its evaluation experiments in this process.
 * Progress goes to stderr; stdout gets a table of the candidates, or with `--json` one closing JSON
 * line (lib/domain/optimiser/types.ts `OptimisationSummaryLine`). Exit codes: 0 done (or already
 * done), 1 failed, {@link EXIT_NO_CANDIDATE} when every proposal failed, {@link EXIT_BUDGET_EXHAUSTED} when the budget stopped it (resume with a larger
 * one), {@link EXIT_INTERRUPTED} on SIGINT / SIGTERM (its lease released; resume it).
 */

/** Exit code of an optimisation that finished with no proposal evaluated (status `no-candidate`). */
export const EXIT_NO_CANDIDATE = 4;

/** Exit code of an optimisation stopped by SIGINT or SIGTERM (128 + SIGINT, as shells report it). */
export const EXIT_INTERRUPTED = 130;

interface OptimiseOptions {
  experiment?: string;
  resume?: string;
  role?: "actor" | "reflector";
  arm?: string;
  start?: string;
  metaPrompt?: string;
  model?: string;
  rounds?: number;
  candidates?: number;
  repeats?: number;
  heldOut?: number;
  seed?: number;
  failures?: number;
  gold?: string;
  budgetUsd?: number;
  budgetTokens?: number;
  concurrency?: number;
  json?: boolean;
}

/** `--budget-tokens`: a whole number from 1 to {@link MAX_BUDGET_TOKENS}, in one message. */
function budgetTokens(value: string): number {
  const parsed = Number(value.replace(/[_,]/g, ""));
  if (!Number.isInteger(parsed) || parsed < 1 || parsed > MAX_BUDGET_TOKENS) {
    throw new InvalidArgumentError(`must be a whole number of tokens from 1 to ${MAX_BUDGET_TOKENS.toLocaleString("en-US")} (e.g. 2000000); got "${value}".`);
  }
  return parsed;
}

/** `--budget-usd`: above 0 and at most {@link MAX_BUDGET_USD}, in one message. */
function budgetUsd(value: string): number {
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed <= 0 || parsed > MAX_BUDGET_USD) {
    throw new InvalidArgumentError(`must be a number of USD above 0 and at most ${MAX_BUDGET_USD.toLocaleString("en-US")} (e.g. 0.5); got "${value}".`);
  }
  return parsed;
}

function fraction(value: string): number {
  const parsed = Number(value);
  if (!(parsed > 0 && parsed < 1)) throw new Error(`--held-out must be a share between 0 and 1 (exclusive), e.g. 0.3; got "${value}".`);
  return parsed;
}

/** Registers `templates optimise` on the `templates` command. */
export function registerOptimiseCommand(templates: Command): void {
  templates
    .command("optimise")
    .description("Improve a template from an experiment's failed trials: a model reads them with the meta-prompt and proposes candidates, each evaluated on the train tasks (Pareto front kept); the front is tested against its parents on held-out tasks. The demo model is a scripted stand-in.")
    .option("--experiment <id>", "the source experiment (its failures feed the meta-prompt; its tasks are split)")
    .option("--resume <opt-id>", "continue an optimisation that stopped (budget spent, or the process ended); budget flags replace its budget")
    .addOption(new Option("--role <role>", "the template to optimise").choices(["actor", "reflector"]))
    .option("--arm <label>", "the source experiment's arm (default its first)")
    .option("--start <version>", "the starting version (default the one the arm used for the role)")
    .option("--meta-prompt <version>", "the meta-prompt template version (default <family>/optimise)")
    .option("--model <id>", "the model that answers the meta-prompt (default the arm's)")
    .option("--rounds <n>", "rounds of proposals", rangedInt(1, 10), 2)
    .option("--candidates <n>", "candidates per round", rangedInt(1, 8), 2)
    .option("--repeats <n>", "repetitions of every evaluation (intervals and tests over tasks and repetitions)", rangedInt(1, 20), 1)
    .option("--held-out <share>", "share of the tasks held out for the final test", fraction, 0.3)
    .option("--seed <n>", "seed of the train / held-out split", rangedInt(0, 2_147_483_647), 0)
    .option("--failures <n>", "failed trials shown per proposal", rangedInt(1, 20), 6)
    .option("--gold <store>", "a memory store of gold reflections (reviewers' corrections, e.g. gold-reflections): its train tasks' entries are shown to the meta-prompt as examples of good reflections")
    .option("--concurrency <n>", "evaluation runs at once in this process", positiveInt, 4)
    .option("--budget-usd <usd>", "stop at the next boundary (between proposals and evaluations) once meta-prompt calls and evaluations cost this much (at most 1,000,000)", budgetUsd)
    .option("--budget-tokens <n>", "stop at the next boundary once they used this many tokens, input + output (at most 1,000,000,000)", budgetTokens)
    .option("--json", "end with one JSON line: every candidate's version id, parent id, train and held-out scores with intervals and p against its parent")
    .action(async (options: OptimiseOptions) => {
      if ((options.experiment === undefined) === (options.resume === undefined)) throw new Error("Give --experiment <id> to start an optimisation or --resume <opt-id> to continue one (not both).");
      if (options.experiment !== undefined && options.role === undefined) throw new Error("--role actor|reflector: which template to optimise.");
      const context = cliContext();
      const say = (message: string) => process.stderr.write(`[optimise] ${message}\n`);
      let current: string | undefined = options.resume;
      // Ctrl-C / kill: release the lease at once (another process may resume without waiting for it to expire).
      const onSignal = () => {
        void context.optimiser
          .releaseAll()
          .catch(() => [] as string[])
          .then((released) => {
            const id = current ?? released[0];
            process.stderr.write(id ? `Interrupted. Resume with: npm run cli -- templates optimise --resume ${id}\n` : "Interrupted before the optimisation was stored.\n");
            process.exit(EXIT_INTERRUPTED);
          });
      };
      process.once("SIGINT", onSignal);
      process.once("SIGTERM", onSignal);
      try {
        const budget = budgetFromFlags(options);
        if (options.resume) {
          const stored = await context.optimiser.get(options.resume);
          if (optimisationFinished(stored.status)) {
            say(`${stored.id} is already ${stored.status === "done" ? "done" : "finished (no-candidate)"}; nothing to resume.`);
            process.stdout.write(options.json ? `${JSON.stringify(optimisationSummaryLine(stored))}\n` : `${describe(stored).join("\n")}\n`);
            process.exitCode = stored.status === "done" ? 0 : EXIT_NO_CANDIDATE;
            return;
          }
        }
        const record = options.resume
          ? await context.optimiser.resume(options.resume, budget === undefined ? {} : { budget })
          : await context.optimiser.create({
              experimentId: options.experiment!,
              role: options.role!,
              arm: options.arm,
              startVersion: options.start,
              metaPromptVersion: options.metaPrompt,
              modelId: options.model,
              rounds: options.rounds,
              candidatesPerRound: options.candidates,
              repeats: options.repeats,
              trainFraction: 1 - (options.heldOut ?? 0.3),
              seed: options.seed,
              failuresPerProposal: options.failures,
              goldStore: options.gold,
              budget: budget ?? null,
            });
        current = record.id;
        say(`${options.resume ? "Resuming" : "Started"} ${record.id}: ${record.request.role} of ${record.request.family} (arm "${record.request.arm}") from ${record.request.startVersionId}; ${record.split.train.length} train / ${record.split.heldOut.length} held-out task(s); candidates go into ${record.request.targetTemplateId}.`);
        const final = await context.optimiser.run(record.id, inProcessDriver(context, options.concurrency), say);
        process.stdout.write(options.json ? `${JSON.stringify(optimisationSummaryLine(final))}\n` : `${describe(final).join("\n")}\n`);
        process.exitCode = final.status === "done" ? 0 : final.status === "budget-spent" ? EXIT_BUDGET_EXHAUSTED : final.status === "no-candidate" ? EXIT_NO_CANDIDATE : 1;
        // The budget's message was printed when it stopped; here only how to go on.
        if (final.status === "budget-spent") say(`Continue with: npm run cli -- templates optimise --resume ${final.id} --budget-tokens <more> (or --budget-usd <more>).`);
        else if (final.status === "failed") say(final.detail ?? final.status);
      } finally {
        process.removeListener("SIGINT", onSignal);
        process.removeListener("SIGTERM", onSignal);
        await context.close();
      }
    });
}

const percent = (value: number) => `${Math.round(value * 100)} %`;

/** People's view: one line per candidate. */
function describe(record: OptimisationRecord): string[] {
  const lines = [`Optimisation ${record.id} (${record.status}) — ${record.spend.tokens.toLocaleString("en-US")} tokens, $${record.spend.usd.toFixed(4)}; candidates in ${record.request.targetTemplateId}`];
  for (const c of record.candidates) {
    const train = c.train ? `train ${percent(c.train.rate)} [${percent(c.train.interval[0])}, ${percent(c.train.interval[1])}]` : "train —";
    const held = c.heldOut ? `held-out ${percent(c.heldOut.rate)} [${percent(c.heldOut.interval[0])}, ${percent(c.heldOut.interval[1])}]` : "held-out —";
    const p = c.pVsParent === null ? "" : ` vs parent ${c.parentHeldOut ? percent(c.parentHeldOut.rate) : "?"}, ${pValueText(c.pVsParent)}`;
    const what = c.status === "failed" ? `failed: ${c.error}` : `${train}; ${held}${p}${c.onFront ? " (front)" : ""}${c.proposedAgain ? " (proposed again)" : ""}`;
    lines.push(`  round ${c.round} #${c.index} ${c.versionId ?? "(no version)"} ← ${c.parentId ?? "—"}: ${what}`);
  }
  return lines;
}
