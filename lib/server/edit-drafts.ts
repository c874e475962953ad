import type { EditRequest } from "@/lib/domain/api";
import { AppError } from "@/lib/domain/errors";
import { draft, type EventDraft } from "@/lib/domain/events";
import type { RunState } from "@/lib/domain/fold-run";
import { asEventId } from "@/lib/domain/ids";
import { nextActorStep } from "@/lib/domain/next-step";

/**
 * The edit events for one edit request against a folded state: a reflection's
 * new text, the whole memory, a role's template or model settings (against the
 * effective config, `RunState.effectiveConfig`), or the Actor's next action
 * (placed by `nextActorStep`, lib/domain/next-step.ts). Nothing for an edit
 * that changes nothing.
 * @throws AppError("not-found") for an unknown reflection.
 */
export function editDrafts(state: RunState, request: EditRequest): EventDraft[] {
  const note = request.note ?? null;
  switch (request.kind) {
    case "reflection": {
      const reflection = state.trials.map((trial) => trial.reflection).find((r) => r?.eventId === request.reflectionEventId);
      if (!reflection) throw new AppError("not-found", `No reflection ${request.reflectionEventId} at this point of the run.`);
      if (reflection.text === request.text) return [];
      return [draft("reflection-edit", { reflectionEventId: asEventId(reflection.eventId), oldText: reflection.text, newText: request.text, note })];
    }
    case "memory":
      if (JSON.stringify(state.memory) === JSON.stringify(request.memory)) return [];
      return [draft("memory-edit", { oldMemory: state.memory, newMemory: request.memory, note })];
    case "prompt": {
      const old = state.effectiveConfig?.templates[request.role];
      if (!old) throw new AppError("conflict", "The run has no templates yet.");
      if (old.text === request.text && (request.versionId === undefined || request.versionId === old.versionId)) return [];
      // `versionId`: the library version the text is, set by TemplateService.resolvePromptEdit (issue 14); else none.
      const newTemplate = { id: old.id, version: old.version + 1, text: request.text, versionId: request.versionId ?? null };
      return [draft("prompt-edit", { role: request.role, oldTemplate: old, newTemplate, note })];
    }
    case "model": {
      const old = state.effectiveConfig?.models[request.role];
      if (!old) throw new AppError("conflict", "The run has no model settings yet.");
      const newValue = {
        modelId: request.modelId ?? old.modelId,
        temperature: request.temperature ?? old.temperature,
        maxOutputTokens: request.maxOutputTokens ?? old.maxOutputTokens,
      };
      if (JSON.stringify(newValue) === JSON.stringify(old)) return [];
      return [draft("settings-edit", { target: "model", role: request.role, oldValue: old, newValue, note })];
    }
    case "action": {
      const { trial, step } = nextActorStep(state);
      return [draft("action-edit", { trial, step, text: request.text, note })];
    }
  }
}
