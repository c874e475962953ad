// Over 400 lines: one controlled form whose fields check each other (family, task, strategy, model, Ω,
// templates, breakpoints, budget); its pure rules live in lib/domain and lib/query.
"use client";

// Over 400 lines: the one form that sets up a run (family, task, strategy, model per role, budget and
// memory); each group of fields is its own component, this file wires them to one request.

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useEffect, useId, useMemo, useState } from "react";
import { RunExtrasFields, runExtrasRequest, type RunExtrasDrafts } from "@/components/costs/run-extras-fields";
import { environmentIdSchema, MAX_MEMORY_WINDOW, MAX_REFINE_ROUNDS, strategySchema, type EnvironmentId, type Strategy } from "@/lib/domain/config";
import { refineRoundsOf } from "@/lib/domain/self-refine";
import { parseMemoryWindowText } from "@/lib/domain/memory-window";
import { fixedLimitsOf, memoryWindowApplies, strategyBehaviour } from "@/lib/domain/strategies";
import { strategyHint, strategyLabel } from "@/components/ui/strategy-labels";
import { environmentsQuery, isNotFound, modelsQuery, queryKeys, taskSetsQuery, tasksQuery, useCreateRun } from "@/lib/query";
import { formatShortTime } from "@/components/ui/format";
import { Button } from "@/components/ui/button";
import { Notice } from "@/components/ui/notice";
import { Spinner } from "@/components/ui/spinner";
import { cn } from "@/lib/utils/cn";
import { Field, inputClass } from "./form-field";
import { demoOnImportedWarning, referenceLabel, runIntro } from "./family-texts";
import { UploadTaskSet } from "./upload-task-set";
import { DeleteTaskSet } from "./delete-task-set";
import { TemplateVersionPickers } from "@/components/templates/template-version-picker";
import { templateVersionsRequest } from "@/lib/query/template-picker";
import { RoleModelFields } from "@/components/settings/role-model-fields";
import { formRoles, roleModelsFromDrafts, type RoleModelDrafts } from "@/lib/query/role-models";
import { DEMO_MODEL_NOTE, modelOptionLabel } from "@/lib/domain/model-id";
import { defaultFamilyId, familyDescriptor } from "@/lib/environments/descriptors";

const BUILTIN = "builtin";

/**
 * Start a run: pick a task (built-in, or from a task set imported on the server
 * by any browser or the CLI), a strategy (those the family offers, e.g. ReAct
 * only or Reflexion; Simple or Reflexion for code), a model, the trial and
 * step budgets and the memory window Ω; then go to the run page.
 */
export function NewRunForm() {
  const router = useRouter();
  const models = useQuery(modelsQuery());
  const environments = useQuery(environmentsQuery());
  const [environment, setEnvironment] = useState<EnvironmentId>(defaultFamilyId);
  const family = environments.data?.environments.find((option) => option.id === environment);
  const client = useQueryClient();
  const taskSets = useQuery(taskSetsQuery());
  const importedSets = useMemo(() => (taskSets.data?.taskSets ?? []).filter((set) => set.environment === environment), [taskSets.data, environment]);
  const [chosenTaskSet, setTaskSet] = useState(BUILTIN);
  // A set the server no longer lists falls back to the built-in set (while the list loads, keep the choice).
  const taskSet = chosenTaskSet === BUILTIN || !taskSets.data || importedSets.some((set) => set.id === chosenTaskSet) ? chosenTaskSet : BUILTIN;
  const tasks = useQuery(tasksQuery(environment, taskSet));
  const chosenSet = importedSets.find((set) => set.id === taskSet);
  const [search, setSearch] = useState("");
  const [chosenTaskId, setChosenTaskId] = useState<string | null>(null);
  const [strategy, setStrategy] = useState<Strategy>("reflexion");
  const supportedStrategies: Strategy[] = family?.supportedStrategies ?? ["reflexion", "none"];
  // A strategy the newly chosen family cannot run falls back to Reflexion.
  const effectiveStrategy: Strategy = supportedStrategies.includes(strategy) ? strategy : "reflexion";
  const [chosenModelId, setChosenModelId] = useState<string | null>(null);
  const [maxTrials, setMaxTrials] = useState("5");
  // null: follow the family's default Ω (code: 1, as in the paper; others 3); a string once the user typed.
  const [chosenMemoryWindow, setMemoryWindow] = useState<string | null>(null);
  const familyWindow = family ? family.defaultMemoryWindow : 3;
  const behaviour = strategyBehaviour(effectiveStrategy);
  // What the strategy on this family fixes whatever the form says (the server applies the same rule).
  const fixed = fixedLimitsOf(effectiveStrategy, family ?? {});
  const windowApplies = memoryWindowApplies(effectiveStrategy, family);
  const memoryWindow = fixed.memoryWindow !== null ? String(fixed.memoryWindow) : (chosenMemoryWindow ?? (familyWindow === null ? "" : String(familyWindow)));
  // null: follow the family's default (the field shows it); a string once the user typed.
  const [chosenMaxSteps, setChosenMaxSteps] = useState<string | null>(null);
  // Self-Refine's rounds per trial; empty = the method's default (shown only for a method that refines).
  const [refineRounds, setRefineRounds] = useState("");
  const [pauseAfterReflection, setPauseAfterReflection] = useState(false);
  // Template library versions per role; empty = the family's built-in for the strategy.
  const [templateChoice, setTemplateChoice] = useState<Partial<Record<"actor" | "reflector", string>>>({});
  // A model and settings per role under "Advanced" (empty = the run's model, temperature 0, the family's limits).
  const [roleDrafts, setRoleDrafts] = useState<RoleModelDrafts>({});
  const [extras, setExtras] = useState<RunExtrasDrafts>({});
  const extrasRequest = runExtrasRequest(extras);
  const roleModels = roleModelsFromDrafts(roleDrafts, formRoles(family?.evaluatorUsesModel));
  const createRun = useCreateRun();
  const ids = {
    environment: useId(),
    search: useId(),
    strategy: useId(),
    model: useId(),
    trials: useId(),
    steps: useId(),
    refine: useId(),
    window: useId(),
    taskSet: useId(),
  };

  const allTasks = useMemo(() => tasks.data?.tasks ?? [], [tasks.data]);
  const visibleTasks = useMemo(() => {
    const needle = search.trim().toLowerCase();
    if (!needle) return allTasks;
    return allTasks.filter((task) => task.id.toLowerCase().includes(needle) || task.title.toLowerCase().includes(needle));
  }, [allTasks, search]);
  const taskId = chosenTaskId && allTasks.some((task) => task.id === chosenTaskId) ? chosenTaskId : (allTasks[0]?.id ?? null);
  const selectedTask = allTasks.find((task) => task.id === taskId);
  const modelId = chosenModelId ?? models.data?.defaultModelId ?? models.data?.models[0]?.id ?? null;
  const selectedModel = models.data?.models.find((model) => model.id === modelId);

  const trialsNumber = Number(maxTrials);
  // The server's rule for Ω (1–MAX_MEMORY_WINDOW, or empty for none).
  const windowInput = parseMemoryWindowText(memoryWindow);
  const windowNumber = windowInput.ok ? windowInput.value : null;
  const trialsValid = Number.isInteger(trialsNumber) && trialsNumber >= 1 && trialsNumber <= 50;
  const windowValid = windowInput.ok;
  const fixedSteps = fixed.stepsPerTrial;
  const defaultMaxSteps = fixedSteps ?? family?.defaultMaxStepsPerTrial ?? null;
  const maxSteps = fixedSteps !== null ? String(fixedSteps) : (chosenMaxSteps ?? (defaultMaxSteps === null ? "" : String(defaultMaxSteps)));
  // Empty = the family's default, decided by the server.
  const stepsNumber = maxSteps.trim() === "" ? null : Number(maxSteps);
  const stepsValid = stepsNumber === null || (Number.isInteger(stepsNumber) && stepsNumber >= 1 && stepsNumber <= 100);
  const defaultRefineRounds = refineRoundsOf({ strategy: effectiveStrategy });
  const refines = defaultRefineRounds > 0;
  const refineNumber = !refines || refineRounds.trim() === "" ? null : Number(refineRounds);
  const refineValid = refineNumber === null || (Number.isInteger(refineNumber) && refineNumber >= 1 && refineNumber <= MAX_REFINE_ROUNDS);
  const canStart = taskId !== null && modelId !== null && trialsValid && stepsValid && refineValid && windowValid && roleModels.problem === null && extrasRequest.problem === null && !createRun.isPending;
  const demoOnImportedSet = taskSet !== BUILTIN && selectedModel?.scripted === true;

  // The chosen set vanished from the server (e.g. another database): refresh the list, which drops it.
  const unknownSet = taskSet !== BUILTIN && isNotFound(tasks.error);
  useEffect(() => {
    if (unknownSet) void client.invalidateQueries({ queryKey: queryKeys.taskSets() });
  }, [unknownSet, taskSet, client]);

  return (
    <form
      className="space-y-4"
      aria-label="New run"
      onSubmit={(event) => {
        event.preventDefault();
        if (!canStart || taskId === null || modelId === null) return;
        createRun.mutate(
          {
            environment,
            taskSet,
            taskId,
            strategy: effectiveStrategy,
            modelId,
            maxTrials: trialsNumber,
            ...(stepsNumber === null ? {} : { maxStepsPerTrial: stepsNumber }),
            ...(refineNumber === null ? {} : { refineRounds: refineNumber }),
            memoryWindow: windowNumber,
            breakpoints: { afterReflection: behaviour.reflectsAfterFailure && pauseAfterReflection },
            templateVersions: templateVersionsRequest(templateChoice),
            ...(roleModels.models ? { models: roleModels.models } : {}),
            ...extrasRequest.request,
          },
          { onSuccess: ({ runId }) => router.push(`/runs/${encodeURIComponent(runId)}`) },
        );
      }}
    >
      <p className="-mt-3 text-xs leading-relaxed text-slate-600" data-testid="run-intro" data-environment={environment}>
        {runIntro(environment)}
      </p>
      <Field label="Task family" htmlFor={ids.environment} hint={family ? `Imports: ${family.importFormats}.` : undefined}>
        <select
          id={ids.environment}
          data-testid="environment-select"
          className={inputClass}
          value={environment}
          onChange={(event) => {
            setEnvironment(environmentIdSchema.parse(event.target.value));
            setTaskSet(BUILTIN);
            setChosenMaxSteps(null);
            setChosenTaskId(null);
            setSearch("");
          }}
        >
          {(environments.data?.environments ?? [{ id: defaultFamilyId(), label: familyDescriptor(defaultFamilyId()).label }]).map((option) => (
            <option key={option.id} value={option.id}>
              {option.label}
            </option>
          ))}
        </select>
      </Field>

      <div className="grid grid-cols-[minmax(0,1fr)_auto] items-end gap-x-3 gap-y-1.5">
        <Field
          label="Task set"
          htmlFor={ids.taskSet}
          hint={
            taskSets.error ? (
              <span className="text-red-700">Could not load the imported task sets: {taskSets.error.message}</span>
            ) : chosenSet ? (
              <DeleteTaskSet
                taskSetId={chosenSet.id}
                name={chosenSet.name}
                onDeleted={() => {
                  setTaskSet(BUILTIN);
                  setChosenTaskId(null);
                }}
              />
            ) : undefined
          }
        >
          <select
            id={ids.taskSet}
            data-testid="task-set-select"
            className={inputClass}
            value={taskSet}
            onChange={(event) => {
              setTaskSet(event.target.value);
              setChosenTaskId(null);
            }}
          >
            <option value={BUILTIN}>Built-in (written for this project)</option>
            {importedSets.map((set) => (
              <option key={set.id} value={set.id} data-testid={`task-set-option-${set.id}`}>
                {set.name} ({set.taskCount} {set.taskCount === 1 ? "task" : "tasks"}, {formatShortTime(set.createdAt)})
              </option>
            ))}
            {taskSets.isPending ? (
              <option value="" disabled>
                Loading imported sets…
              </option>
            ) : null}
          </select>
        </Field>
        <UploadTaskSet
          environment={environment}
          formats={family?.importFormats ?? ""}
          onUploaded={(response) => {
            setTaskSet(response.taskSet.id);
            setChosenTaskId(null);
            setSearch("");
          }}
        />
      </div>

      <fieldset className="space-y-1.5">
        <legend className="text-xs font-medium text-slate-700">
          Task <span className="font-normal text-slate-500">({visibleTasks.length === allTasks.length ? allTasks.length : `${visibleTasks.length} of ${allTasks.length}`})</span>
          {tasks.data?.total !== undefined && tasks.data.total > allTasks.length ? (
            <span className="font-normal text-slate-500"> — the first {allTasks.length} of the set&apos;s {tasks.data.total}</span>
          ) : null}
        </legend>
        <input
          id={ids.search}
          type="search"
          placeholder="Filter by id or question…"
          aria-label="Filter tasks by id or question"
          className={inputClass}
          value={search}
          onChange={(event) => setSearch(event.target.value)}
          data-testid="task-search"
        />
        <div role="radiogroup" aria-label="Tasks" data-testid="task-select" className="max-h-64 overflow-y-auto rounded-md border border-slate-200 bg-white">
          {tasks.isPending ? (
            <p className="flex items-center gap-2 p-3 text-xs text-slate-500">
              <Spinner className="size-3" /> Loading tasks…
            </p>
          ) : tasks.error ? (
            <p className="p-3 text-xs text-red-700">{tasks.error.message}</p>
          ) : visibleTasks.length === 0 ? (
            <p className="p-3 text-xs text-slate-500">{allTasks.length === 0 ? "This task set is empty." : "No task matches the filter."}</p>
          ) : (
            <ul className="divide-y divide-slate-100">
              {visibleTasks.map((task) => (
                <li key={task.id}>
                  <label
                    data-testid={`task-option-${task.id}`}
                    data-selected={task.id === taskId || undefined}
                    className={cn(
                      "flex cursor-pointer items-start gap-2.5 px-3 py-2 text-sm hover:bg-slate-50",
                      task.id === taskId && "bg-sky-50 hover:bg-sky-50",
                    )}
                  >
                    <input
                      type="radio"
                      name="task"
                      value={task.id}
                      checked={task.id === taskId}
                      onChange={() => setChosenTaskId(task.id)}
                      className="mt-1 accent-sky-700"
                    />
                    <span className="min-w-0">
                      <span className="block text-slate-900">{task.title}</span>
                      <span className="block font-mono text-[11px] text-slate-500">{task.id}</span>
                    </span>
                  </label>
                </li>
              ))}
            </ul>
          )}
        </div>
        {tasks.data && tasks.data.problems.length > 0 ? (
          <p className="text-[11px] text-amber-800">
            {tasks.data.problems.length} {tasks.data.problems.length === 1 ? "record" : "records"} of this set could not be read and {tasks.data.problems.length === 1 ? "was" : "were"} skipped.
          </p>
        ) : null}
        {selectedTask?.reference ? (
          <details className="text-[11px] text-slate-600">
            <summary className="cursor-pointer select-none">{referenceLabel(environment)}</summary>
            <p className="mt-1 font-mono text-slate-800" data-testid="task-reference">
              {selectedTask.reference}
            </p>
          </details>
        ) : null}
      </fieldset>

      <div className="grid grid-cols-2 gap-3">
        <Field
          label="Strategy"
          htmlFor={ids.strategy}
          hint={strategyHint(effectiveStrategy, environment)}
        >
          <select
            id={ids.strategy}
            data-testid="strategy-select"
            className={inputClass}
            value={effectiveStrategy}
            onChange={(event) => setStrategy(strategySchema.parse(event.target.value))}
          >
            {supportedStrategies.map((option) => (
              <option key={option} value={option}>
                {strategyLabel(option, environment)}
              </option>
            ))}
          </select>
        </Field>
        <Field
          label="Model"
          htmlFor={ids.model}
          hint={
            selectedModel?.scripted ? (
              <span className="text-violet-800">
                Demo model — {DEMO_MODEL_NOTE}. It plays the built-in tasks (fail, reflect, succeed) offline.{" "}
                <span data-testid="demo-speed-hint">
                  Too fast to watch? Replay the run at class speed with the Replay bar on its page, or start the server with{" "}
                  <code className="font-mono">REFLEXION_DEMO_DELAY_MS=800</code> to slow every demo call.
                </span>
              </span>
            ) : models.data && models.data.configuredProviders.length === 0 ? (
              "No provider keys are configured on the server."
            ) : null
          }
        >
          <select
            id={ids.model}
            data-testid="model-select"
            className={inputClass}
            value={modelId ?? ""}
            disabled={!models.data}
            onChange={(event) => setChosenModelId(event.target.value)}
          >
            {!models.data ? <option value="">{models.error ? "Could not load models" : "Loading…"}</option> : null}
            {models.data?.models.map((model) => (
              <option key={model.id} value={model.id}>
                {modelOptionLabel(model)}
              </option>
            ))}
          </select>
        </Field>
      </div>

      <div className="grid grid-cols-3 gap-3">
        <Field label="Max trials" htmlFor={ids.trials} hint={trialsValid ? "The run stops at the first success." : "A whole number from 1 to 50."}>
          <input
            id={ids.trials}
            type="number"
            min={1}
            max={50}
            inputMode="numeric"
            data-testid="max-trials"
            className={cn(inputClass, !trialsValid && "border-red-500")}
            value={maxTrials}
            onChange={(event) => setMaxTrials(event.target.value)}
            aria-invalid={!trialsValid}
          />
        </Field>
        <Field
          label="Max steps per trial"
          htmlFor={ids.steps}
          hint={
            fixedSteps !== null
              ? "Fixed for code tasks: write tests (trial 1), then the implementation."
              : stepsValid
              ? `A trial halts after this many steps${defaultMaxSteps === null ? "" : ` (default ${defaultMaxSteps})`}.`
              : "A whole number from 1 to 100, or empty for the default."
          }
        >
          <input
            id={ids.steps}
            type="number"
            min={1}
            max={100}
            inputMode="numeric"
            data-testid="max-steps-input"
            placeholder={defaultMaxSteps === null ? undefined : String(defaultMaxSteps)}
            className={cn(inputClass, !stepsValid && "border-red-500")}
            value={maxSteps}
            disabled={fixedSteps !== null}
            onChange={(event) => setChosenMaxSteps(event.target.value)}
            aria-invalid={!stepsValid}
          />
        </Field>
        {refines ? (
          <Field
            label="Refine rounds per trial"
            htmlFor={ids.refine}
            hint={refineValid ? `Feedback → refine rounds on the answer before it is judged; stops early on "nothing left to fix" (default ${defaultRefineRounds}).` : `A whole number from 1 to ${MAX_REFINE_ROUNDS}, or empty for the default.`}
          >
            <input
              id={ids.refine}
              type="number"
              min={1}
              max={MAX_REFINE_ROUNDS}
              inputMode="numeric"
              data-testid="refine-rounds-input"
              placeholder={String(defaultRefineRounds)}
              className={cn(inputClass, !refineValid && "border-red-500")}
              value={refineRounds}
              onChange={(event) => setRefineRounds(event.target.value)}
              aria-invalid={!refineValid}
            />
          </Field>
        ) : null}
        <Field label="Memory window Ω" htmlFor={ids.window} hint={windowValid ? "Newest reflections the Actor sees. Empty = all." : `A whole number from 1 to ${MAX_MEMORY_WINDOW}, or empty for all.`}>
          <input
            id={ids.window}
            type="number"
            min={1}
            max={MAX_MEMORY_WINDOW}
            inputMode="numeric"
            data-testid="memory-window-input"
            className={cn(inputClass, !windowValid && "border-red-500")}
            value={memoryWindow}
            disabled={!windowApplies}
            onChange={(event) => setMemoryWindow(event.target.value)}
            aria-invalid={!windowValid}
          />
        </Field>
      </div>

      <RoleModelFields roles={formRoles(family?.evaluatorUsesModel)} models={models.data} value={roleDrafts} onChange={setRoleDrafts} inputClass={inputClass} />
      {roleModels.problem ? <Notice tone="error">{roleModels.problem}</Notice> : null}

      <TemplateVersionPickers family={environment} strategy={effectiveStrategy} value={templateChoice} onChange={setTemplateChoice} inputClass={inputClass} />
      <RunExtrasFields value={extras} onChange={setExtras} inputClass={inputClass} />
      {extrasRequest.problem ? <Notice tone="error">{extrasRequest.problem}</Notice> : null}

      <label className={cn("flex items-start gap-2 text-sm text-slate-800", !behaviour.reflectsAfterFailure && "opacity-50")}>
        <input
          type="checkbox"
          className="mt-0.5 size-4 flex-none accent-sky-700"
          data-testid="pause-after-reflection"
          checked={behaviour.reflectsAfterFailure && pauseAfterReflection}
          disabled={!behaviour.reflectsAfterFailure}
          onChange={(event) => setPauseAfterReflection(event.target.checked)}
        />
        <span>
          Pause after each reflection <span className="text-xs text-slate-500">— to read or edit it before the next trial starts</span>
        </span>
      </label>

      {demoOnImportedSet ? (
        <Notice tone="warning" data-testid="demo-uploaded-warning">
          {demoOnImportedWarning(environment)}
        </Notice>
      ) : null}
      {createRun.error ? <Notice tone="error">{createRun.error.message}</Notice> : null}
      {models.error ? <Notice tone="error">Could not load models: {models.error.message}</Notice> : null}

      <Button type="submit" variant="primary" className="w-full" disabled={!canStart} data-testid="start-run">
        {createRun.isPending ? "Starting…" : "Run"}
      </Button>
    </form>
  );
}
