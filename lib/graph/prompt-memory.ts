import { strategySchema, type Strategy } from "@/lib/domain/config";
import type { ChatMessage, MemoryItem } from "@/lib/domain/events";
import type { TrialView } from "@/lib/domain/fold-run";
import { strategyBehaviour } from "@/lib/domain/strategies";

/**
 * Where the episodic memory landed in an Actor prompt, and whether it is
 * missing when it should be there — the failure users of the original
 * Reflexion code could not see (a template without `{memory}`, a strategy
 * that drops the reflections, a memory cleared by hand).
 */

/** One place in a prompt where a memory item's text occurs. Offsets are UTF-16 indices into the prompt. */
export interface MemoryMatch {
  memoryId: string;
  start: number;
  end: number;
}

/** A piece of a prompt: plain text (`memoryId` null) or an occurrence of a memory item. */
export interface PromptSegment {
  text: string;
  memoryId: string | null;
}

/** The prompt cut into plain and memory segments, plus how often each item occurs. */
export interface MemoryInPrompt {
  segments: PromptSegment[];
  matches: MemoryMatch[];
  /** Occurrences per memory item id (0 = not in the prompt). */
  occurrences: Record<string, number>;
}

/**
 * The prompt with every whitespace run folded to one space, and for each folded character the
 * index of the character it came from, so a match in the folded text maps back to the prompt.
 * One pass; no regular expression is built from model text (a 40 KB reflection made a pattern
 * that overflowed the regular-expression stack and crashed the run page).
 */
function foldWhitespace(text: string): { folded: string; origin: number[] } {
  let folded = "";
  const origin: number[] = [];
  let inSpace = false;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i] as string;
    if (/\s/u.test(char)) {
      if (!inSpace) {
        folded += " ";
        origin.push(i);
      }
      inSpace = true;
    } else {
      folded += char;
      origin.push(i);
      inSpace = false;
    }
  }
  return { folded, origin };
}

/**
 * A memory text as it is searched: its words joined by single spaces (families fold a reflection
 * onto one line (`- <text>`), wrap it or indent it, so whitespace runs match any whitespace).
 * Null for a text without words.
 */
function searchKey(text: string): string | null {
  const key = foldWhitespace(text.trim()).folded;
  return key === "" ? null : key;
}

/**
 * Finds every occurrence of each memory item's text in `prompt` (whitespace
 * runs match any whitespace) and cuts the prompt into segments. Overlapping
 * matches keep the earlier (then the longer) one. Empty texts never match.
 */
export function locateMemoryInPrompt(prompt: string, memory: readonly Pick<MemoryItem, "id" | "text">[]): MemoryInPrompt {
  const all: MemoryMatch[] = [];
  const occurrences: Record<string, number> = {};
  const folded = foldWhitespace(prompt);
  for (const item of memory) {
    occurrences[item.id] = 0;
    const key = searchKey(item.text);
    if (key === null) continue;
    for (let at = folded.folded.indexOf(key); at !== -1; at = folded.folded.indexOf(key, at + key.length)) {
      all.push({ memoryId: item.id, start: folded.origin[at] as number, end: (folded.origin[at + key.length - 1] as number) + 1 });
    }
  }
  all.sort((a, b) => a.start - b.start || b.end - a.end);
  const matches: MemoryMatch[] = [];
  let cursor = 0;
  for (const match of all) {
    if (match.start < cursor) continue;
    matches.push(match);
    occurrences[match.memoryId] = (occurrences[match.memoryId] ?? 0) + 1;
    cursor = match.end;
  }

  const segments: PromptSegment[] = [];
  let position = 0;
  for (const match of matches) {
    if (match.start > position) segments.push({ text: prompt.slice(position, match.start), memoryId: null });
    segments.push({ text: prompt.slice(match.start, match.end), memoryId: match.memoryId });
    position = match.end;
  }
  if (position < prompt.length || segments.length === 0) segments.push({ text: prompt.slice(position), memoryId: null });
  return { segments, matches, occurrences };
}

/**
 * What a strategy puts into the Actor's prompt from trial 2 on
 * (docs/decisions/0008-strategies.md), read from the strategy table
 * (lib/domain/strategies.ts).
 */
export interface MemoryExpectation {
  /** Reflections from the episodic memory (`StrategyBehaviour.reflectionsInPrompt`). */
  reflections: boolean;
  /** The previous trial's trajectory, the paper's EPM (`StrategyBehaviour.includesLastAttempt`). */
  lastAttempt: boolean;
}

/** See {@link MemoryExpectation}. Unknown strategies (newer servers) are assumed to expect nothing. */
export function memoryExpectation(strategy: Strategy | string): MemoryExpectation {
  const known = strategySchema.safeParse(strategy);
  if (!known.success) return { reflections: false, lastAttempt: false };
  const behaviour = strategyBehaviour(known.data);
  return { reflections: behaviour.reflectionsInPrompt, lastAttempt: behaviour.includesLastAttempt };
}

/** The text of all messages as one string (what the memory is looked for in). */
export function promptText(messages: readonly ChatMessage[]): string {
  return messages.map((message) => message.content).join("\n\n");
}

const oneLine = (text: string) => text.trim().replace(/\s+/g, " ");

/** Non-overlapping occurrences of `needle` in `haystack`, whitespace runs matching any whitespace. */
function countIn(haystack: string, needle: string): number {
  const key = searchKey(needle);
  if (key === null) return 0;
  const folded = foldWhitespace(haystack).folded;
  let count = 0;
  for (let at = folded.indexOf(key); at !== -1; at = folded.indexOf(key, at + key.length)) count += 1;
  return count;
}

/**
 * Whether `prompt` carries (part of) the previous trial's trajectory: some
 * thought or observation of `previous` occurs in the prompt more often than in
 * the current trial's own steps before `step` (which the scratchpad repeats).
 */
export function carriesLastAttempt(prompt: string, previous: TrialView, current: TrialView | null, step: number | null): boolean {
  const snippets = previous.steps.flatMap((view) => [view.thought?.text ?? "", view.observation?.text ?? ""]).map(oneLine).filter((text) => text.length >= 8);
  if (snippets.length === 0) return false;
  const own = (current?.steps ?? [])
    .filter((view) => step === null || view.step < step)
    .flatMap((view) => [view.thought?.text ?? "", view.action?.text ?? "", view.observation?.text ?? ""])
    .join("\n");
  return snippets.some((snippet) => countIn(prompt, snippet) > countIn(own, snippet));
}

/** Why an Actor prompt is missing memory it should carry, in words; null when nothing is missing. */
export interface MissingMemory {
  kind: "reflections-not-in-prompt" | "no-memory-in-prompt";
  message: string;
}

/**
 * Checks one Actor prompt of `trial`:
 * - the trial started with reflections in context, but none of their texts
 *   occurs in the prompt (`reflections-not-in-prompt`); or
 * - the strategy puts memory in the prompt from trial 2 on (reflections and/or
 *   the last attempt) and this trial-≥2 prompt carries none of it
 *   (`no-memory-in-prompt`).
 */
export function missingMemory(options: {
  strategy: Strategy | string;
  trial: TrialView;
  previousTrial: TrialView | null;
  prompt: string;
  step: number | null;
}): MissingMemory | null {
  const { strategy, trial, previousTrial, prompt, step } = options;
  const located = locateMemoryInPrompt(prompt, trial.memory);
  const found = located.matches.length > 0;
  if (trial.memory.length > 0 && !found) {
    const count = trial.memory.length;
    return {
      kind: "reflections-not-in-prompt",
      message: `Trial ${trial.trial} started with ${count} ${count === 1 ? "reflection" : "reflections"} in context, but ${count === 1 ? "its text does" : "none of their texts"} not appear in this Actor prompt: the Actor never saw its memory. Check that the Actor template still has the {memory} placeholder.`,
    };
  }
  const expected = memoryExpectation(strategy);
  if (trial.trial < 2 || (!expected.reflections && !expected.lastAttempt)) return null;
  const lastAttempt = expected.lastAttempt && previousTrial !== null && carriesLastAttempt(prompt, previousTrial, trial, step);
  if (found || lastAttempt) return null;
  const what = expected.reflections && expected.lastAttempt ? "the previous attempt and the newest reflection" : expected.reflections ? "reflections" : "the previous attempt";
  const why =
    expected.reflections && trial.memory.length === 0
      ? ` Trial ${trial.trial} started with an empty memory${trial.evicted.length > 0 ? " (the window left every reflection out)" : ""}.`
      : "";
  return {
    kind: "no-memory-in-prompt",
    message: `The ${strategy} strategy puts ${what} into the Actor prompt from trial 2 on, but this prompt of trial ${trial.trial} carries no memory.${why}`,
  };
}
