import fs from "node:fs";
import path from "node:path";
import type { Command } from "commander";
import { CheckConfigError, checkConfigJsonSchema, parseCheckConfig } from "@/lib/domain/ci-check/config";
import { checkJunitXml, checkMarkdown, checkPassed } from "@/lib/domain/ci-check/report";
import { isAppError } from "@/lib/domain/errors";
import { CheckCouldNotRun, runCheck } from "@/lib/server/ci-check";
import { positiveInt } from "./options";
import { cliContext } from "./context";

/** The checked-in config `cli check` reads when `--config` names none. */
export const DEFAULT_CHECK_CONFIG = "reflexion.check.json";

/** Exit codes of `cli check`: every assertion passed, one failed, the check could not run. */
export const CHECK_EXIT = { passed: 0, failed: 1, couldNotRun: 2 } as const;

interface CheckOptions {
  config: string;
  junit?: string;
  markdown?: string;
  fresh?: boolean;
  concurrency?: number;
  printSchema?: boolean;
}

/**
 * `cli check [--config f] [--junit out.xml] [--markdown out.md]`: runs the template checks of a
 * config in this process (lib/server/ci-check.ts), prints the Markdown summary, writes the reports,
 * and exits 0 (all passed), 1 (an assertion failed) or 2 (could not run: a broken config, an unknown
 * template, a provider error). docs/template-checks.md.
 */
export function registerTemplateCheckCommand(program: Command): void {
  program
    .command("check")
    .description("Run the template checks of reflexion.check.json (task sets × arms × repeats, then assertions), print a Markdown summary, write JUnit XML; exit 0 all passed, 1 an assertion failed, 2 could not run.")
    .option("--config <file>", "the check config: JSON, or YAML when it ends in .yaml/.yml (see docs/template-checks.md)", DEFAULT_CHECK_CONFIG)
    .option("--junit <file>", "write a JUnit XML report here (one testcase per assertion)")
    .option("--markdown <file>", "also write the Markdown summary here (e.g. for a pull-request comment)")
    .option("--fresh", "sample the model afresh instead of replaying the calls earlier checks of this config recorded")
    .option("--concurrency <n>", "runs executed at once (default 4)", positiveInt)
    .option("--print-schema", "print the config's JSON Schema (for editors) and exit")
    .action(async (options: CheckOptions) => {
      if (options.printSchema) {
        process.stdout.write(`${JSON.stringify(checkConfigJsonSchema(), null, 2)}\n`);
        return;
      }
      process.exitCode = await checkCommand(options);
    });
}

async function checkCommand(options: CheckOptions): Promise<number> {
  let text: string;
  try {
    text = fs.readFileSync(options.config, "utf8");
  } catch {
    process.stderr.write(`error: cannot read the check config ${options.config}. Create one (see docs/template-checks.md) or pass --config <file>.\n`);
    return CHECK_EXIT.couldNotRun;
  }
  let config;
  try {
    config = parseCheckConfig(text, options.config);
  } catch (error) {
    if (error instanceof CheckConfigError) {
      process.stderr.write(`error: ${error.message}\n`);
      return CHECK_EXIT.couldNotRun;
    }
    throw error;
  }
  const context = cliContext();
  try {
    const report = await runCheck(context, config, {
      baseDir: path.dirname(path.resolve(options.config)),
      fresh: options.fresh ?? false,
      concurrency: options.concurrency,
      log: (line) => process.stderr.write(`[check] ${line}\n`),
    });
    const markdown = checkMarkdown(report);
    process.stdout.write(markdown);
    if (options.markdown) fs.writeFileSync(options.markdown, markdown);
    if (options.junit) fs.writeFileSync(options.junit, checkJunitXml(report));
    return checkPassed(report) ? CHECK_EXIT.passed : CHECK_EXIT.failed;
  } catch (error) {
    if (error instanceof CheckCouldNotRun || isAppError(error)) {
      process.stderr.write(`error: the check could not run: ${error.message}\n`);
      return CHECK_EXIT.couldNotRun;
    }
    throw error;
  } finally {
    await context.close();
  }
}
