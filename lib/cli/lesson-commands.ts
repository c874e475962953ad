import fs from "node:fs";
import path from "node:path";
import type { Command } from "commander";
import { AppError } from "@/lib/domain/errors";
import { LessonService } from "@/lib/server/lesson-library";
import { cliContext } from "./context";

/**
 * `cli lessons export <id> [--out f.md]` and `cli lessons import <f.md>`: a lesson's `.md` file
 * (YAML front matter + introduction, the format of `lessons/*.md`) out of the app, and a lesson
 * file into it as a lesson written in the app (the same rules as `POST /api/lessons/import`: a
 * taken id gets a free one, said on stderr; a file that does not validate stores nothing).
 */
export function registerLessonCommands(program: Command): void {
  const lessons = program.command("lessons").description("Lessons (the lessons folder's and those written in the app): export one as its .md file, import one.");
  lessons
    .command("export <lessonId>")
    .description("Write a lesson as its .md file (to stdout, or --out).")
    .option("--out <file>", "the file to write (default: stdout)")
    .action(async (lessonId: string, options: { out?: string }) => {
      const context = cliContext();
      try {
        const { fileName, text } = await new LessonService(context).fileOf(lessonId);
        if (!options.out) {
          process.stdout.write(text);
          return;
        }
        fs.writeFileSync(options.out, text);
        process.stderr.write(`Wrote ${fileName} to ${options.out}.\n`);
      } finally {
        await context.close();
      }
    });
  lessons
    .command("import <file>")
    .description("Store a lesson .md file as a lesson written in the app (listed on /lessons).")
    .action(async (file: string) => {
      let text: string;
      try {
        text = fs.readFileSync(file, "utf8");
      } catch (error) {
        throw new AppError("invalid-input", `Cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`);
      }
      const context = cliContext();
      try {
        const result = await new LessonService(context).importLesson({ text }, { file: path.basename(file) });
        const { id, title } = result.document.lesson;
        if (result.renamedFrom) process.stderr.write(`A lesson "${result.renamedFrom}" is here already: stored as ${id}.\n`);
        process.stdout.write(`${result.unchanged ? "Already here" : "Imported"}: ${id}\t${title}\n`);
      } finally {
        await context.close();
      }
    });
}
