"use client";

import { useQuery } from "@tanstack/react-query";
import dynamic from "next/dynamic";
import { useId, useState, type ReactNode } from "react";
import type { RunStatus } from "@/lib/domain/api";
import type { ModelSettings, PromptTemplate } from "@/lib/domain/config";
import type { RunState } from "@/lib/domain/fold-run";
import { codeNextAction } from "@/lib/graph";
import { environmentsQuery, modelsQuery, useEditRun } from "@/lib/query";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Notice } from "@/components/ui/notice";
import { isRecordedBranch, ReadOnlyNote } from "@/components/provenance";
import { ActionText } from "./action-text";
import { checkTemplateText, placeholdersOf } from "@/lib/domain/template-check";
import { allowedActions, isTerminalStatus } from "@/lib/domain/status";
import { EditError, useDraft, useEditBase } from "./stale-edit";
import { UnknownPlaceholderWarning } from "./unknown-placeholder-warning";
import { SaveAsVersionToggle, type SaveAsVersion } from "@/components/templates/save-as-version-toggle";
import { modelOptionLabel } from "@/lib/domain/model-id";
import { familyDescriptor } from "@/lib/environments/descriptors";

const MonacoPromptEditor = dynamic(() => import("@/components/inspector/monaco-prompt-editor"), {
  ssr: false,
  loading: () => <p className="p-3 text-xs text-slate-500">Loading editor…</p>,
});

type Role = "actor" | "reflector";
const ROLE_LABEL: Record<Role, string> = { actor: "Actor", reflector: "Self-Reflection" };

const inputClass =
  "block w-full rounded-md border border-slate-300 bg-white px-2 py-1 text-xs text-slate-900 focus:border-sky-600 focus:outline-none focus:ring-1 focus:ring-sky-600 disabled:bg-slate-100 disabled:text-slate-500";

// One scan for every door (lib/domain/template-check.ts); re-exported for the components that read it here.
export { placeholdersOf };

function PanelSection({ title, children, right, testId }: { title: string; children: ReactNode; right?: ReactNode; testId?: string }) {
  return (
    <section className="space-y-2" data-testid={testId}>
      <div className="flex items-center justify-between gap-2">
        <h3 className="text-[11px] font-semibold uppercase tracking-wide text-slate-500">{title}</h3>
        {right}
      </div>
      {children}
    </section>
  );
}

/** The Actor's next action written by a person: that step makes no model call. */
function NextActionForm({ runId, branch, state, paused }: { runId: string; branch: string | null; state: RunState; paused: boolean }) {
  const [text, setText] = useState("");
  const base = useEditBase(state.lastSeq, text.trim().length > 0);
  const edit = useEditRun(runId, branch, base.baseSeq);
  const id = useId();
  const pending = state.pendingAction;
  const environment = state.config?.environment;
  const step = environment ? familyDescriptor(environment).step : null;
  const example = step?.example ?? "Search[Port Averly]";
  // Code actions are whole programs (or, in trial 1 step 1, the internal tests): a multi-line editor.
  const isCode = step?.actionIsCode ?? false;
  const next = codeNextAction(state);
  return (
    <PanelSection title="The Actor's next action">
      {pending ? (
        <div data-testid="pending-action" data-trial={pending.trial} data-step={pending.step} className="rounded-md border border-sky-300 bg-sky-50 px-2.5 py-1.5 text-xs text-sky-950">
          Waiting to be used — trial {pending.trial}, step {pending.step}
          {isCode ? ` (${pending.trial === 1 && pending.step === 1 ? "the internal tests" : "the program"})` : null}:{" "}
          <ActionText text={pending.text} code={isCode} testId="pending-action-text" />
          <span className="mt-0.5 block text-[11px] text-sky-800">
            {isCode
              ? "The Actor makes no model call for that step; the sandbox runs this code like the model's."
              : "The Actor makes no model call for that step; the environment answers this action."}
          </span>
        </div>
      ) : null}
      {paused ? (
        <form
          className="space-y-1.5"
          onSubmit={(event) => {
            event.preventDefault();
            // Code keeps its indentation; only surrounding blank lines go.
            edit.mutate({ kind: "action", text: isCode ? text.replace(/^\s*\n|\s+$/g, "") : text.trim() }, { onSuccess: () => setText("") });
          }}
        >
          <label htmlFor={id} className="block text-xs text-slate-700">
            {next
              ? next.kind === "tests"
                ? `Write what the Actor submits next (trial ${next.trial}, step ${next.step}): the internal tests, one assert per line; the first five that parse are kept, like the model's:`
                : `Write what the Actor submits next (trial ${next.trial}, step ${next.step}): the whole program; it runs against the internal tests in the sandbox like the model's:`
              : "Write the action the Actor takes next (a correct step, or a wrong one to see how it recovers):"}
          </label>
          <div className={isCode ? "space-y-2" : "flex gap-2"}>
            {isCode ? (
              <textarea
                id={id}
                data-testid="inject-action"
                value={text}
                rows={8}
                spellCheck={false}
                onChange={(event) => setText(event.target.value)}
                placeholder={next?.placeholder ?? "def solve(...):\n    ..."}
                data-next-kind={next?.kind}
                className={`${inputClass} font-mono`}
              />
            ) : (
              <input
                id={id}
                data-testid="inject-action"
                value={text}
                onChange={(event) => setText(event.target.value)}
                placeholder={`e.g. ${example}`}
                className={`${inputClass} font-mono`}
              />
            )}
            <Button
              type="submit"
              size="sm"
              variant="primary"
              className="flex-none whitespace-nowrap"
              disabled={text.trim().length === 0 || edit.isPending}
              data-testid="inject-action-submit"
            >
              {edit.isPending ? "Saving…" : pending ? "Replace" : "Use next"}
            </Button>
          </div>
          <EditError edit={edit} lastSeq={state.lastSeq} rebase={base.rebase} onReload={() => setText("")} />
        </form>
      ) : !pending ? (
        <p className="text-xs text-slate-500">Pause the run (or stop at a breakpoint) to write the Actor&apos;s next action yourself.</p>
      ) : null}
    </PanelSection>
  );
}

/** A role's prompt template in Monaco: editable while paused, saved as a `prompt` edit (a new template version). */
function PromptTemplateEditor({
  runId,
  branch,
  role,
  template,
  original,
  environment,
  paused,
  lastSeq,
}: {
  runId: string;
  branch: string | null;
  role: Role;
  template: PromptTemplate;
  original: PromptTemplate | undefined;
  environment: string | undefined;
  paused: boolean;
  lastSeq: number;
}) {
  const { draft, setDraft, dirty, reload } = useDraft(template.text);
  // Bumped by Reset and Reload: the editable Monaco is uncontrolled, so it is remounted with the saved text.
  const [generation, setGeneration] = useState(0);
  const base = useEditBase(lastSeq, dirty);
  const edit = useEditRun(runId, branch, base.baseSeq);
  const [saveAsVersion, setSaveAsVersion] = useState<SaveAsVersion>(null);
  const expected = placeholdersOf(original?.text ?? template.text);
  const used = placeholdersOf(draft);
  const present = new Set(used);
  const missing = expected.filter((name) => !present.has(name));
  // The names the engine fills for this family and role; anything else stays literal text.
  const family = useQuery(environmentsQuery()).data?.environments.find((option) => option.id === environment);
  const known = family?.templateVariables[role];
  // The server refuses what the template check flags (lib/domain/template-check.ts) unless saved with allowUnknown.
  const problems = known && known.length > 0 ? checkTemplateText(draft, { known, required: family?.requiredTemplateVariables?.[role] ?? [] }) : null;
  const flagged = problems !== null && (problems.unknown.length > 0 || problems.missing.length > 0);
  const reloadDraft = () => {
    reload();
    setGeneration((count) => count + 1);
  };
  return (
    <div className="space-y-1.5" data-testid={`prompt-template-${role}`}>
      <div className="flex flex-wrap items-center justify-between gap-2 text-xs">
        <span className="font-medium text-slate-800">{ROLE_LABEL[role]} template</span>
        <span className="text-[11px] text-slate-500">
          <code className="font-mono">{template.id}</code> v{template.version}
          {original && template.version !== original.version ? <Badge tone="amber" className="ml-1">edited</Badge> : null}
        </span>
      </div>
      <div data-testid={`prompt-editor-${role}`} data-dirty={dirty} className="h-64 resize-y overflow-hidden rounded-md border border-slate-200 bg-white">
        <MonacoPromptEditor
          key={`${paused ? "edit" : "view"}:${generation}`}
          value={draft}
          height="100%"
          onChange={paused ? setDraft : undefined}
          ariaLabel={`${ROLE_LABEL[role]} prompt template`}
        />
      </div>
      <p className="text-[11px] leading-snug text-slate-500">
        The original template uses these <code className="font-mono">{"{placeholders}"}</code>, filled by the engine:{" "}
        {expected.map((name) => (
          <code key={name} className="mr-1 font-mono">{`{${name}}`}</code>
        ))}
      </p>
      {missing.length > 0 ? (
        <Notice tone="warning" data-testid={`prompt-placeholder-warning-${role}`} className="text-xs">
          This text drops {missing.map((name) => `{${name}}`).join(", ")}.
          {missing.includes("memory") ? " Without {memory} the Actor never sees its reflections." : ""}
        </Notice>
      ) : null}
      <UnknownPlaceholderWarning placeholders={used} known={known} />
      <EditError edit={edit} lastSeq={lastSeq} rebase={base.rebase} onReload={reloadDraft} />
      {edit.isSuccess && !dirty ? (
        <p className="text-[11px] text-green-700">
          Saved as v{template.version}; the next {ROLE_LABEL[role]} call uses it.{template.versionId ? ` Library version ${template.versionId}.` : ""}
        </p>
      ) : null}
      {paused ? <SaveAsVersionToggle role={role} value={saveAsVersion} onChange={setSaveAsVersion} disabled={edit.isPending} /> : null}
      {paused ? (
        <div className="flex gap-2">
          <Button
            size="sm"
            variant="primary"
            disabled={!dirty || draft.trim().length === 0 || edit.isPending}
            onClick={() => edit.mutate({ kind: "prompt", role, text: draft, ...(flagged ? { allowUnknown: true } : {}), ...(saveAsVersion ? { saveAsVersion } : {}) })}
            data-testid={`prompt-save-${role}`}
            title={flagged ? "Save with the placeholders flagged above (they reach the model as they are)" : undefined}
          >
            {edit.isPending ? "Saving…" : flagged ? "Save anyway" : "Save template"}
          </Button>
          <Button
            size="sm"
            variant="ghost"
            disabled={!dirty || edit.isPending}
            onClick={reloadDraft}
            data-testid={`prompt-reset-${role}`}
          >
            Reset
          </Button>
        </div>
      ) : null}
    </div>
  );
}

/** A role's model and sampling settings, saved as a `model` edit (from the next call of that role on). */
function ModelSettingsForm({ runId, branch, role, settings, paused, lastSeq }: { runId: string; branch: string | null; role: Role; settings: ModelSettings; paused: boolean; lastSeq: number }) {
  const models = useQuery(modelsQuery());
  const [modelId, setModelId] = useState(settings.modelId);
  const [temperature, setTemperature] = useState(String(settings.temperature));
  const [maxTokens, setMaxTokens] = useState(String(settings.maxOutputTokens));
  const id = useId();
  const temperatureNumber = Number(temperature);
  const maxTokensNumber = Number(maxTokens);
  const valid =
    temperature.trim() !== "" &&
    Number.isFinite(temperatureNumber) &&
    temperatureNumber >= 0 &&
    temperatureNumber <= 2 &&
    Number.isInteger(maxTokensNumber) &&
    maxTokensNumber >= 1 &&
    maxTokensNumber <= 8192;
  const dirty = modelId !== settings.modelId || temperatureNumber !== settings.temperature || maxTokensNumber !== settings.maxOutputTokens;
  const base = useEditBase(lastSeq, dirty);
  const edit = useEditRun(runId, branch, base.baseSeq);
  const reload = () => {
    setModelId(settings.modelId);
    setTemperature(String(settings.temperature));
    setMaxTokens(String(settings.maxOutputTokens));
  };
  const options = models.data?.models ?? [];
  const known = options.some((option) => option.id === modelId);
  return (
    <form
      data-testid={`model-settings-${role}`}
      className="space-y-1.5 rounded-md border border-slate-200 p-2"
      onSubmit={(event) => {
        event.preventDefault();
        edit.mutate({ kind: "model", role, modelId, temperature: temperatureNumber, maxOutputTokens: maxTokensNumber });
      }}
    >
      <p className="text-xs font-medium text-slate-800">{ROLE_LABEL[role]}</p>
      <div className="grid grid-cols-[1fr_5rem_6rem] gap-2">
        <label className="space-y-0.5 text-[11px] text-slate-600" htmlFor={`${id}-model`}>
          <span>Model</span>
          <select id={`${id}-model`} data-testid={`model-id-${role}`} value={modelId} disabled={!paused} onChange={(event) => setModelId(event.target.value)} className={inputClass}>
            {!known ? <option value={modelId}>{modelId}</option> : null}
            {options.map((option) => (
              <option key={option.id} value={option.id}>
                {modelOptionLabel(option)}
              </option>
            ))}
          </select>
        </label>
        <label className="space-y-0.5 text-[11px] text-slate-600" htmlFor={`${id}-temperature`}>
          <span>Temperature</span>
          <input
            id={`${id}-temperature`}
            data-testid={`temperature-${role}`}
            type="number"
            min={0}
            max={2}
            step={0.1}
            value={temperature}
            disabled={!paused}
            onChange={(event) => setTemperature(event.target.value)}
            className={inputClass}
          />
        </label>
        <label className="space-y-0.5 text-[11px] text-slate-600" htmlFor={`${id}-tokens`}>
          <span>Max tokens</span>
          <input
            id={`${id}-tokens`}
            data-testid={`max-tokens-${role}`}
            type="number"
            min={1}
            max={8192}
            step={1}
            value={maxTokens}
            disabled={!paused}
            onChange={(event) => setMaxTokens(event.target.value)}
            className={inputClass}
          />
        </label>
      </div>
      {!valid ? <p className="text-[11px] text-red-700">Temperature is 0–2; max tokens a whole number from 1 to 8192.</p> : null}
      <EditError edit={edit} lastSeq={lastSeq} rebase={base.rebase} onReload={reload} />
      {edit.isSuccess && !dirty ? <p className="text-[11px] text-green-700">Saved; the next {ROLE_LABEL[role]} call uses it.</p> : null}
      {paused ? (
        <Button type="submit" size="sm" variant="primary" disabled={!dirty || !valid || edit.isPending} data-testid={`model-save-${role}`}>
          {edit.isPending ? "Saving…" : "Save model settings"}
        </Button>
      ) : null}
    </form>
  );
}

/**
 * Steering edits of the branch shown, all recorded as edit events while it is
 * paused: the Actor's next action, each role's prompt template (Monaco) and
 * each role's model settings. While it runs the same things are shown read-only.
 */
export function SteerPanel({ runId, branch, state, status }: { runId: string; branch: string | null; state: RunState; status: RunStatus | null }) {
  // A branch recorded by the authors (imported) is never edited: fork it to continue live.
  const recordedProvenance = isRecordedBranch(state.config?.provenance, state.fork, branch) ? (state.config?.provenance ?? null) : null;
  // Edits are offered exactly when the server takes them (lib/domain/status.ts).
  const paused = status !== null && allowedActions(status).edit && recordedProvenance === null;
  // The templates and models in force (`RunState.config`: the prompt and model edits applied).
  const templates = state.config?.templates ?? null;
  const models = state.config?.models ?? null;
  const finished = status !== null && isTerminalStatus(status);
  return (
    <section data-testid="steer-panel" aria-label="Steer the run" className="space-y-5 px-4 py-3">
      <div className="space-y-1">
        <h2 className="text-sm font-semibold text-slate-900">Steer</h2>
        <p className="text-xs text-slate-600">
          {paused
            ? "The run is paused: change what happens next, then Resume or Step. Every change is appended to the log with its old value."
            : finished
              ? "This branch has finished. Fork it from a checkpoint to try other settings."
              : "Pause the run (or set a breakpoint) to change the next action, the prompts or the models."}
        </p>
      </div>
      {recordedProvenance ? <ReadOnlyNote provenance={recordedProvenance} /> : null}
      {!finished && recordedProvenance === null ? <NextActionForm runId={runId} branch={branch} state={state} paused={paused} /> : null}
      {models ? (
        <PanelSection title="Models">
          {(["actor", "reflector"] as const).map((role) => (
            <ModelSettingsForm
              key={`${role}:${models[role].modelId}:${models[role].temperature}:${models[role].maxOutputTokens}`}
              runId={runId}
              branch={branch}
              role={role}
              settings={models[role]}
              paused={paused}
              lastSeq={state.lastSeq}
            />
          ))}
        </PanelSection>
      ) : null}
      {templates ? (
        <PanelSection title="Prompt templates">
          {(["actor", "reflector"] as const).map((role) => (
            <PromptTemplateEditor
              key={`${role}:${templates[role].id}`}
              runId={runId}
              branch={branch}
              role={role}
              template={templates[role]}
              original={state.startConfig?.templates[role]}
              environment={state.config?.environment}
              paused={paused}
              lastSeq={state.lastSeq}
            />
          ))}
        </PanelSection>
      ) : null}
    </section>
  );
}
