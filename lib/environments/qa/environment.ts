import type { ActionParse, Episode, EpisodeOptions, StepResult } from "@/lib/domain/environment";
import { joinSentences, type QaParagraph, type QaTask } from "./task";
import { rankSimilarTitles } from "./title-similarity";
import { methodDescriptor } from "@/lib/methods/registry";

/**
 * One QA episode: the offline document store of a task's paragraphs, driven by
 * Search / Lookup / Finish. Behaviour follows the reference's docstore explorer
 * (LangChain 0.0.162 `DocstoreExplorer`, used by `hotpotqa_runs/`) and ReAct's
 * `wikienv.py`, with our paragraphs in place of live Wikipedia
 * (shared/docs/reflexion-reference.md §2.3). Deterministic: replaying the same
 * actions gives the same observations.
 */

/** Observation for an unparsable or unknown action (reference wording, `agents.py`). */
export const INVALID_ACTION_OBSERVATION =
  "Invalid Action. Valid Actions are Lookup[<topic>] Search[<topic>] and Finish[<answer>].";
/**
 * Observation for any action other than `Finish` when the episode has no tools
 * (the chain-of-thought strategies `cot` and `cot-gold-context`; the
 * reference's CoT agent also rejects every other action, §2.8).
 */
export const NO_TOOLS_INVALID_ACTION_OBSERVATION = "Invalid Action. Without tools the only valid action is Finish[<answer>].";
/** Observation for `Lookup` when the last `Search` found nothing (reference wording). */
export const LOOKUP_WITHOUT_PAGE_OBSERVATION =
  "The last page Searched was not found, so you cannot Lookup a keyword in it. Please try one of the similar pages given.";
/** Observation for a `Lookup` keyword that occurs in no sentence of the current page. */
export const NO_RESULTS_OBSERVATION = "No Results.";
/** Observation for a repeated `Lookup` past its last match. */
export const NO_MORE_RESULTS_OBSERVATION = "No More Results.";
/** Observation for any action after `Finish` (the engine should not send one). */
export const EPISODE_OVER_OBSERVATION = "The episode is over: an answer was already submitted.";

/** How many similar titles a failed `Search` lists. */
export const SIMILAR_TITLES_LIMIT = 5;

/** Observation after `Finish[answer]`. The verdict is the Evaluator's, recorded separately. */
export function finishObservation(answer: string): string {
  return `Episode finished, answer submitted: ${answer}`;
}

/**
 * Quotes a title as Python's `repr` picks quotes: `'x'`, or `"x"` when it holds
 * `'` but no `"` (backslashes are left as they are, so titles copy verbatim).
 */
function pythonQuote(title: string): string {
  if (title.includes("'") && !title.includes('"')) return `"${title}"`;
  return `'${title.replace(/'/g, "\\'")}'`;
}

/**
 * Observation of a failed `Search`: `Could not find [x]. Similar: ['t1', "t2's"]`.
 * The list is printed like the reference's (the Python list repr of Wikipedia's
 * suggestions), so titles with commas stay readable.
 */
export function notFoundObservation(entity: string, similar: readonly string[]): string {
  return `Could not find [${entity}]. Similar: [${similar.map(pythonQuote).join(", ")}]`;
}

/** Matching key for titles: folded case, trimmed, whitespace collapsed. */
function titleKey(text: string): string {
  return text.toLowerCase().replace(/\s+/gu, " ").trim();
}

/** Drops one pair of surrounding quotes a model may copy from the Similar list (`'Foo'`). */
function unquote(text: string): string {
  const trimmed = text.trim();
  const match = /^(['"‘“])(.*)(['"’”])$/u.exec(trimmed);
  return match ? (match[2] ?? "").trim() : trimmed;
}

/** One executed step of a QA episode, as the loop rules read it (loop-rules.ts). */
export interface QaStepRecord {
  /** The action text as the episode received it (`ActionParse.text`). */
  actionText: string;
  observation: string;
}

/** The live state of one QA episode. Create with {@link startQaEpisode}. */
export class QaEpisode implements Episode {
  private readonly paragraphs: readonly QaParagraph[];
  private readonly steps: QaStepRecord[] = [];
  /** The page the last `Search` found; null before any Search and after a failed one. */
  private page: QaParagraph | null = null;
  private lookupKeyword: string | null = null;
  private lookupCursor = 0;
  private answer: string | null = null;
  /** False under the chain-of-thought strategies: only `Finish` is valid. */
  private readonly tools: boolean;

  constructor(task: QaTask, options: { tools?: boolean } = {}) {
    this.paragraphs = task.paragraphs;
    this.tools = options.tools ?? true;
  }

  /**
   * Executes one parsed action.
   *
   * - Invalid action (`ok: false`) → {@link INVALID_ACTION_OBSERVATION}, not done.
   * - `Search[entity]` → the paragraph whose title equals `entity` (case-insensitive,
   *   trimmed, whitespace-collapsed, surrounding quotes ignored): its whole text. It
   *   becomes the page for `Lookup` and resets the lookup cursor. Otherwise
   *   {@link notFoundObservation} with up to 5 closest titles, and there is no page
   *   any more (as in the reference, where a failed search clears the document).
   * - `Lookup[keyword]` → the next sentence of the page containing `keyword`
   *   (case-insensitive substring), as `(Result i / n) <sentence>`. Repeating the same
   *   keyword advances; a new keyword starts again at the first match. Past the last
   *   match `No More Results.`, no match `No Results.`, no page
   *   {@link LOOKUP_WITHOUT_PAGE_OBSERVATION}.
   * - `Finish[answer]` → done, `answer` recorded, {@link finishObservation}.
   * - Without tools (chain-of-thought strategies) every action but `Finish`,
   *   and any invalid one, → {@link NO_TOOLS_INVALID_ACTION_OBSERVATION}, not done.
   *
   * Never throws.
   */
  step(action: ActionParse): StepResult {
    if (this.answer !== null) return { observation: EPISODE_OVER_OBSERVATION, done: true, answer: this.answer };
    const result = this.execute(action);
    this.steps.push({ actionText: action.text, observation: result.observation });
    return result;
  }

  /** Every step taken before the episode ended, in order (the Evaluator reads loops from it). */
  get history(): readonly QaStepRecord[] {
    return this.steps;
  }

  private execute(action: ActionParse): StepResult {
    if (!action.ok) return this.observe(this.tools ? INVALID_ACTION_OBSERVATION : NO_TOOLS_INVALID_ACTION_OBSERVATION);
    const { type, argument } = action.action;
    if (!this.tools && type !== "Finish") return this.observe(NO_TOOLS_INVALID_ACTION_OBSERVATION);
    switch (type) {
      case "Search":
        return this.observe(this.search(argument));
      case "Lookup":
        return this.observe(this.lookup(argument));
      case "Finish":
        this.answer = argument;
        return { observation: finishObservation(argument), done: true, answer: argument };
      default:
        return this.observe(INVALID_ACTION_OBSERVATION);
    }
  }

  private observe(observation: string): StepResult {
    return { observation, done: false, answer: null };
  }

  private search(entity: string): string {
    const wanted = titleKey(unquote(entity));
    const found = this.paragraphs.find((paragraph) => titleKey(paragraph.title) === wanted);
    this.lookupKeyword = null;
    this.lookupCursor = 0;
    if (found === undefined) {
      this.page = null;
      const similar = rankSimilarTitles(
        entity,
        this.paragraphs.map((paragraph) => paragraph.title),
        SIMILAR_TITLES_LIMIT,
      );
      return notFoundObservation(entity.trim(), similar);
    }
    this.page = found;
    return joinSentences(found.sentences);
  }

  private lookup(keyword: string): string {
    if (this.page === null) return LOOKUP_WITHOUT_PAGE_OBSERVATION;
    const folded = keyword.trim().toLowerCase();
    if (folded === this.lookupKeyword) {
      this.lookupCursor += 1;
    } else {
      this.lookupKeyword = folded;
      this.lookupCursor = 0;
    }
    const matches = this.page.sentences
      .map((sentence) => sentence.trim())
      .filter((sentence) => sentence.toLowerCase().includes(folded));
    if (matches.length === 0) return NO_RESULTS_OBSERVATION;
    const sentence = matches[this.lookupCursor];
    if (sentence === undefined) return NO_MORE_RESULTS_OBSERVATION;
    return `(Result ${this.lookupCursor + 1} / ${matches.length}) ${sentence}`;
  }
}

/**
 * A fresh episode of `task` for one trial. Under a method without tools (the
 * chain-of-thought strategies, `trial.usesTools` of lib/methods) the episode
 * has no tools: only `Finish` is valid.
 */
export function startQaEpisode(task: QaTask, options: EpisodeOptions = {}): QaEpisode {
  const tools = options.strategy ? methodDescriptor(options.strategy).trial.usesTools : true;
  return new QaEpisode(task, { tools });
}
