import { FEEDBACK_PROMPT_END, REFINE_ANSWER_LABEL, REFINE_FEEDBACK_LABEL, REFINE_PROMPT_END, REFINE_STOP_PHRASE } from "@/lib/domain/self-refine";

/**
 * The QA family's Self-Refine templates (Madaan et al. 2023, §2; lib/domain/self-refine.ts): the
 * same model checks its answer to the question and rewrites it. Placeholders: `{question}` (the
 * family's), `{answer}`, `{feedback}` (refine only). The answer is judged by exact match, so the
 * refine template asks for the answer alone, as `Finish[…]` would carry it.
 */
export const qaFeedbackTemplate = {
  id: "qa/self-refine-feedback",
  version: 1,
  text: `You are checking an answer to a question. Say concretely what is wrong with the answer: a wrong entity, a part of the question it does not answer, or the wrong form (a whole sentence where a name or a number is asked for). If the answer is right and in the right form, write only "${REFINE_STOP_PHRASE}".

Question: {question}

${REFINE_ANSWER_LABEL}
{answer}

${FEEDBACK_PROMPT_END}`,
};

/** The QA refine template: the improved answer, alone on one line. */
export const qaRefineTemplate = {
  id: "qa/self-refine-refine",
  version: 1,
  text: `You are improving an answer to a question using feedback on it. Write only the improved answer (a name, a number or a short phrase) on one line, nothing else.

Question: {question}

${REFINE_ANSWER_LABEL}
{answer}

${REFINE_FEEDBACK_LABEL}
{feedback}

${REFINE_PROMPT_END}`,
};

/** The answer a QA refine completion gives: the argument of a `Finish[…]` the model wrote anyway, else its first non-empty line. */
export function readQaRefinedAnswer(completion: string): string {
  const finish = /Finish\[([^\]]*)\]/.exec(completion);
  if (finish) return finish[1]!.trim();
  return completion.split("\n").map((line) => line.trim()).find((line) => line !== "") ?? "";
}
