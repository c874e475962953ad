import type { ExperimentDriver } from "./optimiser-types";
import type { ServerContext } from "@/lib/server/app-context";

export type { ExperimentDriver } from "./optimiser-types";

/**
 * Drives the experiment's runs in this process (the CLI): a worker pool that accepts only that
 * experiment's runs, at most `concurrency` at once, until none is left; then waits until none is
 * running anywhere (another process may have taken some) and reads the summary.
 */
export function inProcessDriver(context: Pick<ServerContext, "store" | "engineDeps" | "bus" | "experiments" | "service">, concurrency = 4): ExperimentDriver {
  return async (experimentId) => {
    const runIds = new Set(await context.experiments.runIds(experimentId));
    const { WorkerPool } = await import("@/lib/server/worker-pool");
    const pool = new WorkerPool(context.store, context.engineDeps, context.bus, { concurrency, accept: (runId) => runIds.has(runId) });
    try {
      pool.start();
      await pool.whenIdle();
    } finally {
      await pool.stop();
    }
    for (const runId of runIds) {
      const run = await context.service.getRun(runId);
      await pool.untilSettled(run.rootBranchId, 200);
    }
    return context.experiments.summary(experimentId);
  };
}

/**
 * Waits for the server's own workers (the web app: they drive every queued run): polls the summary
 * every `pollMs` until the experiment is no longer running.
 */
export function pollingDriver(experiments: ServerContext["experiments"], pollMs = 500): ExperimentDriver {
  return async (experimentId) => {
    for (;;) {
      const summary = await experiments.summary(experimentId);
      if (summary.status !== "running") return summary;
      await new Promise((resolve) => setTimeout(resolve, pollMs));
    }
  };
}
