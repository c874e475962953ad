import { z } from "zod";
import { taskIdSchema } from "@/lib/domain/ids";

/**
 * The code family's task: a HumanEval / MBPP-style problem in our own,
 * loader-independent shape. Hidden tests are the dataset's own tests; they are run
 * once, in the sandbox, against the final implementation (reference §4.1).
 */

/** Languages a code task can be written in. */
export const codeLanguageSchema = z.enum(["python", "javascript", "typescript"]);
/** `python` | `javascript` | `typescript`. */
export type CodeLanguage = z.infer<typeof codeLanguageSchema>;

/** The dataset layouts the loaders read (see loaders.ts), or `builtin` for the tasks we ship. */
export const codeSourceFormatSchema = z.enum(["humaneval", "mbpp", "multipl-e", "humaneval-x", "builtin"]);
/** Which dataset layout a task was read from. */
export type CodeSourceFormat = z.infer<typeof codeSourceFormatSchema>;

const nonEmpty = (what: string) => z.string().refine((value) => value.trim() !== "", { message: `${what} must not be empty` });

/** zod schema of a {@link CodeTask}. */
export const codeTaskSchema = z.object({
  /** Dataset id, e.g. `HumanEval/0`, `JavaScript/12`, `HumanEval_23_strlen`, `mbpp/11`. */
  id: taskIdSchema,
  language: codeLanguageSchema,
  /** What the model sees: signature + docstring (HumanEval), or the problem text (MBPP). */
  prompt: nonEmpty("the prompt"),
  /** Name of the function to implement. */
  entryPoint: z.string().regex(/^[A-Za-z_$][\w$]*$/, { message: "the entry point must be an identifier" }),
  /**
   * The dataset's test program, ready to run after the candidate program:
   * HumanEval `test` + `check(<entry point>)`, MBPP `test_list` lines, MultiPL-E /
   * HumanEval-X `test` as is.
   */
  hiddenTests: nonEmpty("the hidden tests"),
  /** A complete program that defines the entry point (prompt + canonical solution), or null when the dataset has none. */
  referenceSolution: z.string().nullable(),
  /** Trusted code to run before the candidate and the tests (MBPP `test_setup_code`), or null. */
  setup: z.string().nullable(),
  sourceFormat: codeSourceFormatSchema,
  /** Per-test time limit for this task, in ms (overrides the sandbox's 3000 ms default; at most 60 s). */
  timeoutMs: z.number().int().positive().max(60_000).optional(),
});

/**
 * A code task `{ id, language, prompt, entryPoint, hiddenTests, referenceSolution, setup, sourceFormat, timeoutMs? }`.
 */
export type CodeTask = z.infer<typeof codeTaskSchema>;
