import type { FamilyDescriptor } from "@/lib/environments/family-descriptor";

/**
 * The toy family's descriptor: arithmetic questions answered with a calculator tool. It exists to
 * prove docs/adding-a-family.md: a family defined in one folder, registered with one call, passes
 * the conformance suite with no edit anywhere else.
 */
export const toyArithmeticDescriptor: FamilyDescriptor = {
  id: "toy-arithmetic",
  label: "Toy arithmetic (test family)",
  shortLabel: "Toy arithmetic",
  heading: "Toy arithmetic",
  order: 90,
  metric: {
    name: "EM",
    explanation: "The answer equals the gold number: an oracle signal, as in HotpotQA's exact match.",
    oracle: true,
    reportsF1: false,
  },
  evaluationView: "answer-match",
  reportsHalts: true,
  hiddenTests: false,
  step: {
    actionSyntax: "bracket",
    thinkIsAction: false,
    alwaysShowsThought: true,
    actionIsCode: false,
    example: "Calculate[6*7]",
    toolPrefix: "calculator",
    toolDescription: "the toy family's calculator",
  },
  importFormats: "a JSON array of { id, question, answer }",
  upload: { buttonLabel: "Upload toy tasks .json", accept: ".json,application/json" },
  strategyLabels: {},
  strategyHints: {},
  paperLogName: "Toy arithmetic (no published log)",
  paperLogNotForkable: "the paper published no log of this family",
  paperLogCurves: { inferredTrials: null, reportedPoints: [] },
  stressRun: null,
  runsImportedOnly: false,
  templateSource: "ours: tests/conformance/toy-family/environment.ts",
  texts: {
    runIntro: "The Actor may call Calculate[expression] and answers with Finish[number]; the Evaluator compares the number with the gold answer.",
    referenceLabel: "Show the gold answer",
    settingTitle: "The question",
    noMemoryTrials: "every trial starts from scratch",
    demoOnImported: "the demo model has no script for this family",
  },
};
