import { matchKeyFacts } from "@/lib/domain/key-facts";
import { FEEDBACK_PROMPT_END, feedbackInRefinePrompt, REFINE_STOP_PHRASE, reviewedAnswerOf } from "@/lib/domain/self-refine";
import { builtinCodeKeyFacts } from "./builtin-key-facts";
import type { CodeDemoScript } from "./demo-script-types";
import { extractCode } from "./extract-code";
import { fenced } from "./prompts";
import type { CodeLanguage, CodeTask } from "./task";

/**
 * The offline demo model (a scripted stand-in) as Self-Refine's critic and refiner on a built-in
 * code task (lib/domain/self-refine.ts). It reads its own code as a careful reviewer would: the
 * feedback on the first (naive) implementation names the missed case — the task's scripted
 * reflection, worded as a review — and on the informed implementation says the stop phrase. The
 * refinement writes the informed implementation when the feedback states every key fact of the
 * task (builtin-key-facts.ts, as the Actor's memory must), else returns the code unchanged. So on
 * code Self-Refine fixes the first program within trial 1, and editing the feedback changes that.
 */
export function codeDemoRefineReply(task: CodeTask, script: CodeDemoScript, prompt: string, language: CodeLanguage): string {
  const code = extractCode(reviewedAnswerOf(prompt) ?? "").code.trim();
  if (prompt.trimEnd().endsWith(FEEDBACK_PROMPT_END)) {
    if (code === script.informed.trim()) return `The implementation handles every case the docstring allows, the edge cases included. ${REFINE_STOP_PHRASE}`;
    return asReview(script.reflection);
  }
  const feedback = feedbackInRefinePrompt(prompt) ?? "";
  const fixes = matchKeyFacts(builtinCodeKeyFacts[task.id] ?? [], feedback.toLowerCase()).helps;
  return fenced((fixes ? script.informed : code).trimEnd(), language);
}

/** A scripted reflection ("My implementation returned … Next time I should …") worded as a reviewer's feedback. */
function asReview(reflection: string): string {
  return reflection
    .replace(/\bMy implementation\b/g, "The implementation")
    .replace(/\bNext time I should\b/g, "It should")
    .replace(/\bI should\b/g, "it should");
}
