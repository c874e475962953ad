import type { FamilyDescriptor } from "../family-descriptor";
import { householdStressRun } from "./client/stress-run";

/** Decision making in an ALFWorld-style text household (paper §4.1). Pure data: see FamilyDescriptor. */
export const householdDescriptor: FamilyDescriptor = {
  id: "household",
  label: "Household (ALFWorld-style text world)",
  shortLabel: "Household",
  heading: "Household (ALFWorld style)",
  order: 1,
  metric: {
    name: "Success",
    explanation: "The text world's own success check (the task's goal state reached) — not an oracle.",
    oracle: false,
    reportsF1: false,
  },
  evaluationView: "goal",
  reportsHalts: true,
  hiddenTests: false,
  step: {
    actionSyntax: "command",
    thinkIsAction: true,
    alwaysShowsThought: false,
    actionIsCode: false,
    example: "go to desk 1",
    toolPrefix: null,
    toolDescription: null,
  },
  importFormats: "a JSON array of household tasks in this app's scene format (see docs/decisions/0007-household-world.md)",
  upload: { buttonLabel: "Upload task .json", accept: ".json,application/json" },
  strategyLabels: {},
  strategyHints: {},
  paperLogName: "ALFWorld (decision making, text-davinci-003)",
  paperLogNotForkable: "the ALFWorld logs do not include the environment's scene (only success and reflections per trial)",
  // ReAct + Reflexion: the paper reports 130 of 134 environments solved by trial 12 (Shinn et al.
  // 2023, §4.1 and Fig. 3), while its logs go on to trial 15.
  stressRun: householdStressRun,
  paperLogCurves: {
    inferredTrials: null,
    reportedPoints: [{ sourceMatches: /reflexion_run_logs/, trial: 12, solved: 130, tasks: 134, label: "paper: 130/134 by trial 12" }],
  },
  runsImportedOnly: false,
  templateSource: "ours, in the structure of the Reflexion paper's ALFWorld prompts (alfworld_runs; none of their wording): lib/environments/household/prompts.ts",
  texts: {
    runIntro:
      "The Actor acts in a text household (ALFWorld's rules): one command a step — go to, open, take, put, heat, use… or think: … — and the world answers each. " +
      "The Evaluator is the world's own success check after every step (the task's goal holds), not a gold answer; a trial also ends at the step limit or in a loop. " +
      "With Reflexion, a failed trial is followed by a self-reflection that the next trial reads from its episodic memory.",
    referenceLabel: "Show the goal (what the world's success check tests after every step; there is no gold answer)",
    settingTitle: "The room",
    noMemoryTrials: "every trial starts from scratch",
    demoOnImported: "on other household tasks it only writes 'think: …' (it has no commands for them), so the world's success check never passes",
  },
};
