import fs from "node:fs";
import path from "node:path";
import { InvalidArgumentError, Option, type Command } from "commander";
import { DEFAULT_EXPORT_ENTRIES, MAX_EXPORT_ENTRIES, MEMORY_EXPORT_FORMATS, memoryExportSchema, memoryExportText, type MemoryExportFormat } from "@/lib/domain/memory-export";
import { memoryStoreNameSchema } from "@/lib/domain/memory-store";
import { cliContext } from "./context";
import { rangedInt } from "./options";

/**
 * `cli memory list [--json]` and `cli memory export --store <name> [--task <id>] [--family <id>]
 * [--format json|text] [--limit n] [--out file]`: the named memory stores, and a store's lessons
 * handed back to an agent that runs elsewhere — the same service and forms as
 * `GET /api/memory-stores/<name>/reflections` (lib/domain/memory-export.ts).
 */

function storeName(value: string): string {
  const parsed = memoryStoreNameSchema.safeParse(value);
  if (!parsed.success) throw new InvalidArgumentError(`"${value}": ${parsed.error.issues[0]?.message ?? "not a memory store name"}`);
  return parsed.data;
}

/** Registers `memory list` and `memory export`. */
export function registerMemoryCommands(program: Command): void {
  const memory = program
    .command("memory")
    .description("Memory stores (reflections kept across runs, ExpeL insights): list them, export a store's entries as JSON or as prompt-ready text.");

  memory
    .command("list")
    .description("List the memory stores: name, retention (days), unexpired entries, tasks.")
    .option("--json", "print them as JSON ({ stores: [...] })")
    .action(async (options: { json?: boolean }) => {
      const context = cliContext();
      try {
        const stores = await context.memoryStores.list();
        if (options.json) {
          process.stdout.write(`${JSON.stringify({ stores }, null, 2)}\n`);
          return;
        }
        for (const store of stores) process.stdout.write(`${store.name}\t${store.retentionDays}d\t${store.entryCount} entries\t${store.taskCount} tasks\n`);
        if (stores.length === 0) process.stderr.write("No memory stores yet. A run with --write-memory <store> or `cli insights extract` creates one.\n");
      } finally {
        await context.close();
      }
    });

  memory
    .command("export")
    .description(
      "Print a store's unexpired reflections (and ExpeL insights), newest first, for an agent's next prompt: JSON ({ store, entries } with each entry's source and provenance) or text (one entry per line).",
    )
    .requiredOption("--store <name>", "the memory store (cli memory list)", storeName)
    .option("--task <id>", "only this task's reflections (with its family's insights)")
    .option("--family <id>", "only this task family's entries (qa, household, code, …)")
    .addOption(new Option("--format <format>", "json or text").choices([...MEMORY_EXPORT_FORMATS]).default("json"))
    .option("--limit <n>", `at most this many entries (1–${MAX_EXPORT_ENTRIES}, default ${DEFAULT_EXPORT_ENTRIES})`, rangedInt(1, MAX_EXPORT_ENTRIES), DEFAULT_EXPORT_ENTRIES)
    .option("--out <file>", "write to this file instead of stdout")
    .action(async (options: { store: string; task?: string; family?: string; format: MemoryExportFormat; limit: number; out?: string }) => {
      const context = cliContext();
      try {
        const exported = memoryExportSchema.parse(await context.memoryStores.exportEntries(options.store, { task: options.task, family: options.family, limit: options.limit }));
        const text = options.format === "text" ? memoryExportText(exported) : `${JSON.stringify(exported, null, 2)}\n`;
        if (options.out) {
          fs.mkdirSync(path.dirname(path.resolve(options.out)), { recursive: true });
          fs.writeFileSync(options.out, text);
          process.stderr.write(`Wrote ${exported.entries.length} entr${exported.entries.length === 1 ? "y" : "ies"} of memory store ${exported.store} to ${options.out}.\n`);
        } else process.stdout.write(text);
        if (exported.entries.length === 0) process.stderr.write(`Memory store ${exported.store} holds no unexpired entries${options.task ? ` for task ${options.task}` : ""}${options.family ? ` in family ${options.family}` : ""}.\n`);
      } finally {
        await context.close();
      }
    });
}
