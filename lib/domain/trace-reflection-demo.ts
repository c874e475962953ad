import type { DemoScriptBook } from "./demo-script";
import { JUDGE_SCALE_MAX } from "./judge";
import { FEEDBACK_HEADING, FINAL_ANSWER_LABEL, TOOL_RESULTS_HEADING, TRACE_JUDGE_RUBRIC, TRACE_REFLECTION_INSTRUCTION, TRACE_REFLECTION_PROMPT_END } from "./trace-reflection";

/**
 * The offline demo model's answers for imported traces (a scripted stand-in; docs/decisions/0039):
 * - the trace Self-Reflection prompt ({@link TRACE_REFLECTION_INSTRUCTION} … `Reflection:`): it reads
 *   the steps and the verdict the prompt shows and names the first concrete mistake it finds — a
 *   tool called again with the same input, a tool result that was an error or empty, an answer the
 *   feedback calls a mismatch (never quoting the expected answer) — with a plan naming that action;
 *   so the reflection responds to the trace, not to a script of a known task;
 * - the rubric judge's prompt for a trace (the `open` judge prompt with {@link TRACE_JUDGE_RUBRIC}'s
 *   criterion ids): `trace-goal-met` compares the answer with the expected answer in the grader's
 *   notes (5 when it contains it, 1 otherwise; with no expected answer 4 when the tool results
 *   support the answer, else 2), `trace-grounded` checks that the answer's words occur in the tool results.
 * It learns nothing; it makes importing, judging and reflecting work offline and in tests.
 */

const JUDGE_START = "You are grading an answer against a rubric.";
const ANSWER_OPEN = "<<<ANSWER";
const ANSWER_CLOSE = "ANSWER>>>";

/** The answer to a trace prompt, or null for any other prompt. */
export const traceReflectionDemoBook: DemoScriptBook = {
  respond(prompt: string): string | null {
    // The built-in template, or a version of it that keeps its sections (a person's rewording of the instructions).
    const reflecting = prompt.trimEnd().endsWith(TRACE_REFLECTION_PROMPT_END) && (prompt.trimStart().startsWith(TRACE_REFLECTION_INSTRUCTION) || (prompt.includes("\nSteps:\n") && prompt.includes(FEEDBACK_HEADING)));
    if (reflecting) return demoTraceReflection(prompt);
    if (prompt.trimStart().startsWith(JUDGE_START) && TRACE_JUDGE_RUBRIC.criteria.every((criterion) => prompt.includes(criterion.id))) return demoTraceJudge(prompt);
    return null;
  },
};

/** The text between `start` (a line label) and the next blank line followed by a label, trimmed. */
function section(prompt: string, start: string, end: string): string {
  const at = prompt.indexOf(start);
  if (at === -1) return "";
  const from = at + start.length;
  const until = prompt.indexOf(end, from);
  return prompt.slice(from, until === -1 ? undefined : until).trim();
}

/** A reflection naming the first concrete mistake the prompt's steps and feedback show. */
export function demoTraceReflection(prompt: string): string {
  const steps = section(prompt, "\nSteps:\n", `\n\n${FEEDBACK_HEADING}`);
  const ended = section(prompt, `\n${FEEDBACK_HEADING}\n`, `\n\n${TRACE_REFLECTION_PROMPT_END}`);
  const answerLine = ended.split("\n")[0] ?? "";
  const answer = (answerLine.startsWith(FINAL_ANSWER_LABEL) ? answerLine.slice(FINAL_ANSWER_LABEL.length).trim() : "") || "(none)";
  const feedback = answerLine.startsWith(FINAL_ANSWER_LABEL) ? ended.slice(answerLine.length).trim() : ended;
  const actions = [...steps.matchAll(/^Action (\d+): (.+)$/gmu)].map((match) => ({ n: Number(match[1]), text: (match[2] ?? "").trim() }));
  const observations = new Map([...steps.matchAll(/^Observation (\d+): (.*)$/gmu)].map((match) => [Number(match[1]), (match[2] ?? "").trim()]));
  const seen = new Map<string, number>();
  for (const action of actions) {
    const count = (seen.get(action.text) ?? 0) + 1;
    seen.set(action.text, count);
    if (count === 2) {
      const times = actions.filter((other) => other.text === action.text).length;
      return `I called ${action.text} ${times} times with the same input and got the same result each time, so the repeats gave me no new information. Next time, after one unhelpful ${action.text}, I will change the input (a narrower query or another tool) instead of repeating it, and answer from what the tools returned.`;
    }
  }
  for (const action of actions) {
    const observation = observations.get(action.n) ?? "";
    if (/\b(error|exception|not found|no results?|failed|invalid)\b/iu.test(observation) || observation === "") {
      const said = observation === "" ? "nothing" : `"${observation.slice(0, 80)}"`;
      return `My call ${action.text} returned ${said}, and I went on as if it had worked, ending with the answer ${answer}. Next time, when a tool returns an error or nothing, I will fix the call's input (check the spelling and the argument's form) and try again before answering.`;
    }
  }
  // The feedback says the answer differs from an expected one: name the mismatch, never the expected answer.
  const mismatch = /\b(?:expected|reference answer|target|does not match)\b/iu.test(feedback);
  if (mismatch || /\bincorrect\b/iu.test(feedback)) {
    return `My answer ${answer} ${mismatch ? "did not match the expected answer" : "was judged incorrect"}. Next time I will check that my final answer is the exact entity or value the task asks for, in the form it asks for, and that a tool result supports it, before I finish.`;
  }
  const reason = feedback.split("\n")[0]?.trim() || "the Evaluator did not pass it";
  return `My answer ${answer} was judged a failure (${reason.slice(0, 160)}). Next time I will reread the task, list what the answer must contain, and check each item against the tool results before finishing.`;
}

const WORD = /[\p{L}\p{N}]+/gu;

/** The demo judge's JSON for a trace answer: see the module comment. */
export function demoTraceJudge(prompt: string): string {
  const open = prompt.indexOf(ANSWER_OPEN);
  const close = prompt.lastIndexOf(ANSWER_CLOSE);
  const answer = open === -1 || close < open ? "" : prompt.slice(open + ANSWER_OPEN.length, close).trim();
  const notes = section(prompt, "Notes for the grader (the writer did not see them):\n", "\n\nRubric");
  const expected = /^Expected answer: (.+)$/mu.exec(notes)?.[1]?.trim() ?? null;
  const folded = answer.toLowerCase();
  const toolAt = notes.indexOf(TOOL_RESULTS_HEADING);
  const toolText = toolAt === -1 ? "" : notes.slice(toolAt + TOOL_RESULTS_HEADING.length).toLowerCase();
  const words = (folded.match(WORD) ?? []).filter((word) => word.length > 1 || /\p{N}/u.test(word));
  const grounded = words.length === 0 ? 0 : words.filter((word) => toolText.includes(word)).length / words.length;
  // Without an expected answer a script cannot tell: it trusts an answer the tool results support.
  const goal = expected !== null ? (folded.includes(expected.toLowerCase()) ? JUDGE_SCALE_MAX : 1) : grounded >= 0.5 ? 4 : 2;
  const scores = [
    {
      criterion: "trace-goal-met",
      score: goal,
      justification: `Demo judge (scripted): ${expected === null ? `no expected answer in the notes; the tool results ${goal >= 4 ? "support" : "do not support"} the answer` : goal === JUDGE_SCALE_MAX ? "contains the expected answer" : "does not contain the expected answer"}.`,
    },
    { criterion: "trace-grounded", score: Math.round(grounded * JUDGE_SCALE_MAX), justification: `Demo judge (scripted): ${Math.round(grounded * 100)}% of the answer's words occur in the tool results.` },
  ];
  return JSON.stringify({ scores });
}
