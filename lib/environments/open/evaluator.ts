import type { EvaluationContext, JudgeReply, Verdict } from "@/lib/domain/environment";
import { JudgeUnreadableError, judgeVerdictOf, weightedScore } from "@/lib/domain/judge";
import { parseJudgeAnswer } from "@/lib/domain/judge-parse";
import { buildJudgeMessages, buildJudgeReask, openJudgeTemplate, renderJudgeFeedback } from "./prompts";
import type { OpenTask } from "./task";

/**
 * The `open` family's Evaluator: an LLM judge scores the answer on each
 * rubric criterion (0–5 with a one-line justification, JSON), the weighted score against the
 * rubric's threshold is the verdict. An unreadable answer is asked again once (the first
 * exchange and the problem are in the second prompt); a second unreadable answer throws
 * {@link JudgeUnreadableError}, which the engine turns into a pause, never a failed trial.
 * A trial that halted without an answer fails without a judge call.
 */
export async function evaluateOpenTrial(task: OpenTask, answer: string | null, context: EvaluationContext | undefined): Promise<Verdict> {
  if (answer === null) {
    return {
      verdict: "fail",
      score: 0,
      feedback: "No answer was submitted (the trial ended without Finish[...]), so the judge was not asked.",
      evaluatorKind: "llm-judge",
      oracle: false,
      details: { judged: false },
      judge: null,
    };
  }
  if (!context) throw new Error("The open family's Evaluator needs the engine's judge (EvaluationContext); this engine did not pass one.");
  const template = context.template ?? openJudgeTemplate;
  const first = buildJudgeMessages(template.text, task, answer);
  const firstReply = await context.judge(first);
  const replies: JudgeReply[] = [firstReply];
  let last = firstReply;
  let parsed = parseJudgeAnswer(firstReply.text, task.rubric);
  let firstProblem: string | null = null;
  if (!parsed.ok) {
    firstProblem = parsed.problem;
    last = await context.judge(buildJudgeReask(first, firstReply.text, parsed.problem, task));
    replies.push(last);
    parsed = parseJudgeAnswer(last.text, task.rubric);
    if (!parsed.ok) throw new JudgeUnreadableError([firstProblem, parsed.problem], replies.map((reply) => reply.callId));
  }
  const score = weightedScore(parsed.criteria);
  const verdict = judgeVerdictOf(score, task.rubric.passThreshold);
  const judge = {
    criteria: parsed.criteria,
    weightedScore: score,
    threshold: task.rubric.passThreshold,
    callId: last.callId,
    callIds: replies.map((reply) => reply.callId),
    modelId: last.modelId,
    templateId: template.id,
    attempts: replies.length,
    firstProblem,
  };
  return {
    verdict,
    score,
    feedback: renderJudgeFeedback(judge, verdict),
    evaluatorKind: "llm-judge",
    oracle: false,
    details: { judged: true, ignoredCriteria: parsed.ignored },
    judge,
  };
}
