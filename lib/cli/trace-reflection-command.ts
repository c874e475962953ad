import fs from "node:fs";
import { InvalidArgumentError, Option, type Command } from "commander";
import { z } from "zod";
import { memoryStoreNameSchema } from "@/lib/domain/memory-store";
import { personGradeSchema, TRACE_EVALUATOR_LABELS, traceEvaluatorSchema, type PersonGrade, type TraceReflectionResponse } from "@/lib/domain/trace-reflection";
import { reflectOnTraces, traceReflectionDeps } from "@/lib/server/trace-reflection";
import { cliContext } from "./context";
import { modelIdArg } from "./model-flags";

/**
 * `cli reflect-traces (--experiment <id> | --run <id>…) --store <name> [--evaluator trace|judge|person]
 * [--grades file.json] [--template <ref>] [--model <id>] [--json]`: Reflexion on imported traces
 * (lib/server/trace-reflection.ts). Prints each trace's verdict and the reflection written, and how
 * the outside agent reads them back (`cli memory export`).
 */

function storeName(value: string): string {
  const parsed = memoryStoreNameSchema.safeParse(value);
  if (!parsed.success) throw new InvalidArgumentError(`"${value}": ${parsed.error.issues[0]?.message ?? "not a memory store name"}`);
  return parsed.data;
}

/** A grades file: `{ "<run id>": "fail" | "pass" | { "verdict": …, "note": … } }`. */
const gradesFileSchema = z.record(z.string(), z.union([z.enum(["pass", "fail"]).transform((verdict): PersonGrade => ({ verdict })), personGradeSchema]));

/**
 * Reads a `--grades` file.
 * @throws InvalidArgumentError naming the file and what is wrong with it.
 */
export function readGradesFile(file: string): Record<string, PersonGrade> {
  let json: unknown;
  try {
    json = JSON.parse(fs.readFileSync(file, "utf8"));
  } catch (error) {
    throw new InvalidArgumentError(`cannot read grades file ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const parsed = gradesFileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const at = issue && issue.path.length > 0 ? `the grade of "${issue.path.join(".")}" is not "pass", "fail" or {"verdict": …, "note": …}` : (issue?.message ?? "bad shape");
    throw new InvalidArgumentError(`grades file ${file}: ${at}. Expected {"<run id>": "pass" | "fail" | {"verdict": "fail", "note": "…"}}.`);
  }
  return parsed.data;
}

/** The human-readable report of one reflection pass. */
export function describeTraceReflections(result: TraceReflectionResponse): string {
  const lines = [`Evaluator: ${TRACE_EVALUATOR_LABELS[result.evaluator]} · Self-Reflection: ${result.template.id} v${result.template.version} · model ${result.model}${result.model === "demo" ? " (offline demo model, a scripted stand-in)" : ""}`];
  for (const outcome of result.outcomes) {
    lines.push(`${outcome.verdict.padEnd(7)} ${outcome.runId}  ${outcome.title}  (${outcome.verdictSource})`);
    if (outcome.reflection) lines.push(`        reflection${outcome.alreadyStored ? " (already stored)" : ""}: ${outcome.reflection}`);
    if (outcome.note) lines.push(`        note: ${outcome.note}`);
  }
  if (result.unmatchedGrades.length > 0) lines.push(`warning: ${result.unmatchedGrades.length} grade(s) name no run reflected on here, so nothing used them: ${result.unmatchedGrades.join(", ")} (run ids are in cli runs, or in the import's results).`);
  const oracles = result.outcomes.filter((outcome) => outcome.reflection !== null && outcome.oracle).length;
  if (oracles > 0) lines.push(`${oracles} reflection(s) rest on an oracle signal (the verdict used the expected answer the trace records); the prompt hid that answer, but check before you hand them to an evaluation run.`);
  lines.push(`${result.failures} failure(s), ${result.written} new reflection(s) stored in memory store ${result.store}${result.skipped > 0 ? `, ${result.skipped} trace(s) skipped` : ""}.`);
  lines.push(`Hand them back to the agent: cli memory export --store ${result.store} [--task <id>] --format text`);
  return lines.join("\n");
}

/** Registers `reflect-traces`. */
export function registerTraceReflectionCommand(program: Command): void {
  program
    .command("reflect-traces")
    .description("Reflexion on imported traces: judge each trace with an Evaluator, write a Self-Reflection for each failure and store it in a memory store the outside agent can read back.")
    .option("--experiment <id>", "the import's experiment (cli import-traces prints it)")
    .option("--run <id...>", "imported runs to reflect on (instead of --experiment)")
    .requiredOption("--store <name>", "the memory store to write the reflections to (created when missing)", storeName)
    .addOption(new Option("--evaluator <kind>", "who decides a trace failed: trace (its own score), judge (rubric judge with --model), person (--grades)").choices(traceEvaluatorSchema.options).default("trace"))
    .option("--grades <file>", "a person's verdicts for --evaluator person: JSON {\"<run id>\": \"fail\" | \"pass\" | {\"verdict\": \"fail\", \"note\": \"…\"}}", readGradesFile)
    .option("--template <ref>", "the Self-Reflection template version (tv-…, <template id>@v2, <template id>@<label>); default the built-in external/reflect")
    .option("--model <id>", "the Self-Reflection and judge model (default demo, the offline scripted stand-in)", modelIdArg)
    .option("--json", "print the result as JSON")
    .action(async (options: { experiment?: string; run?: string[]; store: string; evaluator: "trace" | "judge" | "person"; grades?: Record<string, PersonGrade>; template?: string; model?: string; json?: boolean }) => {
      if (Boolean(options.experiment) === Boolean(options.run?.length)) throw new InvalidArgumentError("give --experiment <id> or --run <id…> (one of them)");
      if (options.grades && options.evaluator !== "person") throw new InvalidArgumentError(`--grades is a person's verdicts: add --evaluator person (now ${options.evaluator}, which does not read them)`);
      const context = cliContext();
      try {
        const result = await reflectOnTraces(traceReflectionDeps(context), {
          experimentId: options.experiment,
          runIds: options.run,
          store: options.store,
          evaluator: options.evaluator,
          template: options.template,
          modelId: options.model,
          grades: options.grades,
        });
        process.stdout.write(options.json ? `${JSON.stringify(result, null, 2)}\n` : `${describeTraceReflections(result)}\n`);
      } finally {
        await context.close();
      }
    });
}
