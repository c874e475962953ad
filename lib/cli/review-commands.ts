import fs from "node:fs";
import path from "node:path";
import { InvalidArgumentError, Option, type Command } from "commander";
import { cliContext } from "./context";
import { reviewsCsv, reviewsJson } from "@/lib/server/review-export";

/**
 * `cli review create --experiment <id> --kind single|pairwise --arms A,B --reviewers ann,bob
 * [--name …] [--only-failed] [--seed n] [--items reflections|verdicts]` (or `--query <q>` instead of an experiment), `cli review list [--json]` and `cli review export --queue
 * <id> --format csv|json [--out file]`: review queues (docs/review-queues.md) — the same service,
 * checks and export as `/api/reviews`.
 */

function list(value: string): string[] {
  const items = value
    .split(",")
    .map((item) => item.trim())
    .filter((item) => item.length > 0);
  if (items.length === 0) throw new InvalidArgumentError(`"${value}": give a comma-separated list (e.g. A,B)`);
  return items;
}

function seed(value: string): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0 || parsed > 2 ** 31 - 1) throw new InvalidArgumentError(`"${value}": a seed is a whole number from 0 to 2147483647`);
  return parsed;
}

/** Registers `review create`, `review list` and `review export`. */
export function registerReviewCommands(program: Command): void {
  const review = program.command("review").description("Review queues: people review reflections against a rubric, or two arms' reflections side by side (pairwise); export their reviews.");

  review
    .command("create")
    .description(
      "Build a review queue from an experiment's reflections (single: a rubric label per reflection; pairwise: which of two arms' reflections of the same task and trial is better, sides randomised), from its judged trials (--items verdicts: calibrate the LLM judge) or from a search query (--query).",
    )
    .option("--experiment <id>", "the experiment (cli experiment list)")
    .option("--query <query>", "instead of an experiment: a search query (docs/search.md); the reflection after each matched trial becomes an item of a single queue")
    .addOption(new Option("--kind <kind>", "single or pairwise").choices(["single", "pairwise"]).default("single"))
    .option("--arms <labels>", "arm labels, comma-separated (pairwise: exactly two; single: default all)", list)
    .requiredOption("--reviewers <names>", "reviewers' names, comma-separated (e.g. ann,bob)", list)
    .option("--name <name>", "the queue's name (default: the experiment's name and arms)")
    .option("--only-failed", "single: only reflections whose next trial failed")
    .addOption(
      new Option("--items <items>", "single: reflections, or verdicts — one item per trial the LLM judge judged (open family), graded pass/fail blind; each label is also your grade on the judge page")
        .choices(["reflections", "verdicts"])
        .default("reflections"),
    )
    .option("--seed <n>", "pairwise: the seed the sides are drawn with (default random; stored on the queue)", seed)
    .option("--corrections <store>", "the memory store reviewers' corrections go to (default gold-reflections)")
    .option("--json", "print the queue and its items as JSON")
    .action(async (options: { experiment?: string; query?: string; kind: "single" | "pairwise"; arms?: string[]; reviewers: string[]; name?: string; onlyFailed?: boolean; items: "reflections" | "verdicts"; seed?: number; corrections?: string; json?: boolean }) => {
      const context = cliContext();
      try {
        const detail = await context.reviews.create({
          experimentId: options.experiment,
          query: options.query,
          kind: options.kind,
          arms: options.arms ?? [],
          reviewers: options.reviewers,
          name: options.name,
          onlyFollowedByFailure: options.onlyFailed ?? false,
          items: options.items,
          seed: options.seed,
          correctionStore: options.corrections,
        });
        if (options.json) {
          process.stdout.write(`${JSON.stringify({ queue: detail.queue, items: detail.items }, null, 2)}\n`);
          return;
        }
        process.stdout.write(`${detail.queue.id}\n`);
        process.stderr.write(
          `Built ${detail.queue.kind} queue "${detail.queue.name}" with ${detail.items.length} item${detail.items.length === 1 ? "" : "s"} for ${detail.queue.reviewers.join(", ")}${detail.queue.kind === "pairwise" ? ` (sides drawn with seed ${detail.queue.seed})` : ""}. Review it on /reviews/${detail.queue.id}.\n`,
        );
      } finally {
        await context.close();
      }
    });

  review
    .command("list")
    .description("List the review queues, newest first: id, kind, items, reviews per reviewer, name.")
    .option("--json", "print them as JSON ({ queues: [{ queue, progress }] })")
    .action(async (options: { json?: boolean }) => {
      const context = cliContext();
      try {
        const queues = await context.reviews.list();
        if (options.json) {
          process.stdout.write(`${JSON.stringify({ queues }, null, 2)}\n`);
          return;
        }
        for (const { queue, progress } of queues) {
          const done = progress.byReviewer.map((entry) => `${entry.reviewer} ${entry.reviewed}/${progress.items}`).join(", ");
          process.stdout.write(`${queue.id}\t${queue.kind}\t${progress.items} items\t${done}\t${queue.name}\n`);
        }
        if (queues.length === 0) process.stderr.write("No review queues yet. Build one with `cli review create --experiment <id> --reviewers ann,bob` or on the Reviews page.\n");
      } finally {
        await context.close();
      }
    });

  review
    .command("export")
    .description("Export a queue's reviews: CSV (one row per review: queue, item position, task, arms, left/right arm, label, preferred arm, reviewer, tags, comment, correction, time) or JSON (queue, items, reviews, agreement).")
    .requiredOption("--queue <id>", "the queue (cli review list)")
    .addOption(new Option("--format <format>", "csv or json").choices(["csv", "json"]).default("csv"))
    .option("--out <file>", "write to this file instead of stdout")
    .action(async (options: { queue: string; format: "csv" | "json"; out?: string }) => {
      const context = cliContext();
      try {
        const detail = await context.reviews.detail(options.queue);
        const text = options.format === "csv" ? reviewsCsv(detail) : reviewsJson(detail);
        if (options.out) {
          fs.mkdirSync(path.dirname(path.resolve(options.out)), { recursive: true });
          fs.writeFileSync(options.out, text);
          process.stderr.write(`Wrote ${detail.reviews.length} review${detail.reviews.length === 1 ? "" : "s"} of queue ${detail.queue.id} to ${options.out}.\n`);
        } else process.stdout.write(text);
      } finally {
        await context.close();
      }
    });
}
