import { z } from "zod";
import { JUDGE_SCALE_MAX, type CriterionScore, type Rubric } from "./judge";
import { takeTaggedBlocks } from "./linear-text";

/**
 * Reads a judge model's answer: the JSON asked for by the judge template,
 * `{"scores":[{"criterion":"<id>","score":<0-5>,"justification":"<one line>"}]}`, tolerantly —
 * reasoning blocks (`<think>…</think>`) and Markdown fences are dropped, text around the outermost
 * `{…}` is ignored, `id`/`name` stand for `criterion`, `reason`/`comment` for `justification`, a
 * numeric string is a number, and an object keyed by criterion id (`{"clarity":{"score":4,…}}`)
 * is read too. Every rubric criterion must be scored on 0–5; criteria the rubric does not have are
 * ignored (and named in `ignored`). Never throws.
 */

/** The outcome of {@link parseJudgeAnswer}. */
export type JudgeParse =
  | { ok: true; criteria: CriterionScore[]; ignored: string[] }
  | { ok: false; problem: string };

const numberish = z.union([z.number(), z.string().trim().regex(/^-?\d+(\.\d+)?$/).transform(Number)]);

const entrySchema = z
  .object({
    criterion: z.string().optional(),
    id: z.string().optional(),
    name: z.string().optional(),
    score: numberish,
    justification: z.string().optional(),
    reason: z.string().optional(),
    comment: z.string().optional(),
  })
  .transform((entry) => ({
    criterion: (entry.criterion ?? entry.id ?? entry.name ?? "").trim(),
    score: entry.score,
    justification: (entry.justification ?? entry.reason ?? entry.comment ?? "").replace(/\s+/g, " ").trim(),
  }));

const keyedValueSchema = z.union([
  numberish.transform((score) => ({ score, justification: "" })),
  z
    .object({ score: numberish, justification: z.string().optional(), reason: z.string().optional(), comment: z.string().optional() })
    .transform((value) => ({ score: value.score, justification: (value.justification ?? value.reason ?? value.comment ?? "").replace(/\s+/g, " ").trim() })),
]);

type Entry = { criterion: string; score: number; justification: string };

/** The JSON text inside `answer`: reasoning blocks and fences removed, from the first `{` to the last `}`; null when there is none. */
export function extractJsonObject(answer: string): string | null {
  const text = takeTaggedBlocks(answer).text.replace(/```[a-zA-Z]*\n?/g, "");
  const start = text.indexOf("{");
  const end = text.lastIndexOf("}");
  if (start === -1 || end <= start) return null;
  return text.slice(start, end + 1);
}

function entriesOf(value: unknown): Entry[] | string {
  const list = z.object({ scores: z.array(z.unknown()) }).or(z.object({ criteria: z.array(z.unknown()) })).safeParse(value);
  const items: unknown[] | null = list.success ? ("scores" in list.data ? list.data.scores : list.data.criteria) : Array.isArray(value) ? value : null;
  if (items !== null) {
    const entries: Entry[] = [];
    for (const [index, item] of items.entries()) {
      const parsed = entrySchema.safeParse(item);
      if (!parsed.success) return `entry ${index + 1} has no numeric "score"`;
      entries.push(parsed.data);
    }
    return entries;
  }
  const keyed = z.record(z.string(), keyedValueSchema).safeParse(value);
  if (keyed.success) return Object.entries(keyed.data).map(([criterion, item]) => ({ criterion: criterion.trim(), ...item }));
  return 'expected {"scores":[{"criterion","score","justification"}, …]}';
}

/**
 * Parses a judge's answer against `rubric` (see the module comment for what is tolerated).
 * A problem names what is wrong in words the re-ask prompt can repeat to the model.
 */
export function parseJudgeAnswer(answer: string, rubric: Rubric): JudgeParse {
  const json = extractJsonObject(answer);
  if (json === null) return { ok: false, problem: "no JSON object in the answer" };
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (error) {
    return { ok: false, problem: `the JSON does not parse (${error instanceof Error ? error.message : String(error)})` };
  }
  const entries = entriesOf(value);
  if (typeof entries === "string") return { ok: false, problem: entries };
  const byId = new Map<string, Entry>();
  for (const entry of entries) if (!byId.has(entry.criterion.toLowerCase())) byId.set(entry.criterion.toLowerCase(), entry);
  const known = new Set(rubric.criteria.map((criterion) => criterion.id));
  const missing = rubric.criteria.filter((criterion) => !byId.has(criterion.id)).map((criterion) => criterion.id);
  if (missing.length > 0) return { ok: false, problem: `no score for ${missing.map((id) => `"${id}"`).join(", ")}` };
  const criteria: CriterionScore[] = [];
  for (const criterion of rubric.criteria) {
    const entry = byId.get(criterion.id);
    if (entry === undefined) return { ok: false, problem: `no score for "${criterion.id}"` };
    if (!Number.isFinite(entry.score) || entry.score < 0 || entry.score > JUDGE_SCALE_MAX) {
      return { ok: false, problem: `score of "${criterion.id}" is ${entry.score}, not within 0–${JUDGE_SCALE_MAX}` };
    }
    criteria.push({
      id: criterion.id,
      description: criterion.description,
      weight: criterion.weight,
      rawScore: entry.score,
      score: Math.round((entry.score / JUDGE_SCALE_MAX) * 10_000) / 10_000,
      justification: entry.justification,
    });
  }
  const ignored = entries.map((entry) => entry.criterion).filter((id) => !known.has(id.toLowerCase()));
  return { ok: true, criteria, ignored };
}
