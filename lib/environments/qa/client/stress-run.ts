import type { StressRunScript, SyntheticStep } from "../../stress-run-script";

/**
 * The QA family's synthetic run (HotpotQA style, ReAct) for the stress page and tests: one to three
 * `Search[…]` steps, then `Finish[…]`; a failed trial gives the wrong magazine.
 */

function trajectory(random: () => number, succeeds: boolean): SyntheticStep[] {
  const answer = succeeds ? "Arthur's Magazine" : "First for Women";
  const searches = 1 + Math.floor(random() * 3);
  const steps: SyntheticStep[] = [];
  for (let index = 0; index < searches; index += 1) {
    const entity = index % 2 === 0 ? "Arthur's Magazine" : "First for Women";
    steps.push({
      thought: `I need to search ${entity} and find when it was started.`,
      action: `Search[${entity}]`,
      verb: "Search",
      argument: entity,
      observation: `${entity} was an American periodical; the article gives its first issue and its publisher.`,
      state: null,
      done: false,
      answer: null,
    });
  }
  steps.push({ thought: `So the answer is ${answer}.`, action: `Finish[${answer}]`, verb: "Finish", argument: answer, observation: "Episode finished.", state: null, done: true, answer });
  return steps;
}

/** The QA family's {@link StressRunScript}. */
export const qaStressRun: StressRunScript = {
  pageDefault: false,
  task: { id: "qa-builtin-01", question: "Which magazine was started first, Arthur's Magazine or First for Women?", answer: "Arthur's Magazine" },
  maxStepsPerTrial: 6,
  actorTemplate: "Solve {question}\n{memory}\n{scratchpad}",
  trajectory,
  actorPrompt: (memoryText, trajectoryText, number) => `Solve the question.\n${memoryText}\n${trajectoryText}Thought ${number}:`,
  actorOutput: (step, number) => `${step.thought}\nAction ${number}: ${step.action}`,
  trajectoryText: (step, number) => `Thought ${number}: ${step.thought}\nAction ${number}: ${step.action}\nObservation ${number}: ${step.observation}\n`,
  evaluator: { kind: "exact-match", oracle: true },
  failure: { feedback: "Incorrect answer.", outcome: "failure", reason: "wrong answer" },
  reflection: (trial, steps) =>
    `In trial ${trial} I answered ${steps[steps.length - 1]?.argument ?? "too early"} without comparing both start dates. Next time I will search both magazines and compare the years before I finish.`,
};
