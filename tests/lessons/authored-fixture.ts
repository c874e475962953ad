import type { Lesson } from "@/lib/lessons/lesson-schema";

/**
 * An authored lesson over a stored run of the QA demo task (qa-builtin-01, Reflexion): trial 1
 * fails after `Finish[Dunmere]` at step 2, trial 2 succeeds. Three steps, a derived question and a practice.
 */
export function authoredLesson(runId: string, overrides: Partial<Lesson> = {}): Lesson {
  return {
    id: "my-class-lesson",
    title: "Our run, step by step",
    summary: "A lesson written in the app over a run we made in class.",
    family: "qa",
    minutes: 5,
    run: { kind: "stored", runId },
    steps: [
      { title: "The start", narration: "Trial 1 begins with an **empty** memory.\n\nRead the question first.", cursor: { event: "trial-start", trial: 1, edge: "after" }, spotlight: [{ kind: "trial", trial: 1 }] },
      {
        title: "Predict the verdict",
        narration: "Make a prediction: yes: no: `Finish[x]` — 'quotes' and \"double\" ones.",
        cursor: { event: "evaluation", trial: 1, edge: "before" },
        spotlight: [{ kind: "action", trial: 1, step: 2 }],
        question: { kind: "evaluator-verdict", trial: 1, tests: "internal", prompt: "Will the Evaluator pass trial 1?", explanation: "Exact match against the gold answer." },
      },
      { title: "Your turn", narration: "Write the reflection you would give trial 2.", cursor: { event: "evaluation", trial: 1, edge: "after" }, spotlight: [], practice: { trial: 1 } },
    ],
    ...overrides,
  };
}
