import { z } from "zod";
import { AppError } from "@/lib/domain/errors";
import { arrayElementLines, jsonErrorLine } from "./json-lines";

/**
 * Parser of the authors' ALFWorld results (noahshinn/reflexion
 * `alfworld_runs/root/{reflexion_run_logs,base_run_logs}/env_results_trial_N.json`,
 * text-davinci-003; reference §3.7). Each file is a JSON array with one record per
 * environment after trial N (0-based): `{ name: "env_i", memory: [reflection, …], is_success }`.
 * `memory` holds every reflection written so far, the one written after trial N's
 * failure included. Trajectories were not published.
 */

/** One environment after one trial. */
export const alfworldRecordSchema = z.object({
  name: z.string().min(1),
  memory: z.array(z.string()),
  is_success: z.boolean(),
});
export type AlfworldRecord = z.infer<typeof alfworldRecordSchema>;

/** A results file as given: its name (`env_results_trial_N.json`, possibly with a folder) and text. */
export interface AlfworldFileInput {
  name: string;
  content: string;
}

/** One trial's records, with the 1-based line of each record for messages. */
export interface AlfworldTrial {
  /** 1-based trial (file N is trial N + 1). */
  trial: number;
  file: string;
  records: Array<AlfworldRecord & { line: number }>;
}

/** A parsed ALFWorld run: its trials in order. */
export interface ParsedAlfworldRun {
  trials: AlfworldTrial[];
}

const TRIAL_FILE = /env_results_trial_(\d+)\.json$/;

function fail(file: string, line: number, what: string): never {
  throw new AppError("invalid-dataset", `${file}, line ${line}: ${what} Nothing was imported from this run; check that the folder holds the complete env_results_trial_N.json files of one ALFWorld run.`);
}

/**
 * Parses the trial files of one ALFWorld run (any order; they must be trials 0…N−1).
 * @throws AppError("invalid-dataset") naming the file and line: bad JSON, a record
 *   that is not `{ name, memory[], is_success }`, a duplicated environment, or a
 *   missing trial file.
 */
export function parseAlfworldRun(files: readonly AlfworldFileInput[]): ParsedAlfworldRun {
  if (files.length === 0) throw new AppError("invalid-input", "No env_results_trial_N.json files were given: an ALFWorld import needs the trial files of one run.");
  const numbered = files.map((file) => {
    const match = TRIAL_FILE.exec(file.name.replace(/\\/g, "/"));
    if (!match) fail(file.name, 1, "the file name is not env_results_trial_N.json, so its trial is unknown.");
    return { ...file, index: Number(match[1]) };
  });
  numbered.sort((a, b) => a.index - b.index);
  numbered.forEach((file, position) => {
    if (file.index !== position) fail(file.name, 1, `expected env_results_trial_${position}.json before it: the trial files must be 0…N−1 without gaps.`);
  });
  const trials = numbered.map((file): AlfworldTrial => {
    let json: unknown;
    try {
      json = JSON.parse(file.content);
    } catch (error) {
      fail(file.name, jsonErrorLine(file.content, error) ?? 1, `not valid JSON (${error instanceof Error ? error.message : String(error)}); the file may be truncated.`);
    }
    if (!Array.isArray(json)) fail(file.name, 1, "expected a JSON array of { name, memory, is_success } records.");
    const lines = arrayElementLines(file.content);
    const seen = new Set<string>();
    const records = json.map((value: unknown, index) => {
      const line = lines[index] ?? 1;
      const parsed = alfworldRecordSchema.safeParse(value);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        fail(file.name, line, `record ${index + 1} is not { name, memory: [strings], is_success: boolean } (${issue?.path.join(".") || "record"}: ${issue?.message ?? "invalid"}).`);
      }
      if (seen.has(parsed.data.name)) fail(file.name, line, `environment "${parsed.data.name}" is listed twice.`);
      seen.add(parsed.data.name);
      return { ...parsed.data, line };
    });
    if (records.length === 0) fail(file.name, 1, "the file lists no environments.");
    return { trial: file.index + 1, file: file.name, records };
  });
  return { trials };
}
