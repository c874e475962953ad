"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { DEFAULT_REFLECTION_RUBRIC, VERDICT_RUBRIC } from "@/lib/domain/review-queue";
import type { ReviewQueueCreateRequest } from "@/lib/domain/review-requests";
import { experimentListQuery } from "@/lib/query/experiment-queries";
import { postReviewQueue, reviewKeys } from "@/lib/query/review-queries";
import { Button } from "@/components/ui/button";
import { Notice } from "@/components/ui/notice";

const field = "h-8 w-full rounded border border-slate-300 bg-white px-2 text-sm";

/**
 * Builds a review queue from an experiment: the experiment, single or pairwise — or a single queue of
 * the LLM judge's verdicts (calibration; the server refuses an experiment without judged trials) —
 * the arms (pairwise: exactly two), the reviewers by name; single queues of reflections use the
 * default reflection rubric, queues of verdicts the fixed pass/fail rubric. Or a single queue from a
 * search query. The Name placeholder is the name the server gives when none is typed (from a query:
 * `Search: <query>`). On success it opens the queue.
 */
export function CreateQueueForm() {
  const router = useRouter();
  const client = useQueryClient();
  const experiments = useQuery(experimentListQuery());
  const [source, setSource] = useState<"experiment" | "query">("experiment");
  const [query, setQuery] = useState("");
  const [experimentId, setExperimentId] = useState("");
  const [kind, setKind] = useState<"single" | "pairwise" | "verdicts">("pairwise");
  const [arms, setArms] = useState<string[]>([]);
  const [reviewers, setReviewers] = useState("");
  const [name, setName] = useState("");
  const [onlyFailed, setOnlyFailed] = useState(false);
  const create = useMutation({
    mutationFn: (request: ReviewQueueCreateRequest) => postReviewQueue(request),
    onSuccess: async (detail) => {
      await client.invalidateQueries({ queryKey: reviewKeys.all });
      router.push(`/reviews/${encodeURIComponent(detail.queue.id)}`);
    },
  });
  const experiment = experiments.data?.experiments.find((candidate) => candidate.id === experimentId);
  const names = reviewers
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0);
  const fromQuery = source === "query";
  const problem = fromQuery
    ? query.trim() === ""
      ? "Type a search query."
      : names.length === 0
        ? "Name at least one reviewer."
        : null
    : experimentId === ""
      ? "Pick an experiment."
      : names.length === 0
        ? "Name at least one reviewer."
        : kind === "pairwise" && arms.length !== 2
          ? "Tick exactly two arms to compare."
          : null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (problem) return;
    if (fromQuery) create.mutate({ query: query.trim(), kind: "single", reviewers: names, name: name.trim() || undefined });
    else if (kind === "verdicts") create.mutate({ experimentId, kind: "single", items: "verdicts", arms, reviewers: names, name: name.trim() || undefined });
    else create.mutate({ experimentId, kind, arms, reviewers: names, name: name.trim() || undefined, onlyFollowedByFailure: kind === "single" && onlyFailed });
  };

  return (
    <form onSubmit={submit} className="space-y-3" aria-label="Build a review queue" data-testid="review-create-form">
      <fieldset className="flex flex-wrap gap-4 text-sm">
        <legend className="sr-only">Where the items come from</legend>
        <label className="flex items-center gap-1.5">
          <input type="radio" name="review-source" checked={!fromQuery} onChange={() => setSource("experiment")} data-testid="review-source-experiment" />
          From an experiment
        </label>
        <label className="flex items-center gap-1.5">
          <input type="radio" name="review-source" checked={fromQuery} onChange={() => setSource("query")} data-testid="review-source-query" />
          From a search query (single queue: the reflection after each matched trial)
        </label>
      </fieldset>
      {fromQuery ? (
        <label className="block space-y-1 text-sm">
          <span className="text-slate-700">Search query</span>
          <input className={field} value={query} placeholder="family:qa arm:B outcome:failure" data-testid="review-query" onChange={(event) => setQuery(event.target.value)} />
        </label>
      ) : (
        <div className="grid gap-3 md:grid-cols-2">
          <label className="space-y-1 text-sm">
            <span className="text-slate-700">Experiment</span>
            <select
              className={field}
              value={experimentId}
              data-testid="review-experiment"
              onChange={(event) => {
                setExperimentId(event.target.value);
                setArms([]);
              }}
            >
              <option value="">{experiments.isPending ? "Loading experiments…" : "Choose an experiment"}</option>
              {experiments.data?.experiments.map((candidate) => (
                <option key={candidate.id} value={candidate.id}>
                  {candidate.name} · {candidate.environment} · {candidate.arms.join(", ")} ({candidate.status})
                </option>
              ))}
            </select>
          </label>
          <label className="space-y-1 text-sm">
            <span className="text-slate-700">Kind</span>
            <select className={field} value={kind} data-testid="review-kind" onChange={(event) => setKind(event.target.value === "single" || event.target.value === "verdicts" ? event.target.value : "pairwise")}>
              <option value="pairwise">Pairwise: which of two arms&apos; reflections is better</option>
              <option value="single">Single: a rubric label per reflection</option>
              <option value="verdicts">Verdicts of the LLM judge (calibration)</option>
            </select>
          </label>
        </div>
      )}
      {experiment && !fromQuery ? (
        <fieldset className="space-y-1 text-sm">
          <legend className="text-slate-700">{kind === "pairwise" ? "Arms to compare (exactly two)" : "Arms (none ticked: all)"}</legend>
          <div className="flex flex-wrap gap-3">
            {experiment.arms.map((arm) => (
              <label key={arm} className="flex items-center gap-1.5">
                <input type="checkbox" data-testid={`review-arm-${arm}`} checked={arms.includes(arm)} onChange={(event) => setArms((current) => (event.target.checked ? [...current, arm] : current.filter((entry) => entry !== arm)))} />
                {arm}
              </label>
            ))}
          </div>
        </fieldset>
      ) : null}
      <div className="grid gap-3 md:grid-cols-2">
        <label className="space-y-1 text-sm">
          <span className="text-slate-700">Reviewers (names, comma-separated)</span>
          <input className={field} value={reviewers} placeholder="ann, bob" data-testid="review-reviewers" onChange={(event) => setReviewers(event.target.value)} />
        </label>
        <label className="space-y-1 text-sm">
          <span className="text-slate-700">Name (optional)</span>
          <input
            className={field}
            value={name}
            placeholder={fromQuery ? `Search: ${query.trim() || "the query"}` : "the experiment's name and arms"}
            data-testid="review-name"
            onChange={(event) => setName(event.target.value)}
          />
        </label>
      </div>
      {fromQuery ? (
        <p className="text-xs text-slate-600">
          Rubric “{DEFAULT_REFLECTION_RUBRIC.name}”: {DEFAULT_REFLECTION_RUBRIC.labels.map((label) => `${label.id} (${label.description})`).join(" · ")}.
        </p>
      ) : kind === "verdicts" ? (
        <p className="text-xs text-slate-600" data-testid="review-verdicts-hint">
          One item per trial the LLM judge judged (open tasks). Rubric “{VERDICT_RUBRIC.name}”: {VERDICT_RUBRIC.question} {VERDICT_RUBRIC.labels.map((label) => label.id).join(" / ")}, graded blind — the
          judge&apos;s verdict shows after you save. Each label is also your grade of the trial on the judge page (/judge), so its agreement and κ include it.
        </p>
      ) : kind === "single" ? (
        <div className="space-y-1 text-sm">
          <label className="flex items-center gap-1.5">
            <input type="checkbox" checked={onlyFailed} onChange={(event) => setOnlyFailed(event.target.checked)} />
            Only reflections followed by a failure (the next trial failed)
          </label>
          <p className="text-xs text-slate-600">
            Rubric “{DEFAULT_REFLECTION_RUBRIC.name}”: {DEFAULT_REFLECTION_RUBRIC.labels.map((label) => `${label.id} (${label.description})`).join(" · ")}.
          </p>
        </div>
      ) : (
        <p className="text-xs text-slate-600">Each item shows both arms&apos; reflections of the same task and trial; which arm is on the left is drawn at random per item and recorded. Arms stay hidden until you have reviewed the item.</p>
      )}
      {create.error ? (
        <Notice tone="error" title="The queue was not built">
          {create.error.message}
        </Notice>
      ) : null}
      <div className="flex items-center gap-3">
        <Button type="submit" variant="primary" disabled={problem !== null || create.isPending} data-testid="review-create">
          {create.isPending ? "Building…" : "Build the queue"}
        </Button>
        {problem ? <span className="text-xs text-slate-600">{problem}</span> : null}
      </div>
    </form>
  );
}
