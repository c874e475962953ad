import { z } from "zod";
import { AppError } from "@/lib/domain/errors";

/**
 * Parser of the authors' programming logs (noahshinn/reflexion
 * `programming_runs/root/**\/*.jsonl`, GPT-4; reference §4.5). One JSON object
 * per line: the benchmark record (HumanEval: `task_id`, `prompt`, `entry_point`,
 * `test`, `canonical_solution`; MultiPL-E: `name`, `language`, `prompt`,
 * `entry_point`, `test`, …) plus what the run left: `solution` (the final
 * program), `reflections[]` (absent in the one-shot runs) and `is_solved`
 * (the hidden tests passed: pass@1).
 */

/** One problem's record as logged. */
export const programmingRecordSchema = z
  .object({
    task_id: z.string().min(1).optional(),
    name: z.string().min(1).optional(),
    language: z.string().optional(),
    prompt: z.string(),
    entry_point: z.string().min(1),
    test: z.string().default(""),
    canonical_solution: z.string().optional(),
    /** The final program (a list of generated tests in the test-accuracy log, which is not a run of the agent). */
    solution: z.string(),
    reflections: z.array(z.string()).default([]),
    is_solved: z.boolean(),
  })
  .refine((record) => (record.task_id ?? record.name) !== undefined, { message: "the record needs a task_id or a name", path: ["task_id"] });

/** A problem's record with its id and its 1-based line. */
export type ProgrammingRecord = z.infer<typeof programmingRecordSchema> & { id: string; line: number };

/** A parsed programming log. */
export interface ParsedProgrammingLog {
  file: string;
  records: ProgrammingRecord[];
}

function fail(file: string, line: number, what: string): never {
  throw new AppError("invalid-dataset", `${file}, line ${line}: ${what} Nothing was imported from this file; check that it is a complete programming run log (.jsonl) of the Reflexion repository.`);
}

/**
 * Parses a programming JSONL log. Blank lines are skipped.
 * @throws AppError("invalid-dataset") naming the file and line: a line that is not
 *   JSON (e.g. a truncated last line), a record without the fields of a run
 *   (`prompt`, `entry_point`, `solution` as a string, `is_solved`), or a problem listed twice.
 */
export function parseProgrammingLog(file: string, content: string): ParsedProgrammingLog {
  const records: ProgrammingRecord[] = [];
  const seen = new Set<string>();
  content.split(/\r?\n/).forEach((text, index) => {
    const line = index + 1;
    if (text.trim() === "") return;
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      fail(file, line, `not a JSON object (${error instanceof Error ? error.message : String(error)}); the file may be truncated.`);
    }
    const parsed = programmingRecordSchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      fail(file, line, `not a record of a programming run (${issue?.path.join(".") || "record"}: ${issue?.message ?? "invalid"}).`);
    }
    const id = parsed.data.task_id ?? parsed.data.name ?? "";
    if (seen.has(id)) fail(file, line, `problem "${id}" is listed twice.`);
    seen.add(id);
    records.push({ ...parsed.data, id, line });
  });
  if (records.length === 0) fail(file, 1, "the file holds no records.");
  return { file, records };
}
