import type { RunConfig } from "@/lib/domain/config";
import { AppError } from "@/lib/domain/errors";
import type { ChatMessage, RunEvent } from "@/lib/domain/events";
import { foldRun } from "@/lib/domain/fold-run";
import { SUMMARIZER_VARIABLES } from "@/lib/domain/memory-summary";
import { countTokens } from "@/lib/domain/tokenizer";
import type { PreviewResponse, TemplateRole } from "@/lib/domain/template-library";
import { buildSummarizerMessages } from "@/lib/engine/memory-summary";
import { buildActorMessages, buildReflectorMessages, templateVariableNames, trajectoryOf } from "@/lib/engine/prompts";
import { buildValueMessages } from "@/lib/engine/tree-phase";
import { LATS_VALUE_VARIABLES } from "@/lib/domain/lats-value";
import { placeholdersOf } from "@/lib/domain/template-check";
import { environmentEntry } from "@/lib/environments/registry";

/** The token budget shown in a summariser preview of a run that does not summarise (the new-run form's default). */
export const PREVIEW_SUMMARY_BUDGET = 200;

/** The `{name}`s a template text uses, in order of first use (lib/domain/template-check.ts). */
export { placeholdersOf };

/**
 * The events of a branch path up to (not including) the recorded model call
 * the preview stands for, so the folded state is the engine's when it built
 * that prompt: the Actor call of (trial, step), the Self-Reflection call after
 * trial `trial` ended, or the summariser call before trial `trial` started.
 * When no such call was recorded (the run has not got there, or the step had a
 * hand-written action), the events up to where the call would have been, as
 * far as the log goes.
 */
function prefixFor(events: readonly RunEvent[], role: TemplateRole, trial: number, step: number): RunEvent[] {
  let cut = events.length;
  if (role === "actor") {
    const index = events.findIndex((e) => e.type === "model-call-end" && e.data.role === "actor" && e.data.trial === trial && e.data.step === step);
    const fallback = events.findIndex((e) => (e.type === "step-action" && e.data.trial === trial && e.data.step === step) || (e.type === "trial-end" && e.data.trial === trial));
    cut = index !== -1 ? index : fallback !== -1 ? fallback : events.length;
  } else if (role === "reflector") {
    const ended = events.findIndex((e) => e.type === "trial-end" && e.data.trial === trial);
    if (ended === -1) throw new AppError("invalid-input", `Trial ${trial} has not ended on this branch: there is no Self-Reflection prompt to preview yet.`);
    const call = events.findIndex((e, i) => i > ended && e.type === "model-call-end" && e.data.role === "reflector" && e.data.trial === trial);
    const next = events.findIndex((e, i) => i > ended && (e.type === "reflection-end" || e.type === "trial-start"));
    cut = call !== -1 ? call : next !== -1 ? next : events.length;
  } else if (role === "evaluator") {
    // The judge's prompt needs the trial's answer; cut before its first judge call (or its verdict).
    const call = events.findIndex((e) => e.type === "model-call-end" && e.data.role === "evaluator" && e.data.trial === trial);
    const verdict = events.findIndex((e) => e.type === "evaluation-end" && e.data.trial === trial);
    cut = call !== -1 ? call : verdict !== -1 ? verdict : events.length;
  } else if (role === "value") {
    // The value prompt over the trial's whole trajectory: everything up to the trial's end.
    const ended = events.findIndex((e) => e.type === "trial-end" && e.data.trial === trial);
    cut = ended !== -1 ? ended : events.length;
  } else {
    const summary = events.findIndex((e) => e.type === "memory-summary" && e.data.trial === trial);
    const callId = summary === -1 ? null : (events[summary] as Extract<RunEvent, { type: "memory-summary" }>).data.callId;
    const call = callId === null ? -1 : events.findIndex((e) => e.type === "model-call-end" && e.data.callId === callId);
    const start = events.findIndex((e) => e.type === "trial-start" && e.data.trial === trial);
    cut = call !== -1 ? call : start !== -1 ? start : events.length;
  }
  return events.slice(0, cut);
}

/**
 * The prompt the engine would send for `role` at (`trial`, `step`) of a recorded
 * branch with `text` as the role's template, built by the engine's own prompt
 * builders (lib/engine/prompts.ts, lib/engine/memory-summary.ts) on the folded
 * state at that point; with the template the run used, it equals the recorded
 * call's messages (tests/templates/preview.test.ts). Tokens are counted with the
 * role's model tokenizer (lib/domain/tokenizer.ts).
 * @throws AppError("invalid-input") for a trial the branch has not reached.
 */
export function previewPrompt(events: readonly RunEvent[], input: { text: string; role: TemplateRole; trial: number; step?: number }): PreviewResponse {
  const step = input.step ?? 1;
  const prefix = prefixFor(events, input.role, input.trial, step);
  const state = foldRun(prefix);
  const base = state.config;
  if (!base) throw new AppError("invalid-input", "The run has no run-start event.");
  const family = environmentEntry(base.environment).family;
  const task = family.parseTask(base.task);
  let messages: ChatMessage[];
  let variables: string[];
  let modelId: string;
  if (input.role === "summarizer") {
    const budget = base.memoryManagement?.kind === "summarize" ? base.memoryManagement.tokenBudget : PREVIEW_SUMMARY_BUDGET;
    messages = buildSummarizerMessages(input.text, state.memory, budget);
    variables = [...SUMMARIZER_VARIABLES];
    modelId = base.models.reflector.modelId;
  } else if (input.role === "evaluator") {
    const answer = state.trials.find((t) => t.trial === input.trial)?.answer ?? null;
    if (!family.judgeMessages) throw new AppError("invalid-input", `The ${base.environment} family's Evaluator is not a model: it has no judge prompt to preview.`);
    if (answer === null) throw new AppError("invalid-input", `Trial ${input.trial} has no submitted answer on this branch, so there is no judge prompt to preview; pick a trial that submitted one.`);
    messages = family.judgeMessages(task, answer, input.text);
    variables = [...(family.judgeVariableNames ?? [])];
    modelId = (base.models.evaluator ?? base.models.actor).modelId;
  } else if (input.role === "value") {
    // The value prompt over the trial's whole trajectory (a LATS trial's path), with the reflections it started with.
    const trialView = state.trials.find((t) => t.trial === input.trial);
    if (!trialView) throw new AppError("invalid-input", `Trial ${input.trial} has not started on this branch (it has ${state.trials.length} trials).`);
    messages = buildValueMessages(input.text, family, task, trialView.memory, trajectoryOf(trialView));
    variables = [...LATS_VALUE_VARIABLES];
    modelId = base.models.actor.modelId;
  } else if (input.role === "optimiser") {
    throw new AppError("invalid-input", "An optimiser meta-prompt is rendered from an optimisation's failed trials, not from one trial of a run: there is no run preview for it. Its placeholders are {template}, {failures}, {role} and {family} (docs/optimiser.md).");
  } else {
    const role = input.role;
    const config: RunConfig = { ...base, templates: { ...base.templates, [role]: { ...base.templates[role], text: input.text } } };
    const trialView = state.trials.find((t) => t.trial === input.trial);
    if (!trialView) throw new AppError("invalid-input", `Trial ${input.trial} has not started on this branch (it has ${state.trials.length} trials).`);
    if (role === "actor") {
      const previous = state.trials.find((t) => t.trial === input.trial - 1) ?? null;
      messages = buildActorMessages(config, family, task, trialView, step, previous, state.trials);
    } else {
      messages = buildReflectorMessages(config, family, task, trialView);
    }
    variables = templateVariableNames(family, task)[role];
    modelId = base.models[role].modelId;
  }
  const known = new Set(variables);
  return {
    messages,
    promptTokens: countTokens(modelId, messages).tokens,
    unknownPlaceholders: placeholdersOf(input.text).filter((name) => !known.has(name)),
    variables,
  };
}
