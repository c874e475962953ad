import type { DemoScriptBook } from "@/lib/domain/demo-script";
import { JUDGE_SCALE_MAX } from "@/lib/domain/judge";
import { builtinOpenDemoScripts, type DemoCheck, type OpenDemoScript } from "./builtin-demo-scripts";
import { builtinOpenTasks } from "./builtin-tasks";
import { ANSWER_CLOSE, ANSWER_OPEN, JUDGE_INSTRUCTION, OPEN_END_OF_EXAMPLES } from "./prompts";
import type { OpenTask } from "./task";

/**
 * The offline demo model's script book for the built-in open tasks: a scripted
 * stand-in, not an LLM, that plays all three roles.
 * - **Actor** (prompt ends with `Thought n:`): its first draft misses one criterion; it gives the
 *   better answer once the memory block (after `(END OF EXAMPLES)`, before the task) holds every
 *   lesson keyword of the task — so deleting the lesson from the reflection makes it fail again.
 * - **Judge** (prompt starts with the judge instruction): scores each criterion with the task's
 *   checks over the answer between the answer markers (data, builtin-demo-scripts.ts) and replies
 *   in the judge template's JSON, each justification saying what was found or missing.
 * - **Self-Reflection** (prompt ends with `Reflection:`): reads the judge's feedback lines in the
 *   prompt and writes, for every criterion scored below 4/5, its justification and the task's
 *   lesson for it — so it responds to what the judge said, not to the task alone.
 */

interface Located {
  task: OpenTask;
  script: OpenDemoScript;
  /** Where the task's prompt text starts in the prompt (its last occurrence). */
  index: number;
}

const scripted = builtinOpenTasks.flatMap((task) => {
  const script = builtinOpenDemoScripts[task.id];
  return script ? [{ task, script }] : [];
});

/** The built-in task whose prompt text occurs in `prompt` (the longest match wins), or null. */
function locate(prompt: string): Located | null {
  let best: Located | null = null;
  for (const { task, script } of scripted) {
    const index = prompt.lastIndexOf(task.prompt);
    if (index !== -1 && (best === null || task.prompt.length > best.task.prompt.length)) best = { task, script, index };
  }
  return best;
}

const words = (text: string): number => text.split(/\s+/).filter((word) => word !== "").length;

/** The pass fraction (0–1) of one check over `answer`, and what it found, for the justification. */
export function runCheck(check: DemoCheck, answer: string): { fraction: number; note: string } {
  const folded = answer.toLowerCase();
  const has = (term: string) => folded.includes(term.toLowerCase());
  const firstLine = answer.split("\n")[0] ?? "";
  switch (check.kind) {
    case "includes-all": {
      const missing = check.terms.filter((term) => !has(term));
      const fraction = (check.terms.length - missing.length) / check.terms.length;
      return { fraction, note: missing.length === 0 ? `mentions ${check.terms.join(", ")}` : `does not mention ${missing.join(", ")}` };
    }
    case "includes-any": {
      const found = check.terms.find(has);
      return found ? { fraction: 1, note: `has "${found}"` } : { fraction: 0, note: `has none of ${check.terms.map((term) => `"${term}"`).join(", ")}` };
    }
    case "excludes": {
      const found = check.terms.filter(has);
      return found.length === 0 ? { fraction: 1, note: "no unwanted terms" } : { fraction: 0, note: `uses ${found.join(", ")}` };
    }
    case "not-starts-with": {
      const found = check.terms.find((term) => folded.trimStart().startsWith(term.toLowerCase()));
      return found ? { fraction: 0, note: `starts with "${found}"` } : { fraction: 1, note: "starts with the subject" };
    }
    case "max-words": {
      const count = words(answer);
      return { fraction: count <= check.max ? 1 : 0, note: `${count} words (limit ${check.max})` };
    }
    case "max-chars":
      return { fraction: answer.length <= check.max ? 1 : 0, note: `${answer.length} characters (limit ${check.max})` };
    case "first-line-max-chars":
      return { fraction: firstLine.length <= check.max ? 1 : 0, note: `first line ${firstLine.length} characters (limit ${check.max})` };
    case "first-line-no-period":
      return firstLine.trimEnd().endsWith(".") ? { fraction: 0, note: "first line ends with a period" } : { fraction: 1, note: "no trailing period" };
    case "min-lines": {
      const lines = answer.split("\n").length;
      return { fraction: lines >= check.min ? 1 : 0, note: lines >= check.min ? `${lines} lines` : `only ${lines} line${lines === 1 ? "" : "s"}, no body` };
    }
  }
}

/** The demo judge's JSON reply for `answer` to `task` (criteria in rubric order, 0–5 integer scores). */
export function demoJudgeReply(task: OpenTask, script: OpenDemoScript, answer: string): string {
  const scores = task.rubric.criteria.map((criterion) => {
    const checks = script.checks[criterion.id] ?? [];
    const results = checks.map((check) => runCheck(check, answer));
    const fraction = results.length === 0 ? 1 : results.reduce((sum, result) => sum + result.fraction, 0) / results.length;
    return { criterion: criterion.id, score: Math.round(fraction * JUDGE_SCALE_MAX), justification: `Demo judge (scripted): ${results.map((result) => result.note).join("; ") || "no check"}.` };
  });
  return JSON.stringify({ scores });
}

const FEEDBACK_LINE = /^- ([a-z0-9][a-z0-9_-]*) \(weight [\d.]+\): ([\d.]+)\/\d+ — (.*)$/gm;

/** The demo reflection: for each criterion the feedback scored below 4/5, what the judge said and the lesson. */
export function demoReflection(script: OpenDemoScript, prompt: string): string {
  const feedbackAt = prompt.lastIndexOf("Judge's feedback:");
  const feedback = feedbackAt === -1 ? "" : prompt.slice(feedbackAt);
  const low = [...feedback.matchAll(FEEDBACK_LINE)].filter((match) => Number(match[2]) < 4);
  if (low.length === 0) return "The judge did not pass my answer but named no criterion as low; next time I will reread the task and check every requirement it states before answering.";
  const said = low.map((match) => `${match[1]} at ${match[2]}/${JUDGE_SCALE_MAX} (${(match[3] ?? "").replace(/^Demo judge \(scripted\):\s*/, "").replace(/\.$/, "")})`);
  const plans = low.map((match) => script.lessons[match[1] ?? ""]).filter((lesson): lesson is string => lesson !== undefined);
  return `The judge did not pass my answer: it scored ${said.join(" and ")}. Next time I will ${plans.length > 0 ? plans.join(", and ") : "fix those criteria"}.`;
}

/** True when `memory` holds every keyword, case-insensitively. */
function hasLesson(memory: string, keywords: readonly string[]): boolean {
  const folded = memory.toLowerCase();
  return keywords.every((keyword) => folded.includes(keyword.toLowerCase()));
}

/** The `open` family's {@link DemoScriptBook}: see the module comment. Null for prompts about other tasks. */
export const openDemoScriptBook: DemoScriptBook = {
  respond(prompt: string): string | null {
    if (prompt.trimStart().startsWith(JUDGE_INSTRUCTION)) {
      const open = prompt.indexOf(ANSWER_OPEN);
      const close = prompt.lastIndexOf(ANSWER_CLOSE);
      const located = locate(open === -1 ? prompt : prompt.slice(0, open));
      if (!located || open === -1 || close < open) return null;
      return demoJudgeReply(located.task, located.script, prompt.slice(open + ANSWER_OPEN.length, close).trim());
    }
    const located = locate(prompt);
    if (!located) return null;
    if (/Reflection:\s*$/.test(prompt)) return demoReflection(located.script, prompt);
    const step = /Thought[ \t]+(\d+):\s*$/.exec(prompt);
    if (!step) return null;
    const examplesEnd = prompt.lastIndexOf(OPEN_END_OF_EXAMPLES, located.index);
    const memory = prompt.slice(examplesEnd === -1 ? 0 : examplesEnd + OPEN_END_OF_EXAMPLES.length, located.index);
    const answer = hasLesson(memory, located.script.lessonKeywords) ? located.script.informed : located.script.naive;
    return ` ${located.script.thought}\nAction ${step[1]}: Finish[${answer}]`;
  },
};
