import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

/**
 * Every Actor completion of the paper's HotpotQA run logs
 * (noahshinn/reflexion `hotpotqa_runs/root/**.txt`, text-davinci-003, May 2023),
 * read in place from the shared data folder next to the repository; never
 * copied into the repo. The logs print each step as `Thought n: …` then
 * `Action n: …` (ReAct) or `Thought: …` / `Action: …` (CoT), each line one
 * model output with its newlines deleted (reference §2.2), then the
 * `Observation` the environment wrote.
 */
export const HOTPOTQA_RUNS_ROOT = path.resolve(__dirname, "../../../../shared/data/reflexion/noahshinn-reflexion/hotpotqa_runs/root");

/** One logged Actor step. */
export interface LoggedStep {
  /** The log file, relative to {@link HOTPOTQA_RUNS_ROOT}. */
  file: string;
  /** 1-based line of the `Thought` line. */
  line: number;
  /** The step number, or null for the CoT logs' unnumbered labels. */
  step: number | null;
  thought: string;
  /** The `Action` line's text after its label, as logged. */
  action: string;
  /** The observation the environment wrote (its lines joined), or null when the log has none after it. */
  observation: string | null;
  /** The next logged step of the same trajectory, when there is one. */
  next: { thought: string; action: string } | null;
}

function logFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) return logFiles(full);
      return name.endsWith(".txt") ? [full] : [];
    });
}

const thoughtLine = /^Thought(?: (\d+))?: ?(.*)$/;
const actionLine = /^Action(?: (\d+))?: ?(.*)$/;
const observationLine = /^Observation(?: (\d+))?: ?(.*)$/;

/** Every logged Actor step of every log file, in file order. */
export function loggedSteps(): LoggedStep[] {
  const steps: LoggedStep[] = [];
  for (const full of logFiles(HOTPOTQA_RUNS_ROOT)) {
    const file = path.relative(HOTPOTQA_RUNS_ROOT, full);
    const lines = readFileSync(full, "utf8").split("\n");
    let previous: LoggedStep | null = null;
    for (let index = 0; index < lines.length; index += 1) {
      const thought = thoughtLine.exec(lines[index] ?? "");
      const action = actionLine.exec(lines[index + 1] ?? "");
      if (thought === null || action === null || thought[1] !== action[1]) continue;
      let observation: string | null = null;
      const first = observationLine.exec(lines[index + 2] ?? "");
      if (first !== null) {
        const body = [first[2] ?? ""];
        for (let k = index + 3; k < lines.length; k += 1) {
          const text = lines[k] ?? "";
          if (thoughtLine.test(text) || text.startsWith("Correct answer:") || text.startsWith("Question:") || text.trim() === "") break;
          body.push(text);
        }
        observation = body.join("\n");
      }
      const step: LoggedStep = {
        file,
        line: index + 1,
        step: thought[1] === undefined ? null : Number(thought[1]),
        thought: thought[2] ?? "",
        action: action[2] ?? "",
        observation,
        next: null,
      };
      if (previous !== null && previous.file === file && previous.step !== null && step.step === previous.step + 1) {
        previous.next = { thought: step.thought, action: step.action };
      }
      steps.push(step);
      previous = step;
    }
  }
  return steps;
}

/**
 * The completion our one-call protocol would have received for a logged step
 * (decision 0003: the prompt ends with `Thought n:`, the model writes the
 * thought, then `Action n: …`): ` <thought>\nAction n: <action>`.
 */
export function completionOf(step: Pick<LoggedStep, "step" | "thought" | "action">, action: string = step.action): string {
  return ` ${step.thought}\n${step.step === null ? "Action:" : `Action ${step.step}:`} ${action}`;
}
