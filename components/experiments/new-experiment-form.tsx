// Over 400 lines: one controlled form whose fields check each other (task set, arms with model, strategy,
// Ω and templates, repeats, budget); its pure rules live in lib/query/experiment-form.ts.
"use client";

// Over 400 lines: the form's sections (family, task set, tasks, arms, limits) share one draft and its
// validation; the arm rows are the next piece to split out.

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useId, useMemo, useState } from "react";
import type { EnvironmentsResponse, ModelsResponse } from "@/lib/domain/api";
import { environmentIdSchema, strategySchema, type EnvironmentId, type Strategy } from "@/lib/domain/config";
import { fixedLimitsOf } from "@/lib/domain/strategies";
import { environmentsQuery, modelsQuery, taskSetsQuery, tasksQuery } from "@/lib/query";
import { memoryWindowApplies } from "@/lib/domain/strategies";
import { armLabel, armsFromDrafts, type ArmDraft } from "@/lib/query/experiment-form";
import { useCreateExperiment } from "@/lib/query/experiment-queries";
import { useExperimentPrefill } from "@/lib/query/experiment-prefill";
import { overlayHref } from "@/lib/query/overlay-series";
import { Field, inputClass } from "@/components/home/form-field";
import { Button } from "@/components/ui/button";
import { Notice } from "@/components/ui/notice";
import { Spinner } from "@/components/ui/spinner";
import { strategyHint, strategyLabel } from "@/components/ui/strategy-labels";
import { cn } from "@/lib/utils/cn";
import { CLI_EXAMPLE } from "./experiment-list";
import { ArmSwatch, familyName } from "./labels";
import { ArmTemplatePickers } from "@/components/templates/arm-template-pickers";
import { RoleModelFields } from "@/components/settings/role-model-fields";
import { RunExtrasFields } from "@/components/costs/run-extras-fields";
import { formRoles } from "@/lib/query/role-models";
import { modelOptionLabel } from "@/lib/domain/model-id";
import { ScriptedStandIn } from "@/components/ui/scripted-stand-in";
import { defaultFamilyId } from "@/lib/environments/descriptors";

const BUILTIN = "builtin";
const MAX_ARMS = 8;

/**
 * "New experiment": a task family, a task set (built-in or uploaded), all or
 * some of its tasks, the arms (label, strategy, model, optional Ω), the trial
 * budget and the concurrency. Posts the definition and goes to its results page.
 */
export function NewExperimentForm() {
  const router = useRouter();
  const models = useQuery(modelsQuery());
  const environments = useQuery(environmentsQuery());
  const taskSets = useQuery(taskSetsQuery());
  const [environment, setEnvironment] = useState<EnvironmentId>(defaultFamilyId);
  const family = environments.data?.environments.find((option) => option.id === environment);
  const importedSets = useMemo(() => (taskSets.data?.taskSets ?? []).filter((set) => set.environment === environment), [taskSets.data, environment]);
  const [chosenTaskSet, setTaskSet] = useState(BUILTIN);
  const taskSet = chosenTaskSet === BUILTIN || !taskSets.data || importedSets.some((set) => set.id === chosenTaskSet) ? chosenTaskSet : BUILTIN;
  const tasks = useQuery(tasksQuery(environment, taskSet));
  const allTasks = useMemo(() => tasks.data?.tasks ?? [], [tasks.data]);
  const [subset, setSubset] = useState(false);
  const [picked, setPicked] = useState<ReadonlySet<string>>(new Set());
  const [search, setSearch] = useState("");
  const [nextKey, setNextKey] = useState(2);
  const [arms, setArms] = useState<ArmDraft[]>([
    { key: 0, label: null, strategy: "none", modelId: null, memoryWindow: "" },
    { key: 1, label: null, strategy: "reflexion", modelId: null, memoryWindow: "" },
  ]);
  const [maxTrials, setMaxTrials] = useState("5");
  const [concurrency, setConcurrency] = useState("4");
  const [repeats, setRepeats] = useState("1");
  const [chosenName, setName] = useState<string | null>(null);
  const create = useCreateExperiment();
  // "Run these tasks yourself" (?from=<experiment>): its environment, task set, task ids, arms' strategies and trials.
  const { prefill, error: prefillError } = useExperimentPrefill();
  const [prefilledFrom, setPrefilledFrom] = useState<{ id: string; name: string } | null>(null);
  if (prefill && prefilledFrom?.id !== prefill.sourceId) {
    setPrefilledFrom({ id: prefill.sourceId, name: prefill.sourceName });
    setEnvironment(prefill.environment);
    setTaskSet(prefill.taskSet);
    setSubset(prefill.taskIds.length > 0);
    setPicked(new Set(prefill.taskIds));
    setArms(prefill.arms.map((arm, key) => ({ key, label: arm.label, strategy: arm.strategy, modelId: null, memoryWindow: "" })));
    setNextKey(prefill.arms.length);
    setMaxTrials(String(prefill.maxTrials));
    setName(prefill.name);
  }
  const ids = { name: useId(), environment: useId(), taskSet: useId(), trials: useId(), concurrency: useId(), repeats: useId(), search: useId() };

  const supported: Strategy[] = family?.supportedStrategies ?? ["none", "reflexion"];
  // A strategy the newly chosen family cannot run falls back to its first one (the server would refuse it).
  const effectiveArms = arms.map((arm) => (supported.includes(arm.strategy) ? arm : { ...arm, strategy: supported[0] ?? arm.strategy }));
  const defaultModelId = models.data?.defaultModelId ?? models.data?.models[0]?.id ?? null;
  const taskSetName = taskSet === BUILTIN ? "built-in" : (importedSets.find((set) => set.id === taskSet)?.name ?? "uploaded set");
  const suggestedName = `${effectiveArms.map(armLabel).join(" vs ")} on ${environment} ${taskSetName}`.slice(0, 120);
  const name = chosenName ?? suggestedName;

  const visibleTasks = useMemo(() => {
    const needle = search.trim().toLowerCase();
    return needle ? allTasks.filter((task) => task.id.toLowerCase().includes(needle) || task.title.toLowerCase().includes(needle)) : allTasks;
  }, [allTasks, search]);
  const chosenTaskIds = subset ? allTasks.filter((task) => picked.has(task.id)).map((task) => task.id) : [];
  const taskCount = subset ? chosenTaskIds.length : allTasks.length;

  const trialsNumber = Number(maxTrials);
  const trialsValid = Number.isInteger(trialsNumber) && trialsNumber >= 1 && trialsNumber <= 50;
  const concurrencyNumber = Number(concurrency);
  const concurrencyValid = Number.isInteger(concurrencyNumber) && concurrencyNumber >= 1 && concurrencyNumber <= 32;
  const repeatsNumber = Number(repeats);
  const repeatsValid = Number.isInteger(repeatsNumber) && repeatsNumber >= 1 && repeatsNumber <= 20;
  const runCount = taskCount * arms.length * (repeatsValid ? repeatsNumber : 1);
  const built = armsFromDrafts(effectiveArms, defaultModelId, family);
  const problem = !trialsValid
    ? "Max trials is a whole number from 1 to 50."
    : !concurrencyValid
      ? "Concurrency is a whole number from 1 to 32."
      : !repeatsValid
        ? "Repeats is a whole number from 1 to 20."
      : subset && chosenTaskIds.length === 0
        ? "Tick at least one task, or choose all tasks."
        : !subset && tasks.isSuccess && allTasks.length === 0
          ? "This task set has no tasks; pick another one."
          : built.problem;
  const canStart = problem === null && tasks.isSuccess && !create.isPending;
  const scriptedIds = new Set((models.data?.models ?? []).filter((model) => model.scripted).map((model) => model.id));
  const demoOnImported = taskSet !== BUILTIN && arms.some((arm) => scriptedIds.has(arm.modelId ?? defaultModelId ?? ""));

  const updateArm = (key: number, change: Partial<ArmDraft>) => setArms((current) => current.map((arm) => (arm.key === key ? { ...arm, ...change } : arm)));

  return (
    <main className="mx-auto w-full max-w-5xl flex-1 px-4 py-6">
      <p className="mb-2 text-xs text-slate-500">
        <Link href="/experiments" className="text-sky-800 hover:underline">
          ← Experiments
        </Link>
      </p>
      <section aria-labelledby="new-experiment-heading" className="rounded-lg border border-slate-200 bg-white p-5">
        <h1 id="new-experiment-heading" className="text-base font-semibold text-slate-900">
          New experiment
        </h1>
        <p className="mb-4 mt-1 text-xs leading-relaxed text-slate-600">
          Every task runs once per arm (or Repeats times), up to the trial budget, and stops at its first success. Arms run in recorded mode: a call one arm has already made
          with an identical prompt (e.g. trial 1 of ReAct only and of Reflexion) is served from the response cache to the others. From a terminal:{" "}
          <code className="font-mono text-[11px] text-slate-800">{CLI_EXAMPLE}</code>
        </p>
        {prefilledFrom ? (
          <Notice tone="info" className="mb-4 text-xs" data-testid="experiment-prefilled" data-source={prefilledFrom.id}>
            Prefilled from <strong>{prefilledFrom.name}</strong>: the same task set and {chosenTaskIds.length} of its {prefill?.taskIds.length ?? 0} tasks
            {prefill && chosenTaskIds.length < prefill.taskIds.length ? " (the others are not in this task set here)" : ""}, one arm per arm of theirs with
            your model. Its curve is drawn beside theirs once it starts.
          </Notice>
        ) : prefillError ? (
          <Notice tone="error" className="mb-4 text-xs">
            Could not load the experiment to copy: {prefillError.message} Fill in the form yourself, or go back and try again.
          </Notice>
        ) : null}
        <form
          aria-label="New experiment"
          className="space-y-5"
          onSubmit={(event) => {
            event.preventDefault();
            if (!canStart) return;
            create.mutate(
              {
                name: name.trim() || suggestedName,
                environment,
                taskSet,
                taskIds: chosenTaskIds,
                arms: built.arms,
                maxTrials: trialsNumber,
                concurrency: concurrencyNumber,
                repeats: repeatsNumber,
              },
              {
                // Prefilled from another experiment: its curves and the new one's on one chart, the new one growing live.
                onSuccess: ({ experimentId }) => router.push(prefilledFrom ? overlayHref([prefilledFrom.id, experimentId]) : `/experiments/${encodeURIComponent(experimentId)}`),
              },
            );
          }}
        >
          <div className="grid gap-3 sm:grid-cols-2">
            <Field label="Name" htmlFor={ids.name} hint="Shown in the list and the exports.">
              <input id={ids.name} data-testid="experiment-name" className={inputClass} value={name} maxLength={120} onChange={(event) => setName(event.target.value)} />
            </Field>
            <Field label="Task family" htmlFor={ids.environment}>
              <select
                id={ids.environment}
                data-testid="experiment-environment"
                className={inputClass}
                value={environment}
                onChange={(event) => {
                  setEnvironment(environmentIdSchema.parse(event.target.value));
                  setTaskSet(BUILTIN);
                  setPicked(new Set());
                  setSearch("");
                }}
              >
                {(environments.data?.environments ?? [{ id: defaultFamilyId(), label: familyName(defaultFamilyId()) }]).map((option) => (
                  <option key={option.id} value={option.id}>
                    {option.label}
                  </option>
                ))}
              </select>
            </Field>
          </div>

          <Field
            label="Task set"
            htmlFor={ids.taskSet}
            hint={
              taskSets.error ? (
                <span className="text-red-700">Could not load the uploaded task sets ({taskSets.error.message}); the built-in set still works.</span>
              ) : (
                "Upload a dataset file on the Runs page; it is listed here too."
              )
            }
          >
            <select
              id={ids.taskSet}
              data-testid="experiment-task-set"
              className={inputClass}
              value={taskSet}
              onChange={(event) => {
                setTaskSet(event.target.value);
                setPicked(new Set());
              }}
            >
              <option value={BUILTIN}>Built-in (written for this project)</option>
              {importedSets.map((set) => (
                <option key={set.id} value={set.id}>
                  {set.name} ({set.taskCount} {set.taskCount === 1 ? "task" : "tasks"})
                </option>
              ))}
            </select>
          </Field>

          <fieldset className="min-w-0 space-y-2">
            <legend className="text-xs font-medium text-slate-700">Tasks</legend>
            <div className="flex flex-wrap gap-4 text-sm text-slate-800">
              <label className="flex items-center gap-2">
                <input type="radio" name="task-scope" className="accent-sky-700" checked={!subset} onChange={() => setSubset(false)} data-testid="tasks-all" />
                All tasks of the set {tasks.isSuccess ? <span className="text-slate-500">({allTasks.length})</span> : null}
              </label>
              <label className="flex items-center gap-2">
                <input type="radio" name="task-scope" className="accent-sky-700" checked={subset} onChange={() => setSubset(true)} data-testid="tasks-subset" />
                A subset {subset ? <span className="text-slate-500">({chosenTaskIds.length} ticked)</span> : null}
              </label>
            </div>
            {tasks.isPending ? (
              <p className="flex items-center gap-2 text-xs text-slate-500">
                <Spinner className="size-3" /> Loading tasks…
              </p>
            ) : tasks.error ? (
              <Notice tone="error">Could not load the tasks: {tasks.error.message} Pick another task set or reload the page.</Notice>
            ) : subset ? (
              <div className="space-y-1.5">
                <div className="flex flex-wrap items-center gap-2">
                  <input
                    id={ids.search}
                    type="search"
                    aria-label="Filter tasks by id or title"
                    placeholder="Filter by id or title…"
                    className={cn(inputClass, "max-w-xs")}
                    value={search}
                    onChange={(event) => setSearch(event.target.value)}
                  />
                  <Button size="sm" onClick={() => setPicked((current) => new Set([...current, ...visibleTasks.map((task) => task.id)]))}>
                    Tick {search.trim() ? "shown" : "all"}
                  </Button>
                  <Button size="sm" variant="ghost" onClick={() => setPicked(new Set())}>
                    Clear
                  </Button>
                </div>
                <ul className="max-h-56 divide-y divide-slate-100 overflow-y-auto rounded-md border border-slate-200" aria-label="Tasks to run">
                  {visibleTasks.map((task) => (
                    <li key={task.id}>
                      <label className="flex cursor-pointer items-start gap-2 px-3 py-1.5 text-sm hover:bg-slate-50">
                        <input
                          type="checkbox"
                          className="mt-1 accent-sky-700"
                          checked={picked.has(task.id)}
                          data-testid={`experiment-task-${task.id}`}
                          onChange={(event) =>
                            setPicked((current) => {
                              const next = new Set(current);
                              if (event.target.checked) next.add(task.id);
                              else next.delete(task.id);
                              return next;
                            })
                          }
                        />
                        <span className="min-w-0">
                          <span className="block truncate text-slate-900">{task.title}</span>
                          <span className="block font-mono text-[11px] text-slate-500">{task.id}</span>
                        </span>
                      </label>
                    </li>
                  ))}
                  {visibleTasks.length === 0 ? <li className="px-3 py-2 text-xs text-slate-500">No task matches the filter.</li> : null}
                </ul>
              </div>
            ) : null}
          </fieldset>

          <fieldset className="min-w-0 space-y-2">
            <legend className="text-xs font-medium text-slate-700">Arms — one run configuration each; every task runs once per arm</legend>
            <div className="relative overflow-x-auto rounded-md border border-slate-200">
              <table className="w-full text-left text-sm" data-testid="arm-rows">
                <thead className="bg-slate-50 text-[11px] uppercase tracking-wide text-slate-500">
                  <tr>
                    <th scope="col" className="px-2 py-1.5 font-semibold">Label</th>
                    <th scope="col" className="px-2 py-1.5 font-semibold">Strategy</th>
                    <th scope="col" className="px-2 py-1.5 font-semibold">Model</th>
                    <th scope="col" className="px-2 py-1.5 font-semibold">
                      Memory window Ω <span className="font-normal normal-case tracking-normal">(empty = default)</span>
                    </th>
                    <th scope="col" className="px-2 py-1.5 font-semibold">
                      Templates <span className="font-normal normal-case tracking-normal">(Actor, Self-Reflection)</span>
                    </th>
                    <th scope="col" className="px-2 py-1.5 font-semibold"><span className="sr-only">Remove</span></th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100">
                  {effectiveArms.map((arm, index) => (
                    <ArmRow
                      key={arm.key}
                      arm={arm}
                      index={index}
                      environment={environment}
                      supported={supported}
                      family={family}
                      models={models.data}
                      modelsError={models.error}
                      defaultModelId={defaultModelId}
                      canRemove={arms.length > 1}
                      onChange={(change) => updateArm(arm.key, change)}
                      onRemove={() => setArms((current) => current.filter((candidate) => candidate.key !== arm.key))}
                    />
                  ))}
                </tbody>
              </table>
            </div>
            <Button
              size="sm"
              data-testid="add-arm"
              disabled={arms.length >= MAX_ARMS}
              onClick={() => {
                const unused = supported.find((strategy) => !arms.some((arm) => armLabel(arm) === strategy)) ?? supported[0] ?? "reflexion";
                setArms((current) => [...current, { key: nextKey, label: null, strategy: unused, modelId: null, memoryWindow: "" }]);
                setNextKey((key) => key + 1);
              }}
            >
              + Add arm
            </Button>
            {arms.length >= MAX_ARMS ? <p className="text-[11px] text-slate-500">At most {MAX_ARMS} arms.</p> : null}
          </fieldset>

          <div className="grid gap-3 sm:grid-cols-3">
            <Field label="Max trials" htmlFor={ids.trials} hint="Each run stops at its first success; the curves go from trial 1 to this trial.">
              <input
                id={ids.trials}
                type="number"
                min={1}
                max={50}
                inputMode="numeric"
                data-testid="experiment-trials"
                className={cn(inputClass, !trialsValid && "border-red-500")}
                aria-invalid={!trialsValid}
                value={maxTrials}
                onChange={(event) => setMaxTrials(event.target.value)}
              />
            </Field>
            <Field
              label="Concurrency"
              htmlFor={ids.concurrency}
              hint="Runs of this experiment in flight at once (the CLI's worker pool size); the web server also caps all runs at REFLEXION_CONCURRENCY."
            >
              <input
                id={ids.concurrency}
                type="number"
                min={1}
                max={32}
                inputMode="numeric"
                data-testid="experiment-concurrency"
                className={cn(inputClass, !concurrencyValid && "border-red-500")}
                aria-invalid={!concurrencyValid}
                value={concurrency}
                onChange={(event) => setConcurrency(event.target.value)}
              />
            </Field>
            <Field
              label="Repeats"
              htmlFor={ids.repeats}
              hint="Runs of every task in every arm, each sampled afresh (seeded per repetition): rates then get bootstrap intervals over tasks and repetitions."
            >
              <input
                id={ids.repeats}
                type="number"
                min={1}
                max={20}
                inputMode="numeric"
                data-testid="experiment-repeats"
                className={cn(inputClass, !repeatsValid && "border-red-500")}
                aria-invalid={!repeatsValid}
                value={repeats}
                onChange={(event) => setRepeats(event.target.value)}
              />
            </Field>
          </div>

          {demoOnImported ? (
            <Notice tone="warning">The demo model is a scripted stand-in that only plays the built-in tasks; on an uploaded set it fails. Pick a real model for uploaded tasks.</Notice>
          ) : null}
          {problem && tasks.isSuccess ? (
            <p className="text-xs text-amber-900" data-testid="experiment-form-problem">
              {problem}
            </p>
          ) : null}
          {create.error ? (
            <Notice tone="error" data-testid="experiment-create-error">
              Could not start the experiment: {create.error.message}
            </Notice>
          ) : null}

          <div className="flex items-center gap-3">
            <Button type="submit" variant="primary" disabled={!canStart} data-testid="start-experiment">
              {create.isPending ? "Starting…" : `Start ${runCount} ${runCount === 1 ? "run" : "runs"}`}
            </Button>
            <span className="text-xs text-slate-500">
              {taskCount} {taskCount === 1 ? "task" : "tasks"} × {arms.length} {arms.length === 1 ? "arm" : "arms"}
              {repeatsValid && repeatsNumber > 1 ? ` × ${repeatsNumber} repeats` : ""}, up to {trialsValid ? trialsNumber : "?"} trials each
            </span>
          </div>
        </form>
      </section>
    </main>
  );
}

/** One arm of the form: label, strategy (the family's), model, optional Ω, remove. */
function ArmRow({
  arm,
  index,
  environment,
  supported,
  family,
  models,
  modelsError,
  defaultModelId,
  canRemove,
  onChange,
  onRemove,
}: {
  arm: ArmDraft;
  index: number;
  environment: EnvironmentId;
  supported: Strategy[];
  family: EnvironmentsResponse["environments"][number] | undefined;
  models: ModelsResponse | undefined;
  modelsError: Error | null;
  defaultModelId: string | null;
  canRemove: boolean;
  onChange: (change: Partial<ArmDraft>) => void;
  onRemove: () => void;
}) {
  const label = armLabel(arm);
  const strategy = arm.strategy;
  const fixed = fixedLimitsOf(strategy, family ?? {});
  const windowApplies = memoryWindowApplies(strategy, family);
  const familyWindow = family?.defaultMemoryWindow ?? null;
  const modelId = arm.modelId ?? defaultModelId ?? "";
  const scripted = models?.models.find((model) => model.id === modelId)?.scripted ?? false;
  return (
    <tr data-testid="arm-row" data-arm-index={index}>
      <td className="px-2 py-1.5 align-top">
        <span className="flex items-center gap-2">
          <ArmSwatch index={index} />
          <input
            aria-label={`Arm ${index + 1} label`}
            data-testid="arm-label"
            className={cn(inputClass, "min-w-24")}
            value={label}
            maxLength={60}
            onChange={(event) => onChange({ label: event.target.value })}
          />
        </span>
      </td>
      <td className="px-2 py-1.5 align-top">
        <select
          aria-label={`Arm ${index + 1} strategy`}
          data-testid="arm-strategy"
          className={inputClass}
          value={strategy}
          title={strategyHint(strategy, environment)}
          onChange={(event) => onChange({ strategy: strategySchema.parse(event.target.value) })}
        >
          {supported.map((option) => (
            <option key={option} value={option}>
              {strategyLabel(option, environment)} ({option})
            </option>
          ))}
        </select>
      </td>
      <td className="px-2 py-1.5 align-top">
        <select
          aria-label={`Arm ${index + 1} model`}
          data-testid="arm-model"
          className={cn(inputClass, "min-w-48")}
          value={modelId}
          disabled={!models}
          onChange={(event) => onChange({ modelId: event.target.value })}
        >
          {!models ? <option value="">{modelsError ? "Could not load models" : "Loading…"}</option> : null}
          {models?.models.map((model) => (
            <option key={model.id} value={model.id}>
              {modelOptionLabel(model)}
            </option>
          ))}
        </select>
        {scripted ? <ScriptedStandIn full className="mt-0.5 block text-[11px] text-violet-700" /> : null}
        <div className="mt-1">
          <RoleModelFields
            roles={formRoles(family?.evaluatorUsesModel)}
            models={models}
            value={arm.roleModels ?? {}}
            onChange={(roleModels) => onChange({ roleModels })}
            inputClass={inputClass}
            testIdPrefix={`arm-${index}-role`}
            summaryLabel="Per role"
          />
        </div>
        <div className="mt-1">
          <RunExtrasFields value={arm.extras ?? {}} onChange={(extras) => onChange({ extras })} inputClass={inputClass} testIdPrefix={`arm-${index}`} />
        </div>
      </td>
      <td className="px-2 py-1.5 align-top">
        <input
          type="number"
          min={1}
          inputMode="numeric"
          aria-label={`Arm ${index + 1} memory window Ω`}
          data-testid="arm-memory-window"
          className={cn(inputClass, "w-20")}
          disabled={!windowApplies}
          placeholder={fixed.memoryWindow !== null ? String(fixed.memoryWindow) : windowApplies ? (familyWindow === null ? "all" : String(familyWindow)) : "—"}
          value={windowApplies ? arm.memoryWindow : ""}
          onChange={(event) => onChange({ memoryWindow: event.target.value })}
          title={windowApplies ? "Newest reflections the Actor sees; empty = the family's default" : "This strategy puts no reflections in the prompt (or fixes Ω itself)"}
        />
      </td>
      <td className="px-2 py-1.5 align-top">
        <ArmTemplatePickers family={environment} strategy={strategy} index={index} value={arm.templates ?? {}} onChange={(templates) => onChange({ templates })} inputClass={inputClass} />
      </td>
      <td className="px-2 py-1.5 text-right align-top">
        <Button size="sm" variant="ghost" aria-label={`Remove arm ${label}`} disabled={!canRemove} onClick={onRemove} data-testid="remove-arm">
          Remove
        </Button>
      </td>
    </tr>
  );
}
