import { FEEDBACK_PROMPT_END, REFINE_ANSWER_LABEL, REFINE_FEEDBACK_LABEL, REFINE_PROMPT_END, REFINE_STOP_PHRASE } from "@/lib/domain/self-refine";
import { CODE_LABELS } from "./prompts";

/**
 * The code family's Self-Refine templates (Madaan et al. 2023, §2; lib/domain/self-refine.ts): the
 * same model reviews its implementation and rewrites it. The feedback is the model's own reading
 * of the code, as in the paper: the internal and the hidden tests are not shown (the Evaluator runs
 * the internal tests on the refined code; the hidden tests stay for reporting only).
 * Placeholders: `{language_name}`, `{fence}`, `{signature}`, `{answer}` (the implementation, fenced),
 * `{feedback}` (refine only).
 */
export const codeFeedbackTemplate = {
  id: "code/self-refine-feedback",
  version: 1,
  text: `You are a {language_name} programming assistant reviewing an implementation. Read the function signature and docstring, then the implementation, and say concretely which inputs it gets wrong (edge cases included) and how to fix it. Do not write the corrected code. If the implementation is correct for every input the docstring allows, write only "${REFINE_STOP_PHRASE}".

${CODE_LABELS.signature}
{signature}

${REFINE_ANSWER_LABEL}
{answer}

${FEEDBACK_PROMPT_END}`,
};

/** The code refine template: the full implementation in one fenced block. */
export const codeRefineTemplate = {
  id: "code/self-refine-refine",
  version: 1,
  text: `You are a {language_name} programming assistant. Rewrite the implementation so that it addresses the feedback, restating the function signature. Answer with one \`\`\`{fence} code block holding the full implementation, and nothing else.

${CODE_LABELS.signature}
{signature}

${REFINE_ANSWER_LABEL}
{answer}

${REFINE_FEEDBACK_LABEL}
{feedback}

${REFINE_PROMPT_END}`,
};
