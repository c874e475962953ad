// What the optimiser's parts are given, apart from the service and the drivers so that
// the steps and the drivers can name it without importing the service (or the composition root).
import type { ExperimentSummary } from "@/lib/domain/experiment";
import type { CallPricer, ModelPort } from "@/lib/engine/ports";
import type { OptimisationStore } from "@/lib/db/optimisation-store";
import type { ExperimentService } from "@/lib/server/experiment-service";
import type { MemoryStoreService } from "@/lib/server/memory-store-service";
import type { RunService } from "@/lib/server/run-service";
import type { TemplateService } from "@/lib/server/template-service";

/** What the optimiser needs from the composition root. */
export interface OptimiserDeps {
  store: OptimisationStore;
  templates: TemplateService;
  experiments: ExperimentService;
  runs: RunService;
  model: ModelPort;
  pricing?: CallPricer;
  /** Memory stores, for a request's `goldStore` (absent: a request naming one is refused). */
  memoryStores?: MemoryStoreService;
}

/** Where a running optimisation tells people what it does (the CLI writes it to stderr). */
export type ProgressListener = (message: string) => void;

/**
 * How the optimiser waits for an evaluation experiment: it starts the experiment (its runs queued)
 * and hands its id to a driver, which resolves with the summary once no run of it is running.
 */
export type ExperimentDriver = (experimentId: string) => Promise<ExperimentSummary>;
