import { z } from "zod";
import { AppError } from "@/lib/domain/errors";
import { describeIssues, qaTaskSchema, type QaTask } from "./task";

/**
 * Loads HotpotQA distractor-setting records (Yang et al., EMNLP 2018) into
 * {@link QaTask}s. Two layouts of the same data are accepted, record by record:
 *
 * - the original HotpotQA JSON (`hotpot_dev_distractor_v1.json`): `_id`,
 *   `supporting_facts: [[title, sent_id], …]`, `context: [[title, [sentence, …]], …]`;
 * - the HuggingFace `hotpot_qa` "distractor" layout (used by the Reflexion
 *   sample, shared/data/hotpotqa/): `id`, `supporting_facts: { title: [], sent_id: [] }`,
 *   `context: { title: [], sentences: [[]] }`.
 *
 * Common fields: `question`, `answer`, optional `type` and `level`.
 *
 * Every text (question, answer, titles, sentences) is put in Unicode NFC as it is
 * read, so a title or answer written with combining marks ("Zu\u0308rich") is the
 * same string as its precomposed twin ("Z\u00fcrich"): supporting facts find their
 * paragraph, Search finds the page, and exact match compares like with like.
 */

/** Options for {@link loadHotpotQa}. */
export interface LoadHotpotQaOptions {
  /** Keep at most this many valid tasks (in file order). Default: all. */
  limit?: number;
}

/** What {@link loadHotpotQa} returns: the valid tasks, and one line per record that was skipped. */
export interface LoadHotpotQaResult {
  tasks: QaTask[];
  /** One message per skipped record, naming its index and id and what is wrong. */
  problems: string[];
}

const nonEmptyString = z.string().normalize("NFC").trim().min(1, { message: "expected a non-empty string" });
const text = z.string().normalize("NFC");
const sentenceIndex = z.number().int().nonnegative();

/** `[[title, sent_id], …]` (original HotpotQA). */
const supportingFactsPairs = z.array(z.tuple([nonEmptyString, sentenceIndex]));
/** `{ title: [], sent_id: [] }` (HF datasets), columns of equal length. */
const supportingFactsColumns = z
  .object({ title: z.array(nonEmptyString), sent_id: z.array(sentenceIndex) })
  .refine((facts) => facts.title.length === facts.sent_id.length, {
    message: "supporting_facts.title and supporting_facts.sent_id must have the same length",
  });

/** `[[title, [sentence, …]], …]` (original HotpotQA). */
const contextPairs = z.array(z.tuple([nonEmptyString, z.array(text)]));
/** `{ title: [], sentences: [[]] }` (HF datasets), columns of equal length. */
const contextColumns = z
  .object({ title: z.array(nonEmptyString), sentences: z.array(z.array(text)) })
  .refine((context) => context.title.length === context.sentences.length, {
    message: "context.title and context.sentences must have the same length",
  });

const optionalLabel = z
  .string()
  .nullish()
  .transform((value) => value ?? undefined);

/** The fields both layouts share; `supporting_facts` and `context` are checked by layout. */
const recordSchema = z
  .object({
    _id: z.string().optional(),
    id: z.string().optional(),
    question: nonEmptyString,
    answer: nonEmptyString,
    type: optionalLabel,
    level: optionalLabel,
    supporting_facts: z.union([supportingFactsPairs, supportingFactsColumns], {
      error: "supporting_facts must be [[title, sent_id], …] or { title: [...], sent_id: [...] }",
    }),
    context: z.union([contextPairs, contextColumns], {
      error: "context must be [[title, [sentences…]], …] or { title: [...], sentences: [[...], …] }",
    }),
  })
  .refine((record) => (record.id ?? record._id ?? "").trim() !== "", {
    message: "the record needs a non-empty `id` or `_id`",
    path: ["id"],
  });

type RawRecord = z.infer<typeof recordSchema>;

interface SupportingFact {
  title: string;
  sentenceIndex: number;
}

function supportingFactsOf(record: RawRecord): SupportingFact[] {
  const facts = record.supporting_facts;
  if (Array.isArray(facts)) return facts.map(([title, sentenceIndex]) => ({ title, sentenceIndex }));
  return facts.title.map((title, index) => ({ title, sentenceIndex: facts.sent_id[index] ?? 0 }));
}

function paragraphsOf(record: RawRecord): { title: string; sentences: string[] }[] {
  const context = record.context;
  if (Array.isArray(context)) return context.map(([title, sentences]) => ({ title, sentences }));
  return context.title.map((title, index) => ({ title, sentences: context.sentences[index] ?? [] }));
}

/** Turns one raw record into a task, or explains why it cannot. */
function convertRecord(record: RawRecord): { task: QaTask } | { problem: string } {
  const id = (record.id ?? record._id ?? "").trim();
  const paragraphs = paragraphsOf(record);
  const byTitle = new Map(paragraphs.map((paragraph) => [paragraph.title, paragraph]));

  for (const fact of supportingFactsOf(record)) {
    const paragraph = byTitle.get(fact.title);
    if (paragraph === undefined) {
      return { problem: `supporting fact title "${fact.title}" is not one of the context titles` };
    }
    if (fact.sentenceIndex >= paragraph.sentences.length) {
      return {
        problem: `supporting fact ["${fact.title}", ${fact.sentenceIndex}] points past the paragraph's ${paragraph.sentences.length} sentence(s)`,
      };
    }
  }

  const candidate = {
    id,
    question: record.question,
    answer: record.answer,
    paragraphs,
    // HotpotQA lists a title once per supporting sentence; a task lists each title once.
    supportingTitles: [...new Set(supportingFactsOf(record).map((fact) => fact.title))],
    ...(record.type === undefined ? {} : { type: record.type }),
    ...(record.level === undefined ? {} : { level: record.level }),
  };
  const result = qaTaskSchema.safeParse(candidate);
  if (!result.success) return { problem: describeIssues(result.error.issues) };
  return { task: result.data };
}

function label(index: number, raw: unknown): string {
  let id: unknown;
  if (typeof raw === "object" && raw !== null) {
    const record = raw as Record<string, unknown>;
    id = record.id ?? record._id;
  }
  return typeof id === "string" && id.trim() !== "" ? `record ${index} (id "${id}")` : `record ${index}`;
}

/**
 * Parses a HotpotQA file (either layout, see the module comment) into tasks.
 * A broken record is skipped and reported in `problems` (e.g.
 * `record 3 (id "5a8b…"): answer: expected a non-empty string`); the others load.
 * A record whose id repeats an earlier one is skipped too.
 *
 * @param jsonText the file's text: a JSON array of records.
 * @throws AppError `invalid-dataset` when the text is not JSON or its top level is not an array.
 */
export function loadHotpotQa(jsonText: string, options: LoadHotpotQaOptions = {}): LoadHotpotQaResult {
  let parsed: unknown;
  try {
    parsed = JSON.parse(jsonText);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new AppError(
      "invalid-dataset",
      `The HotpotQA file is not valid JSON (${reason}). Fix the syntax; if it is JSON Lines, wrap the records in [ ] and separate them with commas.`,
      { cause: error },
    );
  }
  if (!Array.isArray(parsed)) {
    throw new AppError(
      "invalid-dataset",
      `The HotpotQA file must be a JSON array of question records, but its top level is ${parsed === null ? "null" : typeof parsed}. Put the records in a top-level [ ... ].`,
    );
  }

  const limit = options.limit ?? Number.POSITIVE_INFINITY;
  const tasks: QaTask[] = [];
  const problems: string[] = [];
  const seenIds = new Set<string>();
  if (parsed.length === 0) problems.push("The file contains no records.");

  for (const [index, raw] of parsed.entries()) {
    if (tasks.length >= limit) break;
    const where = label(index, raw);
    const record = recordSchema.safeParse(raw);
    if (!record.success) {
      problems.push(`${where}: ${describeIssues(record.error.issues).replace(/^\(task\)/, "(record)")}`);
      continue;
    }
    const converted = convertRecord(record.data);
    if ("problem" in converted) {
      problems.push(`${where}: ${converted.problem}`);
      continue;
    }
    if (seenIds.has(converted.task.id)) {
      problems.push(`${where}: duplicate id; an earlier record already has it`);
      continue;
    }
    seenIds.add(converted.task.id);
    tasks.push(converted.task);
  }
  return { tasks, problems };
}
