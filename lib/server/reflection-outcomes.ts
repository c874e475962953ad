import type { RunStore, RunRecord } from "@/lib/db/store";
import type { ExperimentRunLink } from "@/lib/db/experiment-store";
import { foldRun } from "@/lib/domain/fold-run";
import { asRunId } from "@/lib/domain/ids";
import { AppError } from "@/lib/domain/errors";
import { pageReflections, reflectionOutcomes, type ReflectionListItem, type ReflectionListResponse, type ReflectionQuery } from "@/lib/domain/reflection-outcomes";
import { parseCellArmKey } from "@/lib/domain/experiment-cells";

/** Runs read when the query names neither an experiment nor a run: the most recent ones that can have a reflection. */
export const RECENT_RUNS_SCANNED = 300;

/**
 * How many of the newest runs the default view looks through to find
 * {@link RECENT_RUNS_SCANNED} that started more than one trial. A run with one
 * trial has no reflection that a next trial used (the one-trial code imports of
 * the paper's logs, e.g., would otherwise fill the 300 newest and leave the
 * page empty). Only run rows and their summary read model are read for them.
 */
export const RECENT_RUNS_CONSIDERED = 5_000;

/** Whether a run's root branch started more than one trial (its summary read model), i.e. can have a reflection that a next trial used. */
async function startedSeveralTrials(store: RunStore, run: RunRecord): Promise<boolean> {
  const summary = await store.getBranchSummary(run.rootBranchId);
  return summary !== null && summary.trialsStarted > 1;
}

/** A run's items, kept while its root branch has ended (an ended root branch gets no more events; forks are branches of their own). */
type CacheEntry = { items: ReflectionListItem[] };
const cacheByStore = new WeakMap<RunStore, Map<string, CacheEntry>>();

function cacheOf(store: RunStore): Map<string, CacheEntry> {
  let cache = cacheByStore.get(store);
  if (!cache) {
    cache = new Map();
    cacheByStore.set(store, cache);
  }
  return cache;
}

/** The source file of a run imported from the authors' logs (its config's provenance), else null. */
function recordedSource(run: RunRecord): string | null {
  return run.config.provenance?.source ?? null;
}

/** Folds a run's root branch into its list items (cached once the branch has ended). */
async function itemsOfRun(store: RunStore, run: RunRecord, link: Pick<ExperimentRunLink, "experimentId" | "arm"> | null): Promise<ReflectionListItem[]> {
  const cache = cacheOf(store);
  const cached = cache.get(run.id);
  if (cached) return cached.items;
  const state = foldRun(await store.list(run.id, run.rootBranchId));
  const items = reflectionOutcomes(state).map(
    (outcome): ReflectionListItem => ({
      ...outcome,
      runId: run.id,
      runTitle: run.title,
      taskId: run.config.taskId,
      environment: run.config.environment,
      strategy: run.config.strategy,
      experimentId: link?.experimentId ?? null,
      arm: link ? parseCellArmKey(link.arm).arm : null,
      recordedSource: recordedSource(run),
    }),
  );
  if (state.status === "ended" || state.status === "error") cache.set(run.id, { items });
  return items;
}

/**
 * `GET /api/reflections`: every reflection of the runs asked for (an
 * experiment's, in cell order; one run; or the {@link RECENT_RUNS_SCANNED} most
 * recent runs that started more than one trial — `runs` counts those), each with the failed trial it came from and whether the next
 * trial succeeded (lib/domain/reflection-outcomes.ts), filtered by `q` and
 * `helped` and paged.
 * @throws AppError("not-found") for an unknown experiment or run.
 */
export async function listReflections(store: RunStore, query: ReflectionQuery): Promise<ReflectionListResponse> {
  const targets: Array<{ run: RunRecord; link: Pick<ExperimentRunLink, "experimentId" | "arm"> | null }> = [];
  if (query.runId) {
    const run = await store.getRun(asRunId(query.runId));
    if (!run) throw new AppError("not-found", `There is no run "${query.runId}". Open the run list and copy its id from the URL.`);
    targets.push({ run, link: await store.experiments.experimentOfRun(run.id) });
  } else if (query.experimentId) {
    const experiment = await store.experiments.getExperiment(query.experimentId);
    if (!experiment) throw new AppError("not-found", `There is no experiment "${query.experimentId}". Open Experiments to pick one.`);
    for (const link of await store.experiments.listExperimentRuns(experiment.id)) {
      const run = await store.getRun(asRunId(link.runId));
      if (run) targets.push({ run, link });
    }
  } else {
    for (const run of await store.listRuns(RECENT_RUNS_CONSIDERED)) {
      if (targets.length >= RECENT_RUNS_SCANNED) break;
      if (await startedSeveralTrials(store, run)) targets.push({ run, link: await store.experiments.experimentOfRun(run.id) });
    }
  }
  const items: ReflectionListItem[] = [];
  for (const target of targets) items.push(...(await itemsOfRun(store, target.run, target.link)));
  return pageReflections(items, query, targets.length);
}
