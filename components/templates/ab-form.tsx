"use client";

import { useQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useId, useMemo, useState } from "react";
import { strategySchema, type Strategy } from "@/lib/domain/config";
import type { Template, TemplateVersion } from "@/lib/domain/template-library";
import { environmentsQuery, modelsQuery, taskSetsQuery, tasksQuery } from "@/lib/query";
import { abOtherOptions, abProblem } from "@/lib/query/template-ab";
import { templateListQuery, useCreateAb } from "@/lib/query/template-queries";
import { Field, inputClass } from "@/components/home/form-field";
import { Button } from "@/components/ui/button";
import { Notice } from "@/components/ui/notice";
import { strategyLabel } from "@/components/ui/strategy-labels";
import { cn } from "@/lib/utils/cn";
import { useBaseVersion } from "./use-base-version";
import { DEMO_MODEL_NOTE } from "@/lib/domain/model-id";

const BUILTIN = "builtin";

/**
 * "Compare versions (A/B)": a two-arm experiment whose arms differ only in
 * this role's template version — A the version picked here (default the
 * built-in the template was made from), B the version in the editor — on a
 * task set (all or some tasks), one model and a trial budget
 * (`POST /api/templates/ab`); opens its results page.
 */
export function AbForm({ template, versions, current, dirty }: { template: Template; versions: readonly TemplateVersion[]; current: TemplateVersion; dirty: boolean }) {
  const router = useRouter();
  const role = template.role === "actor" ? "actor" : "reflector";
  const create = useCreateAb();
  const library = useQuery(templateListQuery(template.family, template.role));
  const { detail: base } = useBaseVersion(template, versions);
  const options = abOtherOptions({ template, versions, current, base: base.data ?? null, library: library.data?.templates ?? [] });
  const [chosenOther, setOther] = useState<string | null>(null);
  const other = chosenOther ?? options[0]?.versionId ?? "";
  const models = useQuery(modelsQuery());
  const [chosenModel, setModel] = useState<string | null>(null);
  const modelId = chosenModel ?? models.data?.defaultModelId ?? models.data?.models[0]?.id ?? "";
  const environments = useQuery(environmentsQuery());
  const family = environments.data?.environments.find((option) => option.id === template.family);
  const strategies: Strategy[] = (family?.supportedStrategies ?? ["reflexion"]).filter((strategy) => template.strategy === null || strategy === template.strategy);
  const [chosenStrategy, setStrategy] = useState<Strategy | null>(null);
  const strategy = chosenStrategy ?? template.strategy ?? (strategies.includes("reflexion") ? "reflexion" : (strategies[0] ?? "reflexion"));
  const taskSets = useQuery(taskSetsQuery());
  const sets = (taskSets.data?.taskSets ?? []).filter((set) => set.environment === template.family);
  const [taskSet, setTaskSet] = useState(BUILTIN);
  const tasks = useQuery(tasksQuery(template.family, taskSet));
  const allTasks = useMemo(() => tasks.data?.tasks ?? [], [tasks.data]);
  const [picked, setPicked] = useState<ReadonlySet<string> | null>(null);
  // Default: the first three tasks (a quick read; tick more for a real comparison).
  const chosen = picked ?? new Set(allTasks.slice(0, 3).map((task) => task.id));
  const taskIds = allTasks.filter((task) => chosen.has(task.id)).map((task) => task.id);
  const [trials, setTrials] = useState("3");
  const trialsNumber = Number(trials);
  const otherOption = options.find((option) => option.versionId === other);
  const problem = abProblem({ other, current: current.id, dirty, taskCount: taskIds.length, trials: trialsNumber, modelId });
  const ids = { other: useId(), model: useId(), strategy: useId(), set: useId(), trials: useId() };
  const scripted = models.data?.models.find((model) => model.id === modelId)?.scripted ?? false;

  return (
    <form
      aria-label="Compare versions (A/B)"
      className="space-y-3 pt-3"
      data-testid="ab-form"
      onSubmit={(event) => {
        event.preventDefault();
        if (problem !== null || create.isPending) return;
        create.mutate(
          {
            family: template.family,
            role,
            versionA: other,
            versionB: current.id,
            labelA: `A: ${otherOption?.short ?? "other"}`.slice(0, 60),
            labelB: `B: ${template.name} v${current.number}`.slice(0, 60),
            taskSet,
            taskIds,
            modelId,
            maxTrials: trialsNumber,
            strategy,
          },
          { onSuccess: ({ experimentId }) => router.push(`/experiments/${encodeURIComponent(experimentId)}`) },
        );
      }}
    >
      <p className="max-w-3xl text-xs leading-relaxed text-slate-600">
        Two arms that differ only in the {role === "actor" ? "Actor" : "Self-Reflection"} template: <strong>A</strong> the version below, <strong>B</strong>{" "}
        v{current.number} of this template (the one in the editor). Same tasks, model, strategy and trial budget; the results page overlays their curves, lists the
        tasks where they differ with the two reflections side by side, and gives a paired test over tasks with its sample size.
      </p>
      <div className="grid gap-3 md:grid-cols-3">
        <Field label="A: the version to compare with" htmlFor={ids.other}>
          <select id={ids.other} data-testid="ab-other" className={inputClass} value={other} onChange={(event) => setOther(event.target.value)}>
            {options.length === 0 ? <option value="">No other version yet</option> : null}
            {options.map((option) => (
              <option key={option.versionId} value={option.versionId}>
                {option.label}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Model (both arms)" htmlFor={ids.model} hint={scripted ? `The demo model is ${DEMO_MODEL_NOTE}: it shows how the comparison works, not which wording is better.` : undefined}>
          <select id={ids.model} data-testid="ab-model" className={inputClass} value={modelId} disabled={!models.data} onChange={(event) => setModel(event.target.value)}>
            {!models.data ? <option value="">{models.error ? "Could not load models" : "Loading…"}</option> : null}
            {models.data?.models.map((model) => (
              <option key={model.id} value={model.id}>
                {model.label}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Strategy (both arms)" htmlFor={ids.strategy}>
          <select id={ids.strategy} data-testid="ab-strategy" className={inputClass} value={strategy} onChange={(event) => setStrategy(strategySchema.parse(event.target.value))}>
            {strategies.map((option) => (
              <option key={option} value={option}>
                {strategyLabel(option, template.family)}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Task set" htmlFor={ids.set}>
          <select
            id={ids.set}
            data-testid="ab-task-set"
            className={inputClass}
            value={taskSet}
            onChange={(event) => {
              setTaskSet(event.target.value);
              setPicked(null);
            }}
          >
            <option value={BUILTIN}>Built-in (written for this project)</option>
            {sets.map((set) => (
              <option key={set.id} value={set.id}>
                {set.name} ({set.taskCount} tasks)
              </option>
            ))}
          </select>
        </Field>
        <Field label="Max trials" htmlFor={ids.trials} hint="Each run stops at its first success.">
          <input id={ids.trials} type="number" min={1} max={50} data-testid="ab-trials" className={inputClass} value={trials} onChange={(event) => setTrials(event.target.value)} />
        </Field>
      </div>
      <fieldset className="space-y-1">
        <legend className="text-xs font-medium text-slate-700">
          Tasks <span className="font-normal text-slate-500">({taskIds.length} of {allTasks.length} ticked)</span>
          <button type="button" className="ml-2 text-[11px] font-normal text-sky-800 hover:underline" onClick={() => setPicked(new Set(allTasks.map((task) => task.id)))}>
            Tick all
          </button>
          <button type="button" className="ml-2 text-[11px] font-normal text-sky-800 hover:underline" onClick={() => setPicked(new Set())}>
            Clear
          </button>
        </legend>
        {tasks.error ? <Notice tone="error" className="text-xs">Could not load the tasks: {tasks.error.message} Pick another task set.</Notice> : null}
        <ul className="grid max-h-48 gap-x-4 overflow-y-auto rounded-md border border-slate-200 bg-white px-2 py-1 sm:grid-cols-2" aria-label="Tasks to compare on">
          {allTasks.map((task) => (
            <li key={task.id}>
              <label className="flex items-start gap-2 py-0.5 text-xs">
                <input
                  type="checkbox"
                  className="mt-0.5 accent-sky-700"
                  data-testid={`ab-task-${task.id}`}
                  checked={chosen.has(task.id)}
                  onChange={(event) => {
                    const next = new Set(chosen);
                    if (event.target.checked) next.add(task.id);
                    else next.delete(task.id);
                    setPicked(next);
                  }}
                />
                <span className="min-w-0 truncate">
                  <span className="font-mono text-[11px] text-slate-500">{task.id}</span> {task.title}
                </span>
              </label>
            </li>
          ))}
        </ul>
      </fieldset>
      {problem ? (
        <p className="text-xs text-amber-900" data-testid="ab-problem">
          {problem}
        </p>
      ) : null}
      {create.error ? (
        <Notice tone="error" className="text-xs" data-testid="ab-error">
          Could not start the comparison: {create.error.message}
        </Notice>
      ) : null}
      <Button type="submit" variant="primary" disabled={problem !== null || create.isPending} data-testid="ab-start" className={cn("h-8")}>
        {create.isPending ? "Starting…" : `Start A/B: ${taskIds.length * 2} runs`}
      </Button>
    </form>
  );
}
