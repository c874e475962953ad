import type { FamilyDescriptor } from "../family-descriptor";

/** Programming tasks in the style of HumanEval / MBPP (paper §4.3). Pure data: see FamilyDescriptor. */
export const codeDescriptor: FamilyDescriptor = {
  id: "code",
  label: "Code (HumanEval / MBPP style, Python and JavaScript/TypeScript)",
  shortLabel: "Code",
  heading: "Code (HumanEval / MBPP style)",
  order: 2,
  metric: {
    name: "pass@1",
    explanation:
      "pass@1: the run's last trial passes the dataset's hidden tests (reporting only, never shown to the agent); the loop itself is driven by the agent's own internal tests.",
    oracle: false,
    reportsF1: false,
  },
  evaluationView: "tests",
  reportsHalts: false,
  hiddenTests: true,
  step: {
    actionSyntax: "bracket",
    thinkIsAction: false,
    alwaysShowsThought: false,
    actionIsCode: true,
    example: "Search[Port Averly]",
    toolPrefix: "sandbox",
    toolDescription: "The Actor's code step; the observation is the sandbox's run of the internal tests.",
  },
  importFormats:
    "JSON Lines or a JSON array (optionally .gz): HumanEval (task_id, prompt, canonical_solution, test, entry_point), MBPP (task_id, text, code, test_list, test_setup_code), MultiPL-E JS/TS (name, language, prompt, tests), HumanEval-X JavaScript (task_id, prompt, canonical_solution, test, declaration)",
  upload: { buttonLabel: "Upload .jsonl / .gz", accept: ".json,.jsonl,.gz,application/json,application/gzip" },
  // `none` on code tasks is not ReAct but the paper's "simple" programming baseline (docs/decisions/0010).
  strategyLabels: { none: "Simple (no memory)" },
  strategyHints: {
    none: "The paper's simple baseline: every trial writes a new implementation from the signature, with no reflection and no previous implementation; the same internal tests decide when to stop.",
    reflexion:
      "After the internal tests fail, the model reflects on its implementation; the next trial sees that implementation, its test results and the newest Ω reflections (Ω = 1 by default, as in the paper).",
  },
  paperLogName: "Programming (HumanEval, MBPP, Rust ablation; GPT-4)",
  paperLogNotForkable: "the programming logs keep only the final program, and this app does not run the logged tests",
  // The Reflexion programming logs record each problem's final solution and verdict only; the
  // importer counts iterations from the reflections and says so in a provenance note.
  paperLogCurves: {
    inferredTrials: {
      noteMatches: /Iterations = reflections \+ 1/,
      note: "not recorded in the logs: the trial of first success is inferred from the number of reflections (only the final verdict was published).",
    },
    reportedPoints: [],
  },
  stressRun: null,
  runsImportedOnly: false,
  templateSource: "ours, after the Reflexion paper's programming prompts (programming_runs/generators/py_generate.py): lib/environments/code/prompts.ts",
  texts: {
    runIntro:
      "The Actor writes internal unit tests for the function once (trial 1), then an implementation; the internal tests run in a sandbox and decide whether the loop goes on. " +
      "The benchmark's hidden tests also run once per trial, for reporting only: the agent never sees them. With Reflexion, a failed trial is followed by a self-reflection " +
      "on the implementation and its failing tests, which the next trial reads together with that implementation.",
    referenceLabel: "Show the reference (what the hidden tests check)",
    settingTitle: "The task (the prompt the agent sees)",
    noMemoryTrials: "every trial writes a new implementation from the signature",
    demoOnImported:
      "on other code tasks it writes no internal tests and a labelled placeholder program that raises (NotImplementedError in Python, Error in JavaScript/TypeScript), so the empty suite passes vacuously and the hidden tests fail",
  },
};
