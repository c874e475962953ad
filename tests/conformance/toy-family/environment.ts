import { z } from "zod";
import type { ActionParse, EnvironmentFamily, SyncEpisode, TrajectoryStep, Verdict } from "@/lib/domain/environment";
import type { MemoryItem } from "@/lib/domain/events";
import { AppError } from "@/lib/domain/errors";

/** A toy task: an arithmetic question and its gold answer (a number written as text). */
export const toyTaskSchema = z.object({ id: z.string().min(1), question: z.string().min(1), answer: z.string().min(1) });
export type ToyTask = z.infer<typeof toyTaskSchema>;

const ACTION = /^(Calculate|Finish)\[(.*)\]$/s;
const ARITHMETIC = /^[\d\s+\-*/().]+$/;

/** Evaluates `+ - * / ( )` over integers with a tiny recursive-descent reader; null on anything else. */
function calculate(expression: string): number | null {
  if (!ARITHMETIC.test(expression)) return null;
  const tokens = expression.match(/\d+|[+\-*/()]/g) ?? [];
  let at = 0;
  const factor = (): number => {
    const token = tokens[at++];
    if (token === "(") {
      const value = sum();
      at += 1;
      return value;
    }
    if (token === "-") return -factor();
    return Number(token);
  };
  const product = (): number => {
    let value = factor();
    while (tokens[at] === "*" || tokens[at] === "/") value = tokens[at++] === "*" ? value * factor() : value / factor();
    return value;
  };
  const sum = (): number => {
    let value = product();
    while (tokens[at] === "+" || tokens[at] === "-") value = tokens[at++] === "+" ? value + product() : value - product();
    return value;
  };
  const value = sum();
  return at === tokens.length && Number.isFinite(value) ? value : null;
}

/** One trial's episode: the calculator answers `Calculate`, `Finish` ends the trial. */
class ToyEpisode implements SyncEpisode {
  step(parse: ActionParse) {
    if (!parse.ok) return { observation: parse.error, done: false, answer: null };
    if (parse.action.type === "Finish") return { observation: "Answer submitted.", done: true, answer: parse.action.argument.trim() };
    const value = calculate(parse.action.argument);
    return { observation: value === null ? `Cannot calculate "${parse.action.argument}".` : String(value), done: false, answer: null };
  }
}

const trajectory = (steps: readonly TrajectoryStep[]) =>
  steps.map((step) => `\nThought ${step.step}: ${step.thought}\nAction ${step.step}: ${step.actionText}\nObservation ${step.step}: ${step.observation}`).join("");

/** The toy family: arithmetic questions, a calculator tool, exact match on the number (an oracle). */
export const toyArithmeticEnvironment: EnvironmentFamily<ToyTask> = {
  id: "toy-arithmetic",
  parseTask(json) {
    const parsed = toyTaskSchema.safeParse(json);
    if (!parsed.success) throw new AppError("invalid-dataset", `A toy task needs id, question and answer: ${parsed.error.issues[0]?.message ?? "invalid"}.`);
    return parsed.data;
  },
  summarize: (task) => ({ id: task.id, title: task.question, reference: task.answer }),
  splitCompletion(completion) {
    const match = /^(.*?)\nAction \d+:\s*(.*?)(?:\n([\s\S]*))?$/s.exec(completion);
    if (!match) return { thought: completion.trim(), actionText: "" };
    return { thought: match[1]!.trim(), actionText: match[2]!.trim(), ...(match[3]?.trim() ? { ignored: match[3].trim() } : {}) };
  },
  parseAction(text) {
    const match = ACTION.exec(text.trim());
    if (!match) return { ok: false, error: "Invalid Action. Valid actions are Calculate[<expression>] and Finish[<number>].", text };
    return { ok: true, action: { type: match[1]!, argument: match[2]! }, text };
  },
  startEpisode: () => new ToyEpisode(),
  evaluate(task, answer): Verdict {
    const pass = answer !== null && Number(answer) === Number(task.answer);
    return {
      verdict: pass ? "pass" : "fail",
      score: pass ? 1 : 0,
      feedback: answer === null ? "No answer was given." : pass ? "Correct." : `The answer ${answer} is wrong.`,
      evaluatorKind: "exact-match",
      oracle: true,
      details: { answer, gold: task.answer },
    };
  },
  defaultMaxStepsPerTrial: 4,
  promptVariables: (task) => ({ question: task.question }),
  defaultTemplates: {
    actor: {
      id: "toy-arithmetic/actor",
      version: 1,
      text: "Answer with Thought n: and Action n: lines. Actions: Calculate[<expression>], Finish[<number>].\n{memory}Question: {question}{scratchpad}",
    },
    reflector: {
      id: "toy-arithmetic/reflect",
      version: 1,
      text: "You answered this question and failed.\nQuestion: {question}{scratchpad}\n{feedback}\nIn one sentence, what will you do differently?\nReflection:",
    },
  },
  renderTrajectory: trajectory,
  renderMemory: (memory: readonly MemoryItem[]) =>
    memory.length === 0 ? "" : `Reflections from earlier trials:\n${memory.map((item) => `- ${item.text}`).join("\n")}\n`,
  stepPrefix: (step) => `\nThought ${step}:`,
  actorStopSequences: ["\nObservation"],
};
