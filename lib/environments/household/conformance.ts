import { AppError } from "@/lib/domain/errors";
import { parseAction } from "./commands";
import { HouseholdEpisode } from "./episode";
import { describeGoal } from "./goals";
import type { HouseholdTask } from "./task";
import { parseTranscript, sceneFromTranscript, type TranscriptStep } from "./transcript";

/**
 * Transcript conformance: rebuild the scene an ALFWorld transcript was
 * recorded in (transcript.ts), replay its actions in our world and compare
 * every observation with the transcript's, starting with the opening text.
 * A transcript passes when every observation matches and the goal is met at
 * the end (expert transcripts all win).
 *
 * Matching is exact after trimming trailing whitespace, with one documented
 * tolerance: the comma before a list's final "and" (ALFWorld always writes
 * `a x 1, a y 2, and a z 3`; one hand-edited line of react_put_0 drops the
 * "and"). Tolerated differences are reported in `notes`, never hidden.
 */

/** The first place where our world disagrees with a transcript. Step 0 is the opening text. */
export interface ConformanceDifference {
  step: number;
  action: string;
  expected: string;
  actual: string;
}

/** The outcome for one transcript. */
export interface ConformanceResult {
  name: string;
  ok: boolean;
  firstDifference?: ConformanceDifference;
  /** Tolerated differences, stray lines and loader remarks. */
  notes?: string[];
  /** Why the transcript could not be replayed at all (unreadable, not an ALFWorld task). */
  error?: string;
}

/** The outcome for a set of transcripts. */
export interface ConformanceReport {
  passed: number;
  failed: number;
  results: ConformanceResult[];
}

/** How an observation compares with the transcript's. */
export type ObservationMatch = "exact" | "tolerated" | "different";

function trimLines(text: string): string {
  return text
    .split("\n")
    .map((line) => line.trimEnd())
    .join("\n")
    .trim();
}

/** Drops the comma-"and" before a list's last item, for the tolerated comparison. */
function withoutFinalAnd(text: string): string {
  return text.replace(/,? and (?=a [a-z]+ \d+)/g, ", ");
}

/** Compares an observation of ours with a transcript's (see the module comment). */
export function compareObservation(expected: string, actual: string): ObservationMatch {
  const left = trimLines(expected);
  const right = trimLines(actual);
  if (left === right) return "exact";
  return withoutFinalAnd(left) === withoutFinalAnd(right) ? "tolerated" : "different";
}

/** One replayed step. */
export interface ReplayedStep {
  step: number;
  action: string;
  expected: string;
  actual: string;
  match: ObservationMatch;
}

/** The replay of a transcript's actions in a task's world. */
export interface Replay {
  /** Step 0 (the opening text) and then one entry per action. */
  steps: ReplayedStep[];
  /** True when the goal was met by the end. */
  won: boolean;
}

/** Replays `steps` in a fresh episode of `task`, comparing the opening text and every observation. */
export function replayTranscript(task: HouseholdTask, opening: string, steps: readonly TranscriptStep[]): Replay {
  const episode = new HouseholdEpisode(task);
  const initial = episode.initialObservation();
  const replayed: ReplayedStep[] = [
    { step: 0, action: "(start)", expected: opening, actual: initial, match: compareObservation(opening, initial) },
  ];
  steps.forEach(({ action, observation }, index) => {
    const actual = episode.step(parseAction(action)).observation;
    replayed.push({ step: index + 1, action, expected: observation, actual, match: compareObservation(observation, actual) });
  });
  return { steps: replayed, won: episode.won };
}

/** Checks one transcript: load, replay, compare. Never throws. */
export function checkTranscript(name: string, text: string): ConformanceResult {
  let parsed;
  let loaded;
  try {
    parsed = parseTranscript(text);
    loaded = sceneFromTranscript(parsed, name);
  } catch (error) {
    return { name, ok: false, error: error instanceof Error ? error.message : String(error) };
  }
  const notes = [...loaded.notes, ...parsed.strayLines.map((line) => `ignored a line that answers no action: "${line}"`)];
  const replay = replayTranscript(loaded.task, `${parsed.roomLine}\n${parsed.taskLine}`, parsed.steps);
  for (const step of replay.steps) {
    if (step.match === "tolerated") notes.push(`step ${step.step}: tolerated list punctuation: expected "${step.expected}", ours "${step.actual}"`);
  }
  const different = replay.steps.find((step) => step.match === "different");
  const withNotes = notes.length > 0 ? { notes } : {};
  if (different !== undefined) {
    const { step, action, expected, actual } = different;
    return { name, ok: false, firstDifference: { step, action, expected, actual }, ...withNotes };
  }
  if (!replay.won) {
    return {
      name,
      ok: false,
      firstDifference: {
        step: parsed.steps.length + 1,
        action: "(end of transcript)",
        expected: "the goal is met",
        actual: `the goal is not met: ${describeGoal(loaded.task)}`,
      },
      ...withNotes,
    };
  }
  return { name, ok: true, ...withNotes };
}

/**
 * Replays every transcript of a JSON object `{ name: transcript }` (the shape
 * of shared/data/alfworld/react-alfworld.json) and reports, per transcript,
 * whether every observation matched and the goal was met, with the first
 * difference of each failure. A value that is not a string is a failed result.
 *
 * @throws AppError `invalid-dataset` when `jsonText` is not a JSON object.
 */
export function runHouseholdConformance(jsonText: string): ConformanceReport {
  let data: unknown;
  try {
    data = JSON.parse(jsonText);
  } catch (error) {
    throw new AppError("invalid-dataset", `The transcript file is not valid JSON: ${(error as Error).message}`, { cause: error });
  }
  if (typeof data !== "object" || data === null || Array.isArray(data)) {
    throw new AppError("invalid-dataset", "The transcript file must be a JSON object mapping names to transcripts.");
  }
  const results = Object.entries(data as Record<string, unknown>).map(([name, value]) =>
    typeof value === "string" ? checkTranscript(name, value) : { name, ok: false, error: "the value is not a transcript string" },
  );
  const passed = results.filter((result) => result.ok).length;
  return { passed, failed: results.length - passed, results };
}
