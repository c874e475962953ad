import { FEEDBACK_PROMPT_END, REFINE_ANSWER_LABEL, REFINE_FEEDBACK_LABEL, REFINE_PROMPT_END, REFINE_STOP_PHRASE } from "@/lib/domain/self-refine";

/**
 * The open family's Self-Refine templates (Madaan et al. 2023, §2; lib/domain/self-refine.ts): the
 * Actor's model critiques and rewrites its own answer before the LLM judge scores it. The judge's
 * rubric is not shown: the feedback is the model's own. Placeholders: `{prompt}` (the task),
 * `{answer}`, `{feedback}` (refine only).
 */
export const openFeedbackTemplate = {
  id: "open/self-refine-feedback",
  version: 1,
  text: `You are reviewing an answer to a request. Say concretely what would make it better: what is wrong, unclear, missing or too long. If nothing needs to change, write only "${REFINE_STOP_PHRASE}".

Request: {prompt}

${REFINE_ANSWER_LABEL}
{answer}

${FEEDBACK_PROMPT_END}`,
};

/** The open refine template: the improved answer alone. */
export const openRefineTemplate = {
  id: "open/self-refine-refine",
  version: 1,
  text: `You are improving an answer to a request using feedback on it. Write only the improved answer, nothing else.

Request: {prompt}

${REFINE_ANSWER_LABEL}
{answer}

${REFINE_FEEDBACK_LABEL}
{feedback}

${REFINE_PROMPT_END}`,
};
