"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useId, useRef, useState } from "react";
import type { EditRequest } from "@/lib/domain/api";
import type { ForkOutlook } from "@/lib/domain/fork-outlook";
import type { Provenance } from "@/lib/domain/provenance";
import { forkEndsExplanation, type ForkPoint } from "@/lib/graph";
import { modelsQuery, useForkRun } from "@/lib/query";
import { Button } from "@/components/ui/button";
import { Notice } from "@/components/ui/notice";
import { useDialogFocus } from "@/components/ui/use-dialog-focus";
import { ForkTemplateChoiceFields, hasTemplateChoice, templateEditsOf, type ForkTemplateChoice } from "@/components/templates/fork-template-choice";
import { DEMO_MODEL_ID, modelOptionLabel } from "@/lib/domain/model-id";

/** What the dialog forks: the checkpoint after a trial's evaluation or reflection, and that reflection if there is one. */
export interface ForkTarget {
  /** The node the user forked from. */
  nodeKind: "evaluation" | "reflection";
  point: ForkPoint;
  /** The trial's reflection as the fork will see it (`textAtFork`) and as the page shows it now (`currentText`); null before the reflection. */
  reflection: { eventId: string; textAtFork: string; currentText: string } | null;
  /** After an evaluation: what the new branch does next (null after a reflection, or when unknown). */
  outlook?: ForkOutlook | null;
}

/** A model edit for both roles: the fork of an imported run calls this model instead of the logged one. */
export function modelEditsFor(modelId: string): EditRequest[] {
  return [
    { kind: "model", role: "actor", modelId },
    { kind: "model", role: "reflector", modelId },
  ];
}

/** What the new branch does after a fork at an evaluation with no reflection yet, in words. */
function afterEvaluationText(trial: number, outlook: ForkOutlook | null, replay: "recorded" | "live"): string {
  const how = replay === "recorded" ? "from the cache when its prompt is unchanged" : "with a new model call";
  if (outlook?.kind === "ends") return forkEndsExplanation(outlook, trial) ?? "";
  if (outlook?.kind === "next-trial") {
    return `This strategy writes no reflection: the new branch starts trial ${trial + 1} right away (${how}).`;
  }
  return `This point is before trial ${trial}'s Self-Reflection: the new branch writes it again (${how}).`;
}

/**
 * Forks the branch shown at a checkpoint: replay mode (recorded: unchanged
 * model calls come from the cache; live: every call goes to the model) and,
 * when the fork point follows a reflection, that reflection's text for the
 * new branch. A changed text is sent as a `reflection` edit with the fork.
 */
export function ForkDialog({
  runId,
  fromBranchId,
  target,
  onClose,
  onForked,
  provenance = null,
}: {
  runId: string;
  fromBranchId: string | null;
  target: ForkTarget;
  /** Set when the run was imported from the authors' logs: the fork then picks the model (the logged one, e.g. text-davinci-003, is not callable here). */
  provenance?: Provenance | null;
  onClose: () => void;
  onForked: (branchId: string) => void;
}) {
  const fork = useForkRun(runId);
  const client = useQueryClient();
  // "Same checkpoint, template B": library versions for the new branch (prompt edits right after the fork).
  const [templates, setTemplates] = useState<ForkTemplateChoice>({});
  const [templateError, setTemplateError] = useState<string | null>(null);
  const [replay, setReplay] = useState<"recorded" | "live">("recorded");
  const [text, setText] = useState(target.reflection?.currentText ?? "");
  const models = useQuery({ ...modelsQuery(), enabled: provenance !== null });
  const [modelId, setModelId] = useState(DEMO_MODEL_ID);
  const titleId = useId();
  const firstField = useRef<HTMLInputElement>(null);
  const dialogRef = useRef<HTMLFormElement>(null);
  useDialogFocus(dialogRef);
  const trial = target.point.trial;
  const reflection = target.reflection;
  const trimmed = text.trim();
  const edited = reflection !== null && trimmed !== reflection.textAtFork.trim();
  const invalid = reflection !== null && trimmed.length === 0;
  // Nothing left to run after this checkpoint: the branch would end exactly as this one did.
  const pointless = reflection === null && target.outlook?.kind === "ends";

  useEffect(() => {
    firstField.current?.focus();
  }, []);
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === "Escape" && !fork.isPending) onClose();
    };
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, [onClose, fork.isPending]);

  const submit = async () => {
    const edits: EditRequest[] = edited && reflection ? [{ kind: "reflection", reflectionEventId: reflection.eventId, text: trimmed }] : [];
    if (provenance) edits.push(...modelEditsFor(modelId));
    setTemplateError(null);
    try {
      edits.push(...(await templateEditsOf(client, templates)));
    } catch (error) {
      setTemplateError(`Could not load the picked template version: ${error instanceof Error ? error.message : String(error)} Pick another one, or keep the branch's template.`);
      return;
    }
    fork.mutate(
      { atSeq: target.point.atSeq, fromBranchId, replay, edits: edits.length > 0 ? edits : undefined },
      { onSuccess: ({ branchId }) => onForked(branchId) },
    );
  };

  return (
    <div className="fixed inset-0 z-50 flex items-center justify-center bg-slate-900/40 p-4" onPointerDown={(event) => event.target === event.currentTarget && !fork.isPending && onClose()}>
      <form
        ref={dialogRef}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        data-testid="fork-dialog"
        data-at-seq={target.point.atSeq}
        className="nokey w-full max-w-lg space-y-3 rounded-xl border border-slate-200 bg-white p-4 text-sm shadow-xl"
        onSubmit={(event) => {
          event.preventDefault();
          if (!invalid && !pointless && !fork.isPending) void submit();
        }}
      >
        <div>
          <h2 id={titleId} className="text-base font-semibold text-slate-900">
            Fork after trial {trial}&apos;s {target.nodeKind === "reflection" ? "reflection" : "evaluation"}
          </h2>
          <p className="mt-0.5 text-xs text-slate-600">
            A new branch shares everything up to checkpoint seq {target.point.atSeq} with this one, then runs on by itself. This branch is not changed.
          </p>
        </div>

        <fieldset className="space-y-1.5">
          <legend className="text-xs font-medium text-slate-700">Model calls on the new branch</legend>
          <label className="flex items-start gap-2 text-xs">
            <input ref={firstField} type="radio" name="replay" value="recorded" checked={replay === "recorded"} onChange={() => setReplay("recorded")} data-testid="fork-replay-recorded" className="mt-0.5" />
            <span>
              <strong>Recorded</strong> — a call whose prompt and settings are unchanged is served from the cache (no cost); only changed prompts reach the model.
            </span>
          </label>
          <label className="flex items-start gap-2 text-xs">
            <input type="radio" name="replay" value="live" checked={replay === "live"} onChange={() => setReplay("live")} data-testid="fork-replay-live" className="mt-0.5" />
            <span>
              <strong>Live</strong> — every call goes to the model again (new samples, new cost).
            </span>
          </label>
        </fieldset>

        {provenance ? (
          <div className="space-y-1" data-testid="fork-model-choice">
            <label htmlFor={`${titleId}-model`} className="block text-xs font-medium text-slate-700">
              Model on the new branch (Actor and Self-Reflection)
            </label>
            <select
              id={`${titleId}-model`}
              data-testid="fork-model"
              value={modelId}
              onChange={(event) => setModelId(event.target.value)}
              className="block w-full rounded-md border border-slate-300 bg-white px-2 py-1 text-xs text-slate-900 focus:border-sky-600 focus:outline-none focus:ring-1 focus:ring-sky-600"
            >
              {(models.data?.models ?? [{ id: DEMO_MODEL_ID, label: "Demo", scripted: true }]).map((model) => (
                <option key={model.id} value={model.id}>
                  {modelOptionLabel(model)}
                </option>
              ))}
            </select>
            <p className="text-[11px] text-slate-500">
              {provenance.kind === "bundle" ? "The bundle's run used" : provenance.kind === "external-trace" ? "The trace recorded" : "The authors logged"} {provenance.model}; this app calls the model picked here instead. The demo model is a scripted offline stand-in, free and always available.
            </p>
            {models.error ? <p className="text-[11px] text-red-700">Could not load the models list: {models.error.message}</p> : null}
          </div>
        ) : null}

        {reflection ? (
          <div className="space-y-1">
            <label htmlFor={`${titleId}-text`} className="block text-xs font-medium text-slate-700">
              Trial {trial}&apos;s reflection on the new branch
            </label>
            <textarea
              id={`${titleId}-text`}
              data-testid="fork-reflection-text"
              value={text}
              onChange={(event) => setText(event.target.value)}
              rows={6}
              className="block w-full resize-y rounded-md border border-slate-300 bg-white px-2 py-1.5 text-xs leading-snug text-slate-900 focus:border-sky-600 focus:outline-none focus:ring-1 focus:ring-sky-600"
            />
            <p className="text-[11px] text-slate-500" data-testid="fork-edit-state" data-edited={edited}>
              {invalid
                ? "A reflection cannot be empty."
                : edited
                  ? "Changed: the new branch starts with this text (a reflection edit right after the fork)."
                  : "Unchanged: the new branch keeps the reflection as it was at the checkpoint."}
              {reflection.currentText.trim() !== reflection.textAtFork.trim() ? " (Prefilled with this branch's edited text; the checkpoint has the text from before that edit.)" : null}
            </p>
          </div>
        ) : (
          <p className="text-xs text-slate-600" data-testid="fork-outlook" data-outlook={target.outlook?.kind ?? "reflects"}>
            {afterEvaluationText(trial, target.outlook ?? null, replay)}
          </p>
        )}

        {!pointless ? <ForkTemplateChoiceFields runId={runId} value={templates} onChange={setTemplates} /> : null}

        {templateError ? <Notice tone="error">{templateError}</Notice> : null}
        {fork.error ? <Notice tone="error">{fork.error.message}</Notice> : null}

        <div className="flex justify-end gap-2">
          <Button variant="ghost" onClick={onClose} disabled={fork.isPending} data-testid="fork-cancel">
            Cancel
          </Button>
          <Button
            type="submit"
            variant="primary"
            disabled={invalid || pointless || fork.isPending}
            title={pointless ? "This branch would end exactly as the current one: nothing is left to run after this checkpoint." : undefined}
            data-testid="fork-submit"
          >
            {fork.isPending ? "Forking…" : hasTemplateChoice(templates) ? (edited ? "Fork with this reflection and template" : "Fork with this template") : edited ? "Fork with this reflection" : "Fork"}
          </Button>
        </div>
      </form>
    </div>
  );
}
