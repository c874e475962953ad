import { createServerContext, type ServerContext, type ServerContextOptions } from "@/lib/server/app-context";

/**
 * The context of one CLI command: the same database as the web app, requests recorded as `cli`,
 * and a worker pool that claims nothing by itself. In shared mode (`REFLEXION_DATABASE_URL`) it is
 * `driveOnly`: the command drives only what it is asked to (the run `cli run` follows), never
 * reconciles the queue nor works other runs' jobs. Release it with {@link ServerContext.close}
 * (every command does, in a `finally`), or the pg pools, pg-boss and the LISTEN connection keep the
 * process alive after the command has ended.
 */
export function cliContext(options: ServerContextOptions = {}): ServerContext {
  return createServerContext({ startWorkers: false, requestedBy: "cli", driveOnly: true, ...options });
}
