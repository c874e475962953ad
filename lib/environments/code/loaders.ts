import fs from "node:fs";
import { z } from "zod";
import { codeTaskSchema, type CodeLanguage, type CodeSourceFormat, type CodeTask } from "./task";
import { gunzipBoundedSync, isGzip } from "@/lib/io/gunzip-bounded";
import { describeIssues } from "@/lib/domain/describe-issues";

/**
 * Loads code-generation datasets into {@link CodeTask}s. One JSON record per line
 * (JSON Lines, optionally gzip-compressed) or a JSON array. Formats, detected per
 * record from its fields unless `format` is given:
 *
 * - `humaneval` (openai/human-eval): `task_id, prompt, canonical_solution, test, entry_point`.
 *   Hidden test = `test` + `check(<entry_point>)`; reference = prompt + canonical_solution.
 * - `mbpp` (google-research MBPP): `task_id, text, code, test_list, test_setup_code,
 *   challenge_test_list` (the "sanitized" variant's `prompt` / `test_imports` too).
 *   The prompt is the reference's signature line with `text` as its docstring.
 *   Hidden test = the `test_list` asserts (challenge tests are not used, like the
 *   official evaluation); reference = `code`; setup = `test_setup_code` / `test_imports`.
 * - `multipl-e` (nuprl/MultiPL-E, Reflexion's benchmarks): `name, language, prompt, tests`
 *   (or `test`), optional `entry_point`, `doctests`, `stop_tokens`. No reference solutions.
 *   `language` `py` / `js` / `ts` maps to python / javascript / typescript.
 * - `humaneval-x` (THUDM/CodeGeeX, JavaScript): `task_id, prompt, canonical_solution, test,
 *   declaration`; the entry point is the last `const name =` of `declaration`.
 *
 * A broken record is reported in `problems` with its line number and the rest load.
 */

/** Options of {@link loadCodeTasks}. */
export interface LoadCodeTasksOptions {
  /** Force a format instead of detecting it per record. */
  format?: CodeSourceFormat;
  /** Keep only tasks in this language. */
  language?: CodeLanguage;
  /** Keep at most this many tasks (in file order). */
  limit?: number;
}

/** What the loaders return: the valid tasks and one message per skipped record. */
export interface LoadCodeTasksResult {
  tasks: CodeTask[];
  /** `line N (id): what is wrong`, one per skipped record. */
  problems: string[];
}

const text = z.string();
const humanEvalRecord = z.object({ task_id: text, prompt: text, canonical_solution: text, test: text, entry_point: text });
const mbppRecord = z.object({
  task_id: z.union([z.number(), z.string()]),
  text: text.optional(),
  prompt: text.optional(),
  code: text,
  test_list: z.array(text).min(1, { message: "test_list must not be empty" }),
  test_setup_code: text.nullish(),
  test_imports: z.array(text).nullish(),
});
const multiplERecord = z.object({
  name: text,
  language: text,
  prompt: text,
  tests: text.optional(),
  test: text.optional(),
  entry_point: text.optional(),
});
const humanEvalXRecord = z.object({ task_id: text, prompt: text, canonical_solution: text, test: text, declaration: text });

const LANGUAGES: Record<string, CodeLanguage> = { py: "python", python: "python", js: "javascript", javascript: "javascript", ts: "typescript", typescript: "typescript" };

/** Guesses the format of one record from its fields, or null. */
export function detectFormat(record: Record<string, unknown>): CodeSourceFormat | null {
  if ("hiddenTests" in record && "entryPoint" in record) return "builtin";
  if ("test_list" in record) return "mbpp";
  if ("declaration" in record && "canonical_solution" in record) return "humaneval-x";
  if ("canonical_solution" in record && "entry_point" in record) return "humaneval";
  if ("name" in record && "language" in record && ("tests" in record || "test" in record)) return "multipl-e";
  // Looks like HumanEval but lacks a field: parse it as HumanEval so the message names what is missing.
  if ("task_id" in record && "prompt" in record && ("entry_point" in record || "test" in record)) return "humaneval";
  return null;
}

function lastMatch(source: string, pattern: RegExp): string | undefined {
  let found: string | undefined;
  for (const match of source.matchAll(pattern)) found = match[1];
  return found;
}

function fromHumanEval(raw: unknown): Omit<CodeTask, "sourceFormat"> {
  const record = humanEvalRecord.parse(raw);
  return {
    id: record.task_id,
    language: "python",
    prompt: record.prompt,
    entryPoint: record.entry_point,
    hiddenTests: `${record.test}\n\ncheck(${record.entry_point})\n`,
    referenceSolution: record.prompt + record.canonical_solution,
    setup: null,
  };
}

/**
 * MBPP's `text` never names the function its tests call, so the Actor could not
 * know it. Like MultiPL-E's conversion of MBPP, the prompt becomes the reference
 * solution's signature line with the text as its docstring (the body and the
 * tests stay hidden); without a signature line, the text plus the function's name.
 */
function mbppPrompt(text: string, entryPoint: string, code: string): string {
  const signature = code.split("\n").find((line) => new RegExp(`^def\\s+${entryPoint}\\s*\\(.*\\)\\s*(->.*)?:\\s*$`).test(line.trimEnd()));
  const doc = text.trim().replaceAll('"""', '\\"\\"\\"');
  if (!signature) return `${text.trim()}\nWrite it as a Python function named \`${entryPoint}\`.\n`;
  return `${signature.trimEnd()}\n    """${doc}\n    """\n`;
}

function fromMbpp(raw: unknown): Omit<CodeTask, "sourceFormat"> {
  const record = mbppRecord.parse(raw);
  const prompt = record.text ?? record.prompt;
  if (prompt === undefined) throw new Error("needs `text` (or `prompt`)");
  const entryPoint = /assert\s*\(?\s*(?:not\s+)?\(?\s*(?:set\(|math\.isclose\()?\s*([A-Za-z_]\w*)\s*\(/.exec(record.test_list[0]!)?.[1] ?? lastMatch(record.code, /^def\s+([A-Za-z_]\w*)\s*\(/gm);
  if (!entryPoint) throw new Error("cannot find the function name in test_list or code");
  const setupParts = [record.test_setup_code ?? "", ...(record.test_imports ?? [])].filter((part) => part.trim() !== "");
  return {
    id: `mbpp/${record.task_id}`,
    language: "python",
    prompt: mbppPrompt(prompt, entryPoint, record.code),
    entryPoint,
    hiddenTests: `${record.test_list.join("\n")}\n`,
    referenceSolution: record.code,
    setup: setupParts.length > 0 ? setupParts.join("\n") : null,
  };
}

function fromMultiplE(raw: unknown): Omit<CodeTask, "sourceFormat"> {
  const record = multiplERecord.parse(raw);
  const language = LANGUAGES[record.language.toLowerCase()];
  if (!language) throw new Error(`unsupported language "${record.language}"`);
  const tests = record.tests ?? record.test;
  if (tests === undefined) throw new Error("needs `tests` (or `test`)");
  const entryPoint =
    record.entry_point ??
    /let\s+candidate\s*=\s*([A-Za-z_$][\w$]*)\s*;/.exec(tests)?.[1] ??
    /check\(\s*([A-Za-z_]\w*)\s*\)/.exec(tests)?.[1] ??
    lastMatch(record.prompt, /(?:function|def)\s+([A-Za-z_$][\w$]*)\s*\(/g);
  if (!entryPoint) throw new Error("cannot find the entry point");
  return { id: record.name, language, prompt: record.prompt, entryPoint, hiddenTests: tests, referenceSolution: null, setup: null };
}

function fromHumanEvalX(raw: unknown): Omit<CodeTask, "sourceFormat"> {
  const record = humanEvalXRecord.parse(raw);
  const entryPoint = lastMatch(record.declaration, /(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=/g) ?? lastMatch(record.declaration, /function\s+([A-Za-z_$][\w$]*)\s*\(/g);
  if (!entryPoint) throw new Error("cannot find the entry point in `declaration`");
  return {
    id: record.task_id,
    language: "javascript",
    prompt: record.prompt,
    entryPoint,
    hiddenTests: record.test,
    referenceSolution: record.prompt + record.canonical_solution,
    setup: null,
  };
}

const CONVERTERS: Record<CodeSourceFormat, (raw: unknown) => Omit<CodeTask, "sourceFormat">> = {
  /** This app's own task shape (e.g. an exported built-in task), validated as is. */
  builtin: (raw) => codeTaskSchema.omit({ sourceFormat: true }).parse(raw),
  humaneval: fromHumanEval,
  mbpp: fromMbpp,
  "multipl-e": fromMultiplE,
  "humaneval-x": fromHumanEvalX,
};

function describeError(error: unknown): string {
  if (error instanceof z.ZodError) {
    return describeIssues(error, "(record)");
  }
  return error instanceof Error ? error.message : String(error);
}

/** Splits content into `[lineNumber, json text]` records (JSON Lines or one JSON array). */
function splitRecords(content: string): Array<{ line: number; parse: () => unknown }> {
  const trimmed = content.trimStart();
  if (trimmed.startsWith("[")) {
    let array: unknown;
    try {
      array = JSON.parse(trimmed);
    } catch (error) {
      throw new Error(`the file starts with "[" but is not a JSON array: ${(error as Error).message}`);
    }
    if (!Array.isArray(array)) throw new Error("expected a JSON array of records");
    return array.map((item, index) => ({ line: index + 1, parse: () => item }));
  }
  return content
    .split("\n")
    .map((source, index) => ({ source, line: index + 1 }))
    .filter(({ source }) => source.trim() !== "")
    .map(({ source, line }) => ({ line, parse: () => JSON.parse(source) as unknown }));
}

/**
 * Parses dataset text (JSON Lines or a JSON array). For gzip, pass a Buffer or use
 * {@link readCodeTaskFile}. Records that fail are listed in `problems`.
 */
export function loadCodeTasks(content: string | Buffer, options: LoadCodeTasksOptions = {}): LoadCodeTasksResult {
  const body = typeof content === "string" ? content : decodeBuffer(content);
  const tasks: CodeTask[] = [];
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const record of splitRecords(body)) {
    if (options.limit !== undefined && tasks.length >= options.limit) break;
    let raw: unknown;
    try {
      raw = record.parse();
    } catch (error) {
      problems.push(`line ${record.line}: invalid JSON (${(error as Error).message})`);
      continue;
    }
    const label = (id: unknown) => `line ${record.line}${typeof id === "string" || typeof id === "number" ? ` (${id})` : ""}`;
    if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
      problems.push(`${label(undefined)}: expected a JSON object`);
      continue;
    }
    const fields = raw as Record<string, unknown>;
    const id = fields.task_id ?? fields.name;
    const format = options.format ?? detectFormat(fields);
    if (!format) {
      problems.push(`${label(id)}: unknown record layout (fields: ${Object.keys(fields).slice(0, 8).join(", ")})`);
      continue;
    }
    try {
      const task = codeTaskSchema.parse({ ...CONVERTERS[format](raw), sourceFormat: format });
      if (seen.has(task.id)) {
        problems.push(`${label(id)}: duplicate task id ${task.id}`);
        continue;
      }
      seen.add(task.id);
      if (options.language === undefined || task.language === options.language) tasks.push(task);
    } catch (error) {
      problems.push(`${label(id)}: ${describeError(error)}`);
    }
  }
  return { tasks, problems };
}

/**
 * Decodes a file's bytes: gunzips when it starts with the gzip magic number (with the
 * `REFLEXION_MAX_INFLATED_MB` ceiling on the output, lib/io/gunzip-bounded.ts), then UTF-8.
 * Blocking: for the CLI and scripts; the server gunzips uploads with `textOfUpload` (off the event loop).
 * @throws AppError("invalid-dataset") when gzip bytes cannot be decompressed (a truncated download);
 *   AppError("too-large") naming the limit and how to raise it when they decompress past it.
 */
export function decodeBuffer(bytes: Buffer): string {
  if (!isGzip(bytes)) return bytes.toString("utf8");
  return gunzipBoundedSync(bytes, { what: "dataset file" }).toString("utf8");
}

/** Reads and parses a dataset file (`.jsonl`, `.jsonl.gz`, `.json`). */
export function readCodeTaskFile(file: string, options: LoadCodeTasksOptions = {}): LoadCodeTasksResult {
  return loadCodeTasks(fs.readFileSync(file), options);
}
