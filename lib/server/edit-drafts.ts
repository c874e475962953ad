import { strategyBehaviour } from "@/lib/domain/strategies";
import type { EditRequest } from "@/lib/domain/api";
import { AppError } from "@/lib/domain/errors";
import { draft, type EventDraft, type RunEvent } from "@/lib/domain/events";
import type { RunState } from "@/lib/domain/fold-run";
import { asEventId } from "@/lib/domain/ids";
import { nextActorStep } from "@/lib/domain/next-step";

/**
 * The edit events for one edit request against a folded state: a reflection's
 * new text, the whole memory, a role's template or model settings (against the
 * effective config, `RunState.config`), or the Actor's next action
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
      const old = state.config?.templates[request.role];
      if (!old) throw new AppError("conflict", "The run has no templates yet.");
      if (old.text === request.text && (request.versionId === undefined || request.versionId === old.versionId)) return [];
      // `versionId`: the library version the text is, set by TemplateService.resolvePromptEdit; else none.
      const newTemplate = { id: old.id, version: old.version + 1, text: request.text, versionId: request.versionId ?? null };
      return [draft("prompt-edit", { role: request.role, oldTemplate: old, newTemplate, note })];
    }
    case "model": {
      const old = state.config?.models[request.role];
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
    case "tree-focus": {
      const tree = state.tree;
      if (!tree) {
        const isTreeSearch = state.config !== null && strategyBehaviour(state.config.strategy).treeSearch;
        throw new AppError(
          "invalid-input",
          isTreeSearch
            ? "This point of the run has no search tree yet (trial 1 makes the first selection): fork from a checkpoint after trial 1 to focus on one of its nodes."
            : "Only a tree-search run (strategy lats) has a search tree to focus on.",
        );
      }
      if (!tree.nodes.has(request.node)) {
        const known = tree.order.slice(0, 12).join(", ");
        throw new AppError("not-found", `No search-tree node "${request.node}" at this point of the run. Nodes here: ${known}${tree.order.length > 12 ? ", …" : ""}.`);
      }
      if (tree.focus === request.node) return [];
      return [draft("tree-focus", { node: request.node, note })];
    }
  }
}

const ROLE_NAME = { actor: "Actor", reflector: "Self-Reflection" } as const;

/** One line for an event that landed after an editor's base (what another client changed). */
export function describeChange(event: RunEvent): string {
  switch (event.type) {
    case "reflection-edit":
      return `seq ${event.seq}: a reflection was edited (now "${clip(event.data.newText)}")`;
    case "memory-edit":
      return `seq ${event.seq}: the memory was edited (${event.data.oldMemory.length} → ${event.data.newMemory.length} items)`;
    case "prompt-edit":
      return `seq ${event.seq}: the ${ROLE_NAME[event.data.role]} template was edited (v${event.data.oldTemplate.version} → v${event.data.newTemplate.version})`;
    case "settings-edit":
      return event.data.target === "model"
        ? `seq ${event.seq}: the ${ROLE_NAME[event.data.role]} model settings were edited (${event.data.oldValue.modelId} → ${event.data.newValue.modelId}, temperature ${event.data.newValue.temperature})`
        : `seq ${event.seq}: the breakpoints were changed`;
    case "tree-focus":
      return `seq ${event.seq}: the search was focused on tree node ${event.data.node}`;
    case "action-edit":
      return `seq ${event.seq}: the Actor's next action was written (trial ${event.data.trial}, step ${event.data.step}: "${clip(event.data.text)}")`;
    default:
      return `seq ${event.seq}: ${event.type}`;
  }
}

function clip(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}

/**
 * The 409 message for an edit made against `baseSeq` when `since` (the events after it) exist:
 * what changed (at most 10 lines, then a count) and what to do.
 */
export function staleEditMessage(since: readonly RunEvent[], baseSeq: number): string {
  const lines = since.slice(0, 10).map(describeChange);
  if (since.length > 10) lines.push(`and ${since.length - 10} more events`);
  const last = since.at(-1)?.seq ?? baseSeq;
  return `The run changed after your edit was started (it was made against seq ${baseSeq}; the run is at seq ${last}): ${lines.join("; ")}. Reload to see the current values, then re-apply your edit.`;
}
