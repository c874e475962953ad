import { draft, type EventDraft } from "@/lib/domain/events";
import type { RunConfig } from "@/lib/domain/config";
import type { RunState } from "@/lib/domain/fold-run";
import { asCallId } from "@/lib/domain/ids";
import { memoryTokens, summarizerVariables } from "@/lib/domain/memory-summary";
import { mergesBeforeTrial } from "@/lib/domain/next-trial";
import { callModel, type EngineResponse, type ModelCallContext } from "./model-calls";
import type { ModelRequest } from "./ports";
import { cleanReflection } from "./prompts";
import { renderTemplate } from "./render-template";

/**
 * The summariser prompt for a memory: the run's summariser
 * template with `{reflections}`, `{count}` and `{tokenBudget}` filled
 * (lib/domain/memory-summary.ts), sent as one user message like the other prompts.
 * Also what `POST /api/templates/preview` renders for the `summarizer` role.
 */
export function buildSummarizerMessages(templateText: string, memory: RunState["memory"], tokenBudget: number): ModelRequest["messages"] {
  return [{ role: "user", content: renderTemplate(templateText, summarizerVariables(memory, tokenBudget)).text }];
}

/**
 * Before trial `trial` starts: when the run summarises its memory and the
 * episodic memory is over budget (`mergesBeforeTrial`, lib/domain/next-trial.ts), asks the
 * Self-Reflection model (its settings, its response cache) to merge the
 * reflections and returns the `model-call-end` + `memory-summary` drafts to
 * append; null when nothing is to be done (window management, the strategy
 * shows no reflections, or the memory fits). The summary replaces the whole
 * memory, so the next check passes and the trial starts.
 */
export async function summarizeMemory(
  context: ModelCallContext & { newId: () => string },
  state: RunState,
  config: RunConfig,
  trial: number,
  reflectionsInPrompt: boolean,
  callEnd: (eventId: string, callId: ReturnType<typeof asCallId>, request: ModelRequest, response: EngineResponse, trial: number, step: number | null) => EventDraft,
): Promise<EventDraft[] | null> {
  const management = config.memoryManagement;
  // The same test the memory panel shows as "merged first" (lib/domain/next-trial.ts).
  if (management?.kind !== "summarize" || !reflectionsInPrompt || !mergesBeforeTrial(config, state.memory, memoryTokens)) return null;
  const modelId = config.models.reflector.modelId;
  const request: ModelRequest = {
    role: "reflector",
    settings: config.models.reflector,
    messages: buildSummarizerMessages(management.summarizer.text, state.memory, management.tokenBudget),
    stopSequences: [],
  };
  const response = await callModel(context, request, { role: "reflector", trial, step: null }, state.replayMode, (text) => cleanReflection(text) !== "");
  const callEventId = context.newId();
  const summaryEventId = context.newId();
  const callId = asCallId(context.newId());
  const after = [{ id: summaryEventId, text: cleanReflection(response.text), trial: null }];
  return [
    callEnd(callEventId, callId, request, response, trial, null),
    draft(
      "memory-summary",
      {
        trial,
        before: state.memory,
        after,
        callId,
        tokenBudget: management.tokenBudget,
        beforeTokens: memoryTokens(modelId, state.memory),
        afterTokens: memoryTokens(modelId, after),
      },
      { id: summaryEventId, causedBy: callEventId },
    ),
  ];
}
