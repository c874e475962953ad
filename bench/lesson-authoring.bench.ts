/**
 * Bench: the lesson authoring page's work per keystroke (components/lessons/authoring) on a long
 * run. Run from the repo root: `npm run bench:lesson-authoring` (Node only, no browser, no server).
 *
 * Builds a synthetic run log (lib/graph/stress-run.ts: `--trials N`, default 100, about 6,000
 * events), then a 40-step lesson over it (the schema's most: every step a question, spotlights and
 * a practice at the first failed trial), and prints, beside the machine's load average:
 *
 * - the log's positions and question targets (once per log, when the page loads), ms;
 * - one keystroke: lessonSchema + the check against the log (draftIssues), median and p95 of 50, ms;
 * - the spotlight list at a step's cursor (nodesAtCursor), median of 50, ms;
 * - the file round trip: write the `.md` (yaml) and read it back (parseLessonFile), median of 20, ms.
 *
 * Target: a keystroke's checks ≤ 16 ms (one frame) on a 6,000-event log. Prints figures, exits 0.
 */
import os from "node:os";
import { draftIssues, type LessonDraft } from "@/lib/lessons/lesson-draft";
import { lessonFileText } from "@/lib/lessons/lesson-file";
import type { LessonStep } from "@/lib/lessons/lesson-schema";
import { failedTrialsOf, logPositions, nodesAtCursor, questionTargets } from "@/lib/lessons/log-positions";
import { parseLessonFile } from "@/lib/lessons/parse-lesson-file";
import { resolveCursor } from "@/lib/lessons/resolve-lesson";
import { defaultStressFamily, stressRunEvents } from "@/lib/graph/stress-run";

function argument(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  const value = at >= 0 ? Number(process.argv[at + 1]) : Number.NaN;
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN;
}

function time(work: () => void, repeats: number): number[] {
  const samples: number[] = [];
  for (let index = 0; index < repeats; index += 1) {
    const start = performance.now();
    work();
    samples.push(performance.now() - start);
  }
  return samples;
}

const load = () => os.loadavg().map((value) => value.toFixed(2)).join(" / ");
const fmt = (ms: number) => ms.toFixed(2);
const TARGET_MS = 16;

function main(): void {
  const trials = argument("trials", 100);
  console.log(`bench:lesson-authoring — load average (1/5/15 min) ${load()}; ${os.cpus().length} cores; Node ${process.version}`);
  const family = defaultStressFamily();
  const events = stressRunEvents({ trials, family });
  let start = performance.now();
  const positions = logPositions(events);
  const targets = questionTargets(events);
  const failed = failedTrialsOf(events);
  const loadMs = performance.now() - start;
  console.log(`log: ${events.length} events, ${positions.length} positions, ${targets.nextAction.length} actions; positions + targets ${fmt(loadMs)} ms (once per page load)`);

  // 40 steps spread over the log, each with a question and spotlights; the last trial's steps when possible.
  const actions = targets.nextAction;
  const steps: LessonStep[] = Array.from({ length: 40 }, (_, index) => {
    const action = actions[Math.floor(((index + 1) * (actions.length - 1)) / 40)] ?? actions[0]!;
    return {
      title: `Step ${index + 1}`,
      narration: `Narration of step ${index + 1}: **what** the Actor does next.`,
      cursor: { event: "action", trial: action.trial, step: action.step, edge: "before" },
      spotlight: [{ kind: "trial", trial: action.trial }],
      question: { kind: "next-action", trial: action.trial, step: action.step, distractors: ["Finish[nothing at all]"], prompt: "Which action comes next?", explanation: "The log says." },
      ...(index === 0 && failed[0] ? { practice: { trial: failed[0] } } : {}),
    };
  });
  const draft: LessonDraft = {
    runId: "run_bench",
    introduction: "A long lesson.",
    lesson: { id: "bench-lesson", title: "Bench", summary: "A 40-step lesson over a long run.", family, minutes: 60, run: { kind: "stored", runId: "run_bench" }, steps },
  };
  const issues = draftIssues(draft, events);
  console.log(`lesson: ${steps.length} steps, ${issues.length} problems on the log${issues[0] ? ` (first: ${issues[0].where}: ${issues[0].message})` : ""}`);

  const keystrokes = time(() => draftIssues({ ...draft, lesson: { ...draft.lesson, title: `Bench ${Math.random()}` } }, events), 50);
  const median = percentile(keystrokes, 50);
  const p95 = percentile(keystrokes, 95);
  console.log(`keystroke (schema + log check): median ${fmt(median)} ms, p95 ${fmt(p95)} ms — target ≤ ${TARGET_MS} ms: ${p95 <= TARGET_MS ? "met" : "NOT met"}`);
  const cursor = resolveCursor(events, steps[39]!.cursor);
  const spot = time(() => nodesAtCursor(positions, cursor), 50);
  console.log(`spotlight list at step 40 (${nodesAtCursor(positions, cursor).length} nodes): median ${fmt(percentile(spot, 50))} ms`);
  start = performance.now();
  const files = time(() => parseLessonFile("bench.md", lessonFileText(draft.lesson, draft.introduction)), 20);
  console.log(`file round trip (yaml out, gray-matter + schema in): median ${fmt(percentile(files, 50))} ms (${fmt(performance.now() - start)} ms for 20)`);
  console.log(`load average at the end ${load()}`);
}

main();
