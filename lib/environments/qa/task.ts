import { z } from "zod";
import { taskIdSchema } from "@/lib/domain/ids";
import { AppError } from "@/lib/domain/errors";

/**
 * The QA family's task: one multi-hop question with the small document store
 * (its context paragraphs) that the Actor can Search and Lookup in. This is the
 * offline stand-in for the live Wikipedia the HotpotQA reference code used
 * (shared/docs/reflexion-reference.md §2.3, §11 item 17).
 */

/**
 * A task's texts are kept in Unicode NFC, whatever door they came through (dataset
 * file, run config, bundle), so two spellings of one accented word (precomposed or
 * with combining marks) are one string for Search, Lookup and exact match.
 */
const nfcString = () => z.string().normalize("NFC");

/** One context paragraph: a page title and its sentences, as in HotpotQA's `context`. */
export const qaParagraphSchema = z.object({
  title: nfcString().trim().min(1, { message: "a paragraph title must not be empty" }),
  /**
   * The paragraph's sentences, kept as given. HotpotQA sentences after the first
   * usually start with a space (`"".join(sentences)` rebuilds the paragraph); see
   * {@link joinSentences}.
   */
  sentences: z.array(nfcString()).min(1, { message: "a paragraph needs at least one sentence" }),
});
/** One context paragraph `{ title, sentences }`. */
export type QaParagraph = z.infer<typeof qaParagraphSchema>;

/**
 * zod schema of a {@link QaTask}. Besides the field types it checks that every
 * supporting title names one of the task's paragraphs.
 */
export const qaTaskSchema = z
  .object({
    id: taskIdSchema,
    question: nfcString().trim().min(1, { message: "the question must not be empty" }),
    /** The gold answer, scored by exact match after normalisation (exact-match.ts). */
    answer: nfcString().trim().min(1, { message: "the gold answer must not be empty" }),
    paragraphs: z.array(qaParagraphSchema).min(1, { message: "a task needs at least one paragraph" }),
    /** Titles of the paragraphs that hold the supporting facts, each listed once. */
    supportingTitles: z.array(nfcString()),
    /** HotpotQA question type: `bridge` or `comparison`. */
    type: z.string().optional(),
    /** HotpotQA difficulty label (`easy`, `medium`, `hard`). */
    level: z.string().optional(),
  })
  .superRefine((task, context) => {
    const titles = new Set(task.paragraphs.map((paragraph) => paragraph.title));
    task.supportingTitles.forEach((title, index) => {
      if (!titles.has(title)) {
        context.addIssue({
          code: "custom",
          path: ["supportingTitles", index],
          message: `supporting title "${title}" is not the title of any paragraph`,
        });
      }
    });
  });

/**
 * A QA task `{ id, question, answer, paragraphs: [{ title, sentences }], supportingTitles, type?, level? }`:
 * HotpotQA's distractor-setting record in our own, loader-independent shape.
 */
export type QaTask = z.infer<typeof qaTaskSchema>;

/** Re-exported from lib/domain so existing imports keep working. */
export { describeIssues } from "@/lib/domain/describe-issues";
import { describeIssues } from "@/lib/domain/describe-issues";

/**
 * Validates an unknown value as a {@link QaTask} (e.g. `RunConfig.task`).
 *
 * @throws AppError `invalid-dataset` naming every field that is wrong.
 */
export function parseQaTask(json: unknown): QaTask {
  const result = qaTaskSchema.safeParse(json);
  if (!result.success) {
    throw new AppError("invalid-dataset", `Not a valid QA task: ${describeIssues(result.error.issues)}`, {
      cause: result.error,
    });
  }
  return result.data;
}

/**
 * Rebuilds a paragraph's text from its sentences. HotpotQA keeps the spacing
 * inside the sentences (non-first sentences start with a space), so sentences
 * are concatenated as they are; a single space is inserted only where neither
 * side has whitespace (our own tasks write sentences without leading spaces).
 * The result is trimmed.
 */
export function joinSentences(sentences: readonly string[]): string {
  let text = "";
  for (const sentence of sentences) {
    if (text !== "" && sentence !== "" && !/\s$/u.test(text) && !/^\s/u.test(sentence)) text += " ";
    text += sentence;
  }
  return text.trim();
}
