import { describe, expect, it } from "vitest";
import type { RunEvent } from "@/lib/domain/events";
import { defaultStressFamily, stressRunEvents } from "@/lib/graph/stress-run";
import { draftIssues, moveStep, slugOf, type LessonDraft } from "@/lib/lessons/lesson-draft";
import { cursorBeforeAnswer, failedTrialsOf, logPositions, nodesAtCursor, positionAtCursor, questionTargets } from "@/lib/lessons/log-positions";
import { derivePrediction } from "@/lib/lessons/predictions";
import { findLessonEvent, resolveCursor } from "@/lib/lessons/resolve-lesson";

/**
 * What the authoring page offers from a run's log (lib/lessons/log-positions.ts) and how it names a
 * draft's problems (lib/lessons/lesson-draft.ts): every offered position resolves to its own event,
 * spotlights are only nodes already drawn, a new question is asked just before its answer, and a
 * problem names its step and field.
 */

const family = defaultStressFamily();
const events = stressRunEvents({ trials: 4, family });

describe("log positions", () => {
  it("every position offered resolves to the event it was made from, once, in log order", () => {
    const positions = logPositions(events);
    expect(positions.length).toBeGreaterThan(10);
    for (const position of positions) expect(findLessonEvent(events, position.selector)).toBe(position.index);
    expect(positions.map((position) => position.index)).toEqual([...positions.map((position) => position.index)].sort((a, b) => a - b));
    expect(positions[0]?.selector).toEqual({ event: "run-start", edge: "after" });
  });

  it("the run's cursor lands on the last position at or before it; the spotlight list holds only nodes drawn by then", () => {
    const positions = logPositions(events);
    const middle = Math.floor(events.length / 2);
    const at = positionAtCursor(positions, middle);
    expect(at && at.index + 1 <= middle).toBe(true);
    expect(positions.some((position) => position.index > (at?.index ?? 0) && position.index + 1 <= middle)).toBe(false);
    const nodes = nodesAtCursor(positions, middle);
    expect(nodes.length).toBeGreaterThan(0);
    for (const node of nodes) {
      const index = findLessonEvent(events, { event: node.selector.kind === "trial" ? "trial-start" : node.selector.kind, trial: node.selector.trial, step: node.selector.step });
      expect(index).toBeLessThan(middle);
    }
  });

  it("a new question of each offered kind is asked just before its answer shows", () => {
    const targets = questionTargets(events);
    expect(targets.curve).toBe(true);
    expect(failedTrialsOf(events).length).toBeGreaterThan(0);
    const action = targets.nextAction[1] ?? targets.nextAction[0]!;
    const questions = [
      { kind: "evaluator-verdict" as const, trial: targets.verdict[0]!.trial, tests: "internal" as const, prompt: "?", explanation: "." },
      { kind: "next-action" as const, trial: action.trial, step: action.step, distractors: ["Not the logged action at all"], prompt: "?", explanation: "." },
      { kind: "curve" as const, prompt: "?", explanation: "." },
    ];
    for (const question of questions) {
      const cursor = resolveCursor(events, cursorBeforeAnswer(question));
      expect(cursor, question.kind).toBe(derivePrediction(events, question).revealCursor - 1);
    }
  });

  it("the log's index follows a log that grew in place", () => {
    const growing: RunEvent[] = events.slice(0, 5);
    expect(findLessonEvent(growing, { event: "run-end" })).toBe(-1);
    growing.push(...events.slice(5));
    expect(findLessonEvent(growing, { event: "run-end" })).toBe(events.findIndex((event) => event.type === "run-end"));
  });
});

describe("lesson drafts", () => {
  const draft = (narration: string): LessonDraft => ({
    runId: "run_x",
    introduction: "",
    lesson: {
      id: slugOf("Our Class — Run #1!"),
      title: "Our class",
      summary: "A summary.",
      family,
      minutes: 5,
      run: { kind: "stored", runId: "run_x" },
      steps: [
        { title: "Start", narration: "Go.", cursor: { event: "trial-start", trial: 1, edge: "after" }, spotlight: [] },
        { title: "Second", narration, cursor: { event: "trial-start", trial: 9, edge: "after" }, spotlight: [] },
      ],
    },
  });

  it("a schema problem and a log problem are named by step and field", () => {
    expect(draft("x").lesson.id).toBe("our-class-run-1");
    expect(draftIssues(draft(""), events).map((issue) => `${issue.where}: ${issue.key}`)).toEqual(["Step 2 (Second) · narration: steps.1.narration"]);
    // In words that say what to do, not zod's "Too small: expected string to have >=1 characters".
    expect(draftIssues(draft(""), events)[0]?.message).toBe("is empty: write it.");
    expect(draftIssues(draft("x".repeat(4_001)), events)[0]?.message).toBe("is too long: at most 4000 characters.");
    const onLog = draftIssues(draft("Text."), events);
    expect(onLog).toHaveLength(1);
    expect(onLog[0]).toMatchObject({ key: "steps.1.cursor", where: "Step 2 (Second) · cursor" });
    expect(onLog[0]?.message).toMatch(/no trial-start, trial 9 event/);
  });

  it("moveStep moves one step up or down and leaves the ends as they are", () => {
    expect(moveStep(["a", "b", "c"], 2, -1)).toEqual(["a", "c", "b"]);
    expect(moveStep(["a", "b", "c"], 0, 1)).toEqual(["b", "a", "c"]);
    expect(moveStep(["a", "b", "c"], 0, -1)).toEqual(["a", "b", "c"]);
    expect(moveStep(["a", "b", "c"], 2, 1)).toEqual(["a", "b", "c"]);
  });
});
