import type { StressRunScript, SyntheticStep } from "../../stress-run-script";

/**
 * The household family's synthetic run (ALFWorld style) for the stress page and the graph bench:
 * a demo-like trajectory of `think:` actions and commands with empty thoughts, a world snapshot
 * after each step, and a failed trial halted by a loop (the same action and observation three times).
 * A 24-trial run has ~720 graph nodes (≈13 steps a trial, as the demo model's household runs have;
 * its empty thoughts draw no node, decision 0020).
 */

const PREAMBLE =
  "Solve a household task in a text world. Each turn, write exactly one command after the > sign; the world replies on the next line. " +
  "You can also write think: followed by your reasoning, which the world answers with OK. Here are two examples of the same kind of task.\n" +
  "You are in the middle of a room. Looking quickly around you, you see a bed 1, a desk 1, a drawer 2, a drawer 1, a garbagecan 1, a shelf 1, and a sidetable 1.\n" +
  "Your task is to: examine the book with the desklamp.\n> think: To solve the task, I need to find and take a book, then find and use a desklamp.\nOK.\n" +
  "> go to bed 1\nOn the bed 1, you see a book 1, a cellphone 1, and a pillow 1.\n> take book 1 from bed 1\nYou pick up the book 1 from the bed 1.\n" +
  "> go to desk 1\nOn the desk 1, you see a desklamp 1, and a pen 2.\n> use desklamp 1\nYou turn on the desklamp 1.\n";

const RECEPTACLES = ["desk 1", "drawer 1", "drawer 2", "shelf 1", "shelf 2", "sidetable 1", "dresser 1", "bed 1", "garbagecan 1"];
const THINGS = ["a pen 1", "a book 1", "a cd 1", "a laptop 1", "a pencil 2", "a creditcard 1", "an alarmclock 2", "a keychain 1", "a pillow 1"];
const HALT_REASON = 'The same action "use desklamp 1" gave the same observation "Nothing happens." 3 times in a row.';

function trajectory(random: () => number, succeeds: boolean): SyntheticStep[] {
  const steps: SyntheticStep[] = [];
  const inventory: string[] = [];
  let location: string | null = null;
  const push = (verb: string, argument: string, observation: string, done = false) => {
    const action = verb === "think" ? `think: ${argument}` : `${verb} ${argument}`;
    steps.push({ thought: "", action, verb, argument, observation, state: { location, inventory: [...inventory] }, done, answer: null });
  };
  push("think", "To solve the task, I need to find and take a mug, then find and use a desklamp.", "OK.");
  push("think", "First I need a mug. Mugs are often on a desk, a shelf or a sidetable. I will start with desk 1.", "OK.");
  const visits = 2 + Math.floor(random() * 4);
  for (let index = 0; index < visits; index += 1) {
    const place = RECEPTACLES[Math.floor(random() * RECEPTACLES.length)] ?? "desk 1";
    location = place;
    if (place.startsWith("drawer") && random() < 0.5) {
      push("go to", place, `The ${place} is closed.`);
      push("open", place, `You open the ${place}. The ${place} is open. In it, you see ${THINGS[Math.floor(random() * THINGS.length)]}.`);
    } else {
      push("go to", place, `On the ${place}, you see ${THINGS[Math.floor(random() * THINGS.length)]}, and ${THINGS[Math.floor(random() * THINGS.length)]}.`);
    }
  }
  location = "shelf 2";
  push("go to", "shelf 2", "On the shelf 2, you see a cd 1, and a mug 1.");
  inventory.push("mug 1");
  push("take", "mug 1 from shelf 2", "You pick up the mug 1 from the shelf 2.");
  if (succeeds) {
    location = "desk 1";
    push("go to", "desk 1", "On the desk 1, you see a desklamp 1, a laptop 1, and a pencil 2.");
    push("use", "desklamp 1", "You turn on the desklamp 1.", true);
    return steps;
  }
  push("think", "Now I have the mug. Next I need a desklamp. It may be on a sidetable.", "OK.");
  location = "sidetable 1";
  push("go to", "sidetable 1", "On the sidetable 1, you see a alarmclock 2, and a creditcard 1.");
  // The loop the household Evaluator halts on: the same action and observation three times in a row.
  for (let repeat = 0; repeat < 3; repeat += 1) push("use", "desklamp 1", "Nothing happens.");
  return steps;
}

/** The household family's {@link StressRunScript}: the stress page's default (the longest trials). */
export const householdStressRun: StressRunScript = {
  pageDefault: true,
  task: { id: "household-builtin-01", taskType: "look_at_obj_in_light", description: "examine the mug with the desklamp.", goal: { object: "mug", receptacle: null, lamp: "desklamp" }, room: "bedroom", source: "built-in" },
  maxStepsPerTrial: 30,
  actorTemplate: `${PREAMBLE}{memory}\n{scene}\n{trajectory}`,
  trajectory,
  actorPrompt: (memoryText, trajectoryText) => `${PREAMBLE}${memoryText ? `Your memory:\n${memoryText}\n` : ""}Your task is to: examine the mug with the desklamp.\n${trajectoryText}>`,
  actorOutput: (step) => ` ${step.action}`,
  trajectoryText: (step) => `> ${step.action}\n${step.observation}\n`,
  evaluator: { kind: "environment-success", oracle: false },
  failure: { feedback: `Task not completed: the goal was not reached. ${HALT_REASON}`, outcome: "halted", reason: HALT_REASON },
  reflection: (trial) =>
    `In trial ${trial} I took the mug but then kept using a desklamp that was not there. Next time I will look for the desklamp on desk 1 first and use it only where I see it.`,
};
