import { mulberry32 } from "@/lib/utils/mulberry32";
import type { RunConfig } from "@/lib/domain/config";
import { cellArmKey } from "@/lib/domain/experiment-cells";
import type { ExperimentDefinition, ExperimentRecord } from "@/lib/domain/experiment";
import type { EventDraft } from "@/lib/domain/events";
import type { RunStore } from "@/lib/db/store";
import type { ImportedRunInput } from "@/lib/db/records";
import { defaultStressFamily, stressRunEvents, type StressFamily } from "@/lib/graph/stress-run";
import { DEMO_MODEL_ID } from "@/lib/domain/model-id";

/**
 * A finished experiment of `tasks × arms × repeats` runs written through the store's real bulk write
 * path (`RunStore.importExperiment`: runs, root branches, every event, the branch summaries and the
 * cell links in one transaction), so everything read afterwards — the summary, the results page, the
 * exports — goes through the ordinary reads. Each run's log is a synthetic but complete Reflexion log
 * of the family's stress script (lib/graph/stress-run.ts: model calls, thoughts, actions,
 * observations, evaluations, reflections), of 1 … `maxTrials` trials; arm k solves a task a little
 * more often than arm k − 1, so the curves and the paired tests have something to show.
 * Deterministic for a given `seed`. Used by bench/experiments.bench.ts and the export tests.
 */

/** Options of {@link seedExperiment}. */
export interface SeedExperimentOptions {
  tasks: number;
  /** Arm labels; every arm runs `reflexion` with the demo model. */
  arms: readonly string[];
  repeats: number;
  /** Trial budget of every arm (1–50). */
  maxTrials: number;
  /** Varies the outcomes; default 1. */
  seed?: number;
  /** Default: the stress page's default family. */
  family?: StressFamily;
  name?: string;
}

/** What {@link seedExperiment} wrote. */
export interface SeededExperiment {
  experiment: ExperimentRecord;
  runs: number;
  events: number;
  /** Wall time of the write, ms. */
  writeMs: number;
}

const prng = mulberry32;

/** The task id of task `index` (0-based), zero-padded so they sort in order. */
export function seededTaskId(index: number): string {
  return `task-${String(index + 1).padStart(4, "0")}`;
}

/**
 * Writes the experiment into `store` and returns its record.
 * @throws Error from the store when an event does not validate (nothing is written then).
 */
export async function seedExperiment(store: RunStore, options: SeedExperimentOptions): Promise<SeededExperiment> {
  const family = options.family ?? defaultStressFamily();
  const random = prng(options.seed ?? 1);
  const taskIds = Array.from({ length: options.tasks }, (_, index) => seededTaskId(index));
  const definition: ExperimentDefinition = {
    name: options.name ?? `seeded ${options.tasks} × ${options.arms.length} × ${options.repeats}`,
    environment: family,
    taskSet: "builtin",
    taskIds,
    arms: options.arms.map((label) => ({ label, strategy: "reflexion", modelId: DEMO_MODEL_ID })),
    maxTrials: options.maxTrials,
    concurrency: 4,
    ...(options.repeats > 1 ? { repeats: options.repeats } : {}),
  };
  const runs: ImportedRunInput[] = [];
  let events = 0;
  let serial = 0;
  for (const taskId of taskIds) {
    options.arms.forEach((arm, armIndex) => {
      for (let repetition = 1; repetition <= options.repeats; repetition += 1) {
        serial += 1;
        // Per trial, arm k succeeds with probability 0.25 + 0.1 k.
        const chance = Math.min(0.9, 0.25 + 0.1 * armIndex);
        let trials = 1;
        while (trials < options.maxTrials && random() >= chance) trials += 1;
        const solved = trials < options.maxTrials || random() < chance;
        const log = stressRunEvents({ trials, family, seed: serial, idPrefix: `seed${options.seed ?? 1}-${serial}`, lastTrialSucceeds: solved });
        const [start, ...rest] = log;
        if (start?.type !== "run-start") throw new Error("The stress log does not begin with run-start.");
        const config: RunConfig = { ...start.data.config, taskId, maxTrials: options.maxTrials, cacheScope: null };
        const drafts = rest.map((event) => ({ id: event.id, type: event.type, data: event.data, causedBy: event.causedBy }) as EventDraft);
        events += log.length;
        runs.push({ config, title: `${taskId} · ${arm} · r${repetition}`, cell: { taskId, arm: cellArmKey(arm, repetition) }, drafts });
      }
    });
  }
  const started = performance.now();
  const { experiment } = await store.importExperiment({ definition, taskSetName: "Built-in", provenance: null, runs });
  return { experiment, runs: runs.length, events, writeMs: performance.now() - started };
}
