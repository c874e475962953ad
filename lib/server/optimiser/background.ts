import type { ServerContext } from "@/lib/server/app-context";
import { pollingDriver } from "./experiment-driver";

/**
 * Runs an optimisation in the background of the web server: its evaluation experiments are driven
 * by the server's own workers (the driver only waits for them). The record is saved at every
 * boundary, so a server restart loses nothing done: resume it (`POST /api/optimisations/:id/resume`).
 * An error is recorded on the optimisation (status `failed`) by the service, never thrown here.
 */
export function runInBackground(context: Pick<ServerContext, "optimiser" | "experiments">, optimisationId: string): void {
  void context.optimiser.run(optimisationId, pollingDriver(context.experiments)).catch((error: unknown) => {
    console.error(`Optimisation ${optimisationId} stopped: ${error instanceof Error ? error.message : String(error)}`);
  });
}
