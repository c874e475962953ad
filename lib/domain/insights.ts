import { z } from "zod";
import { memoryStoreNameSchema, type InsightProvenance } from "./memory-store";

/**
 * ExpeL insights (Zhao et al., AAAI 2024, "ExpeL: LLM Agents Are Experiential Learners", §4.2
 * "insight extraction", §4.3 "task inference"): general rules a model writes after comparing an
 * agent's failed and successful trajectories of the same task and reading several successes; at
 * inference the Actor's prompt carries them on every NEW task, from trial 1 on. Pure parts here: the
 * extraction prompt and its template, the parser of the model's list, and where insights live in a
 * memory store. The server side is lib/server/insight-extraction.ts; the carry-in at run start
 * lib/engine/insights-carry.ts; docs/decisions/0038-expel-insights.md says what we left out.
 */

/**
 * The extraction prompt. Placeholders: `{family}` (the task family's label), `{experiences}` (per
 * task: failed trajectories with their reflections, then the successful ones, {@link renderExperiences}),
 * `{maxInsights}`. One template for both of ExpeL's comparisons (failure vs success of one task, and
 * a set of successes); its id and version are recorded with every insight it produced.
 */
export const INSIGHTS_TEMPLATE = {
  id: "expel/insights",
  version: 1,
  text: `You are an advisor who studies an agent's attempts at {family} tasks and writes general insights that will help it on NEW tasks of the same kind.

Below are tasks the agent attempted. Where a task has both a failed and a successful trajectory, compare them (and the reflection written after the failure) and find what made the difference. Where a task was solved, look across the successful trajectories for the habits that worked.

{experiences}

Write at most {maxInsights} general insights as a numbered list, one insight per line. Each must hold for other tasks too: do not name the entities, titles or answers of these tasks.

General insights:`,
} as const;

/** At most this many insights are asked for and kept per extraction. */
export const MAX_INSIGHTS = 8;

/** The phrase that marks an extraction prompt (the demo model recognises it). */
export const INSIGHTS_PROMPT_MARKER = "General insights:";

/**
 * The task id under which a family's insights are kept in a memory store: insights hold across
 * tasks, so they are stored once per family, apart from every task's reflections.
 */
export const INSIGHTS_TASK_ID = "*insights*";

/** Prefix of an insight's text in the episodic memory, so the Actor (and a reader) tells it from a reflection on this task. */
export const INSIGHT_MEMORY_PREFIX = "Insight (from other tasks): ";

/** The memory item id of a carried-in insight (stable across replays, distinct from reflection and warm-start ids). */
export function insightItemId(entryId: string): string {
  return `insight:${entryId}`;
}

/** True for the memory item id of a carried-in insight ({@link insightItemId}). */
export function isInsightItemId(id: string): boolean {
  return id.startsWith("insight:");
}

/** Run option of ExpeL: the memory store whose insights the Actor prompt carries from trial 1 on. */
export const insightsOptionSchema = z.object({ store: memoryStoreNameSchema });
export type InsightsOption = z.infer<typeof insightsOptionSchema>;

/** One trial as the extraction prompt shows it. */
export interface ExperienceTrial {
  runId: string;
  trial: number;
  /** `Thought n: …` / `Action n: …` / `Observation n: …` lines. */
  trajectory: string;
  /** The reflection written after a failed trial, or null. */
  reflection: string | null;
}

/** One task's gathered experience (ExpeL §4.1): its failed and its successful trials. */
export interface TaskExperience {
  taskId: string;
  /** The task as the Actor saw it (QA: the question). */
  task: string;
  failures: ExperienceTrial[];
  successes: ExperienceTrial[];
}

/** At most this many characters of one trajectory in the prompt (long household or code trials are cut, with a note). */
export const MAX_TRAJECTORY_CHARS = 3000;

function clipped(text: string): string {
  return text.length <= MAX_TRAJECTORY_CHARS ? text : `${text.slice(0, MAX_TRAJECTORY_CHARS)}\n[… ${text.length - MAX_TRAJECTORY_CHARS} more characters left out]`;
}

/**
 * The `{experiences}` slot: per task, its failed trajectories each followed by its reflection, then
 * its successful ones (at most `perTask` of each kind, the earliest).
 */
export function renderExperiences(tasks: readonly TaskExperience[], perTask = 2): string {
  return tasks
    .map((task, index) => {
      const lines = [`Task ${index + 1}: ${task.task}`];
      for (const failure of task.failures.slice(0, perTask)) {
        lines.push(`Failed trajectory (trial ${failure.trial}):`, clipped(failure.trajectory));
        if (failure.reflection) lines.push(`Reflection: ${failure.reflection}`);
      }
      for (const success of task.successes.slice(0, perTask)) lines.push(`Successful trajectory (trial ${success.trial}):`, clipped(success.trajectory));
      return lines.join("\n");
    })
    .join("\n\n");
}

/** The extraction prompt for `tasks` of family `familyLabel`. */
export function renderInsightsPrompt(familyLabel: string, tasks: readonly TaskExperience[], maxInsights = MAX_INSIGHTS): string {
  return INSIGHTS_TEMPLATE.text
    .replace("{family}", familyLabel)
    .replace("{maxInsights}", String(maxInsights))
    .replace("{experiences}", renderExperiences(tasks));
}

/** A reply that holds no list of insights. `reply` is what came back, for the message. */
export class InsightsParseError extends Error {
  constructor(readonly reply: string) {
    const shown = reply.trim() === "" ? "an empty reply" : `"${reply.trim().slice(0, 200)}${reply.trim().length > 200 ? "…" : ""}"`;
    super(`The model's reply holds no numbered or bulleted list of insights; it wrote ${shown}. Try again, or another model (--model).`);
    this.name = "InsightsParseError";
  }
}

/** A list line: `1.`, `1)`, `(1)`, `-`, `*`, `•`, optionally bold-wrapped numbers (`**1.**`). */
const LIST_ITEM = /^\s*(?:\*\*)?(?:\(?\d{1,2}[.):]|[-*•])(?:\*\*)?\s+(.+)$/u;

/**
 * The insights in a model's reply: every numbered (`1.`, `2)`, `(3)`) or bulleted (`-`, `*`, `•`)
 * line, in order, with an indented continuation line joined to its item; markdown bold and a
 * trailing label such as "Insight 1:" are dropped, duplicates (case- and space-folded) kept once,
 * at most `max`. Text before or after the list (a preamble, a note) is ignored.
 * @throws InsightsParseError when no list line is found (the message quotes the reply).
 */
export function parseInsights(reply: string, max = MAX_INSIGHTS): string[] {
  const items: string[] = [];
  let open = false;
  for (const line of reply.split(/\r?\n/u)) {
    const item = LIST_ITEM.exec(line);
    if (item) {
      items.push(item[1]!);
      open = true;
    } else if (open && /^\s{2,}\S/u.test(line) && items.length > 0) {
      items[items.length - 1] = `${items[items.length - 1]} ${line.trim()}`;
    } else {
      open = false;
    }
  }
  const seen = new Set<string>();
  const insights: string[] = [];
  for (const raw of items) {
    const text = raw
      .replace(/\*\*/gu, "")
      .replace(/^insight\s*\d*\s*[:.-]\s*/iu, "")
      .trim();
    const key = text.toLowerCase().replace(/\s+/gu, " ");
    if (text.length < 3 || seen.has(key)) continue;
    seen.add(key);
    insights.push(text);
  }
  if (insights.length === 0) throw new InsightsParseError(reply);
  return insights.slice(0, max);
}

/** One insight as `cli insights list` and the extraction print it: text and provenance. */
export interface InsightRecord {
  entryId: string;
  text: string;
  environment: string;
  provenance: InsightProvenance | null;
  /** ISO-8601. */
  createdAt: string;
}

/** The note of a run whose insights store holds none for its family (or is not set). */
export function noInsightsNote(store: string | null, environment: string): string {
  const extract = `extract them with \`cli insights extract --experiment <id> --store ${store ?? "<name>"}\``;
  if (store === null) return `this ExpeL run names no insights store (--insights <store>), so trial 1 carries none; ${extract}`;
  return `memory store '${store}' has no insights for the ${environment} family; ${extract}`;
}
