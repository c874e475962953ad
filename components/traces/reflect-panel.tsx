"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useId, useState } from "react";
import { memoryStoreNameSchema } from "@/lib/domain/memory-store";
import { TRACE_EVALUATOR_LABELS, TRACE_REFLECT_TEMPLATE, traceEvaluatorSchema, type PersonGrade, type TraceEvaluator } from "@/lib/domain/trace-reflection";
import { modelsQuery } from "@/lib/query/queries";
import { templateListQuery } from "@/lib/query/template-queries";
import { useReflectOnTraces } from "@/lib/query/trace-queries";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Notice } from "@/components/ui/notice";
import { ScriptedStandIn } from "@/components/ui/scripted-stand-in";
import { Spinner } from "@/components/ui/spinner";
import { HandBack } from "./hand-back";

/** One imported trace as the panel lists it (an experiment cell of the import). */
export interface TraceRow {
  runId: string;
  taskId: string;
  /** The trace's own verdict as imported: success / failure, or null when it carried no score. */
  outcome: "success" | "failure" | "cancelled" | null;
}

/** What each Evaluator choice means, in one sentence under the picker. */
const EVALUATOR_HELP: Record<TraceEvaluator, string> = {
  trace: "Use the score or label recorded in each trace (Inspect scorer, LangSmith feedback, Langfuse score, gen_ai evaluation). Traces without one are skipped.",
  judge: "Ask the judge model to score each trace's final answer on a two-criterion rubric. With an expected answer in the trace, this is an oracle signal.",
  person: "Mark each trace pass or fail yourself below; the note you write is what the Self-Reflection reads as the feedback.",
};

/**
 * "Reflect on failures" for one import: pick the Evaluator (the trace's score, a rubric judge, a
 * person's grade), the Self-Reflection template version and model, and the memory store; each
 * failure gets a reflection stored with its provenance, shown here with how the agent reads them back.
 */
export function ReflectPanel({ experimentId, traces }: { experimentId: string; traces: readonly TraceRow[] }) {
  const [evaluator, setEvaluator] = useState<TraceEvaluator>("trace");
  const [store, setStore] = useState("agent-lessons");
  const [template, setTemplate] = useState<string>(TRACE_REFLECT_TEMPLATE.id);
  const [modelId, setModelId] = useState("demo");
  const [grades, setGrades] = useState<Record<string, PersonGrade>>({});
  const templates = useQuery(templateListQuery("external", "reflector"));
  const models = useQuery(modelsQuery());
  const reflect = useReflectOnTraces();
  const storeId = useId();
  const templateId = useId();
  const modelSelectId = useId();
  const storeProblem = memoryStoreNameSchema.safeParse(store).success ? null : "Use letters, digits, dashes or dots (e.g. agent-lessons).";
  const graded = Object.keys(grades).length;
  const blocked = storeProblem !== null || (evaluator === "person" && graded === 0);
  const isScripted = (id: string) => models.data?.models.find((model) => model.id === id)?.scripted ?? id === "demo";
  const scripted = isScripted(modelId);
  const resultScripted = reflect.data ? isScripted(reflect.data.model) : false;

  return (
    <section aria-labelledby="reflect-heading" className="space-y-3 rounded-lg border border-slate-200 bg-white p-4" data-testid="reflect-panel">
      <h2 id="reflect-heading" className="text-sm font-semibold text-slate-900">
        Reflect on the failures
      </h2>
      <fieldset className="space-y-1">
        <legend className="text-xs font-medium text-slate-700">Who decides that a trace failed (the Evaluator)</legend>
        <div className="flex flex-wrap gap-3" role="radiogroup">
          {traceEvaluatorSchema.options.map((option) => (
            <label key={option} className="inline-flex items-center gap-1.5 text-sm text-slate-800">
              <input
                type="radio"
                name="trace-evaluator"
                value={option}
                checked={evaluator === option}
                onChange={() => {
                  setEvaluator(option);
                  // Results of another Evaluator would read as this one's.
                  reflect.reset();
                }}
                data-testid={`evaluator-${option}`}
              />
              {TRACE_EVALUATOR_LABELS[option]}
            </label>
          ))}
        </div>
        <p className="text-xs text-slate-600">{EVALUATOR_HELP[evaluator]}</p>
      </fieldset>

      <div className="grid gap-3 sm:grid-cols-3">
        <div className="space-y-1">
          <label htmlFor={storeId} className="text-xs font-medium text-slate-700">
            Memory store
          </label>
          <input
            id={storeId}
            value={store}
            onChange={(event) => setStore(event.target.value)}
            className="h-9 w-full rounded-md border border-slate-300 px-2 text-sm"
            aria-invalid={storeProblem !== null}
            aria-describedby={storeProblem ? `${storeId}-problem` : undefined}
            data-testid="reflect-store"
          />
          {storeProblem ? (
            <p id={`${storeId}-problem`} className="text-xs text-rose-700">
              {storeProblem}
            </p>
          ) : null}
        </div>
        <div className="space-y-1">
          <label htmlFor={templateId} className="text-xs font-medium text-slate-700">
            Self-Reflection template
          </label>
          <select id={templateId} value={template} onChange={(event) => setTemplate(event.target.value)} className="h-9 w-full rounded-md border border-slate-300 px-2 text-sm" data-testid="reflect-template">
            {(templates.data?.templates ?? [{ id: TRACE_REFLECT_TEMPLATE.id, name: "Built-in Self-Reflection for traces", builtIn: true }]).map((item) => (
              <option key={item.id} value={item.id}>
                {item.name} ({item.id}{item.builtIn ? ", built in" : ""}) — newest version
              </option>
            ))}
          </select>
          <p className="text-xs text-slate-600">
            Edit or version it in the <Link className="underline" href="/templates">template library</Link>.
          </p>
        </div>
        <div className="space-y-1">
          <label htmlFor={modelSelectId} className="text-xs font-medium text-slate-700">
            Self-Reflection {evaluator === "judge" ? "and judge " : ""}model
          </label>
          <select id={modelSelectId} value={modelId} onChange={(event) => setModelId(event.target.value)} className="h-9 w-full rounded-md border border-slate-300 px-2 text-sm" data-testid="reflect-model">
            {(models.data?.models ?? [{ id: "demo", label: "demo", scripted: true }]).map((model) => (
              <option key={model.id} value={model.id}>
                {model.label}
              </option>
            ))}
          </select>
          {scripted ? <ScriptedStandIn full /> : null}
        </div>
      </div>

      {evaluator === "person" ? <PersonGrades traces={traces} grades={grades} onChange={setGrades} /> : null}

      <div className="flex flex-wrap items-center gap-3">
        <Button
          variant="primary"
          disabled={blocked || reflect.isPending}
          data-testid="reflect-run"
          onClick={() => reflect.mutate({ experimentId, store, evaluator, modelId, ...(template ? { template } : {}), ...(evaluator === "person" ? { grades } : {}) })}
        >
          {reflect.isPending ? <Spinner className="size-3" label="Reflecting" /> : null}
          Reflect on failures
        </Button>
        {evaluator === "person" && graded === 0 ? <span className="text-xs text-slate-600">Grade at least one trace first.</span> : null}
        {reflect.isPending ? <span className="text-xs text-slate-600">One model call per failure ({traces.length} traces)…</span> : null}
      </div>

      {reflect.error ? (
        <Notice tone="error" title="The reflections were not all written" data-testid="reflect-error">
          <p>{reflect.error.message}</p>
          <p className="mt-1 text-xs">Reflections stored before the error are kept; run it again and they are found instead of written twice.</p>
        </Notice>
      ) : null}
      {reflect.data ? (
        <div className="space-y-2" data-testid="reflect-result" aria-live="polite">
          <p className="text-sm text-slate-800">
            {reflect.data.failures} failure{reflect.data.failures === 1 ? "" : "s"}; {reflect.data.written} new reflection{reflect.data.written === 1 ? "" : "s"} stored in <code>{reflect.data.store}</code>
            {reflect.data.skipped > 0 ? `; ${reflect.data.skipped} skipped` : ""}. Written by <code>{reflect.data.model}</code>
            {resultScripted ? (
              <>
                {" "}
                (<ScriptedStandIn full />)
              </>
            ) : null}{" "}
            with {reflect.data.template.id} v{reflect.data.template.version}.
          </p>
          <ol className="space-y-2">
            {reflect.data.outcomes.map((outcome) => (
              <li key={outcome.runId} className="rounded-md border border-slate-200 p-2 text-sm" data-testid="reflect-outcome">
                <p className="flex flex-wrap items-baseline gap-2">
                  <span className={outcome.verdict === "fail" ? "font-medium text-rose-700" : outcome.verdict === "pass" ? "font-medium text-emerald-700" : "font-medium text-slate-500"}>{outcome.verdict}</span>
                  <Link href={`/runs/${encodeURIComponent(outcome.runId)}`} className="text-sky-800 underline">
                    {outcome.title}
                  </Link>
                  <span className="text-xs text-slate-600">({outcome.verdictSource})</span>
                  {outcome.oracle ? (
                    <Badge tone="amber" title="The verdict used the expected answer recorded in the trace; the reflection prompt hid that answer.">
                      oracle signal
                    </Badge>
                  ) : null}
                </p>
                {outcome.reflection ? (
                  <blockquote className="mt-1 border-l-2 border-violet-300 pl-2 text-slate-800" data-testid="reflect-text">
                    {outcome.reflection}
                    {outcome.alreadyStored ? <span className="ml-1 text-xs text-slate-500">(already stored)</span> : null}
                  </blockquote>
                ) : null}
                {outcome.note ? <p className="mt-1 text-xs text-slate-600">{outcome.note}</p> : null}
              </li>
            ))}
          </ol>
          <HandBack store={reflect.data.store} />
        </div>
      ) : null}
    </section>
  );
}

/** The person Evaluator's grading table: pass / fail per trace with a note for the Self-Reflection. */
function PersonGrades({ traces, grades, onChange }: { traces: readonly TraceRow[]; grades: Record<string, PersonGrade>; onChange: (next: Record<string, PersonGrade>) => void }) {
  const set = (runId: string, grade: PersonGrade | null) => {
    const next = { ...grades };
    if (grade) next[runId] = grade;
    else delete next[runId];
    onChange(next);
  };
  return (
    <table className="w-full text-left text-sm" data-testid="person-grades">
      <caption className="sr-only">Your verdict on each trace</caption>
      <thead>
        <tr className="text-xs text-slate-600">
          <th className="py-1 font-medium">Trace (task)</th>
          <th className="py-1 font-medium">As imported</th>
          <th className="py-1 font-medium">Your verdict</th>
          <th className="py-1 font-medium">Note for the Self-Reflection</th>
        </tr>
      </thead>
      <tbody>
        {traces.map((trace) => {
          const grade = grades[trace.runId];
          return (
            <tr key={trace.runId} className="border-t border-slate-100">
              <td className="py-1 pr-2">
                <Link href={`/runs/${encodeURIComponent(trace.runId)}`} className="text-sky-800 underline">
                  {trace.taskId}
                </Link>
              </td>
              <td className="py-1 pr-2 text-xs text-slate-600">{trace.outcome === "success" ? "pass" : trace.outcome === "failure" ? "not passed" : "none"}</td>
              <td className="py-1 pr-2">
                <div className="flex gap-2" role="radiogroup" aria-label={`Your verdict on ${trace.taskId}`}>
                  {(["pass", "fail"] as const).map((verdict) => (
                    <label key={verdict} className="inline-flex items-center gap-1 text-xs">
                      <input type="radio" name={`grade-${trace.runId}`} checked={grade?.verdict === verdict} onChange={() => set(trace.runId, { verdict, note: grade?.note })} data-testid={`grade-${verdict}`} />
                      {verdict}
                    </label>
                  ))}
                  {grade ? (
                    <button type="button" className="text-xs text-slate-500 underline" onClick={() => set(trace.runId, null)}>
                      clear
                    </button>
                  ) : null}
                </div>
              </td>
              <td className="py-1">
                <input
                  aria-label={`Note on ${trace.taskId}`}
                  className="h-8 w-full rounded border border-slate-300 px-2 text-xs disabled:bg-slate-50"
                  disabled={!grade}
                  maxLength={2000}
                  value={grade?.note ?? ""}
                  onChange={(event) => grade && set(trace.runId, { ...grade, note: event.target.value })}
                  placeholder={grade ? "what went wrong (optional)" : "grade it first"}
                />
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
