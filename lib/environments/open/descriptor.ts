import type { FamilyDescriptor } from "../family-descriptor";

/** Open tasks judged by a model against a rubric (docs/decisions/0025). Pure data: see FamilyDescriptor. */
export const openDescriptor: FamilyDescriptor = {
  id: "open",
  label: "Open tasks (LLM judge)",
  shortLabel: "Open tasks",
  heading: "Open tasks (LLM judge)",
  order: 3,
  metric: {
    name: "Judged pass",
    explanation: "A judge model's weighted rubric score reaches the task's pass threshold — a model's opinion, not an oracle.",
    oracle: false,
    reportsF1: false,
  },
  evaluationView: "judge",
  reportsHalts: false,
  hiddenTests: false,
  step: {
    actionSyntax: "bracket",
    thinkIsAction: false,
    alwaysShowsThought: false,
    actionIsCode: false,
    example: "Search[Port Averly]",
    toolPrefix: null,
    toolDescription: null,
  },
  importFormats:
    "a JSON array (or JSON Lines) of open tasks: id, prompt, optional title and referenceNotes, rubric { criteria: [{ id, description, weight }], passThreshold 0–1 } (see docs/decisions/0025-llm-judge-open-tasks.md)",
  upload: { buttonLabel: "Upload task .json", accept: ".json,application/json" },
  strategyLabels: {},
  strategyHints: {},
  paperLogName: "Open tasks (no published log)",
  paperLogNotForkable: "the paper published no log of open tasks",
  paperLogCurves: { inferredTrials: null, reportedPoints: [] },
  stressRun: null,
  runsImportedOnly: false,
  templateSource: "ours (open tasks judged by a model against a rubric, docs/decisions/0025): lib/environments/open/prompts.ts",
  texts: {
    runIntro:
      "The Actor writes its whole answer to an open task in one step (Finish[answer]); there is no gold answer. " +
      "The Evaluator is an LLM judge that scores each rubric criterion 0–5 with a one-line justification, and the trial passes when the weighted score reaches the task's threshold — a model's opinion, not an oracle. " +
      "With Reflexion, a failed trial is followed by a self-reflection on the judge's per-criterion feedback, which the next trial reads from its episodic memory.",
    referenceLabel: "Show the rubric (what the judge scores; the Actor never sees it)",
    settingTitle: "The room",
    noMemoryTrials: "every trial starts from scratch",
    demoOnImported:
      "on other open tasks it answers Finish[unknown] and, as the judge, gives no JSON, so the run pauses at the first evaluation (judge answer unreadable)",
  },
};
