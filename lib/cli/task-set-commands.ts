import type { Command } from "commander";
import { escapeControlCharacters } from "@/lib/domain/ids";
import { cliContext } from "./context";

/**
 * `cli task-sets list [--json]` and `cli task-sets delete --id <id>`: the uploaded task sets of the
 * database (the same as `GET /api/task-sets` and `DELETE /api/task-sets/:id`). Deleting a set keeps
 * every recorded run (each copied its task into its config).
 */

/** Registers `task-sets`. */
export function registerTaskSetCommands(program: Command): void {
  const sets = program.command("task-sets").description("The uploaded task sets: list them, delete one.");
  sets
    .command("list")
    .description("One line per uploaded set, newest first: id, family, task count, created, name.")
    .option("--json", "print the list as JSON")
    .action(async (options: { json?: boolean }) => {
      const context = cliContext();
      try {
        const taskSets = await context.service.listTaskSets();
        if (options.json) {
          process.stdout.write(`${JSON.stringify({ taskSets }, null, 2)}\n`);
          return;
        }
        if (taskSets.length === 0) process.stderr.write("No uploaded task set. Upload one in the UI or with POST /api/task-sets.\n");
        for (const set of taskSets) process.stdout.write(`${set.id}\t${set.environment}\t${set.taskCount} tasks\t${set.createdAt}\t${escapeControlCharacters(set.name)}\n`);
      } finally {
        await context.close();
      }
    });
  sets
    .command("delete")
    .description("Delete an uploaded task set. Runs keep their tasks; experiments on it can no longer be resumed from it.")
    .requiredOption("--id <id>", "task set id (from `task-sets list`)")
    .action(async (options: { id: string }) => {
      const context = cliContext();
      try {
        await context.service.deleteTaskSet(options.id);
        process.stdout.write(`Deleted task set ${options.id}.\n`);
      } finally {
        await context.close();
      }
    });
}
