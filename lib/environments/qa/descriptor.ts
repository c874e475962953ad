import type { FamilyDescriptor } from "../family-descriptor";
import { qaStressRun } from "./client/stress-run";

/** Multi-hop question answering in the style of HotpotQA (paper §4.2). Pure data: see FamilyDescriptor. */
export const qaDescriptor: FamilyDescriptor = {
  id: "qa",
  label: "Multi-hop QA (HotpotQA style)",
  shortLabel: "Multi-hop QA",
  heading: "Multi-hop QA (HotpotQA style)",
  order: 0,
  metric: {
    name: "EM",
    explanation: "Exact match (EM) with the gold answer, HotpotQA normalisation. EM uses the gold answer — an oracle signal, not self-evaluation.",
    oracle: true,
    reportsF1: true,
  },
  evaluationView: "answer-match",
  reportsHalts: false,
  hiddenTests: false,
  step: {
    actionSyntax: "bracket",
    thinkIsAction: false,
    alwaysShowsThought: true,
    actionIsCode: false,
    example: "Search[Port Averly]",
    toolPrefix: null,
    toolDescription: null,
  },
  importFormats: "HotpotQA JSON (distractor setting: question, answer, supporting_facts, context)",
  upload: { buttonLabel: "Upload HotpotQA .json", accept: ".json,application/json" },
  strategyLabels: {},
  strategyHints: {},
  paperLogName: "HotpotQA (reasoning, text-davinci-003)",
  paperLogNotForkable: null,
  paperLogCurves: { inferredTrials: null, reportedPoints: [] },
  stressRun: qaStressRun,
  runsImportedOnly: false,
  templateSource:
    "ours, in the structure of the Reflexion paper's HotpotQA prompts (hotpotqa_runs/prompts.py; none of its wording): lib/environments/qa/prompts.ts",
  texts: {
    runIntro:
      "An Actor answers a question with Thought → Action → Observation steps. An Evaluator judges the trial by exact match (EM) with the gold answer; F1 is reported next to it. " +
      "With Reflexion, a failed trial is followed by a self-reflection that the next trial reads from its episodic memory.",
    referenceLabel: "Show the gold answer (what the exact-match evaluator compares against)",
    settingTitle: "The room",
    noMemoryTrials: "every trial starts from scratch",
    demoOnImported: "on other tasks it answers 'unknown'",
  },
};
