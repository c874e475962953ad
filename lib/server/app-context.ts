import path from "node:path";
import type { ModelsResponse, RunDetailResponse } from "@/lib/domain/api";
import { SqliteRunStore } from "@/lib/db/sqlite-store";
import type { RunStore } from "@/lib/db/store";
import type { ModelPort } from "@/lib/engine/ports";
import type { EngineDeps } from "@/lib/engine/run-engine";
import { environmentEntry } from "@/lib/environments/registry";
import { codeDemoScriptBook } from "@/lib/environments/code/demo-script";
import { householdDemoScriptBook } from "@/lib/environments/household/demo-script";
import { qaDemoScriptBook } from "@/lib/environments/qa/demo-script";
import { createCachingModelPort } from "@/lib/llm/caching-model-port";
import { createModelPort } from "@/lib/llm/model-port";
import { listAvailableModels } from "@/lib/llm/provider-registry";
import { RunEventBus } from "./run-event-bus";
import { RunExecutor } from "./run-executor";
import { RunService } from "./run-service";

/** Default database file, relative to the working directory; override with REFLEXION_DB_PATH. */
export const DEFAULT_DB_PATH = ".data/playground.sqlite";

/** Everything a route or the CLI needs, wired once per process. */
export interface ServerContext {
  store: RunStore;
  bus: RunEventBus;
  executor: RunExecutor;
  service: RunService;
  engineDeps: EngineDeps;
  models(): ModelsResponse;
  runDetail(runId: string): Promise<RunDetailResponse>;
}

/** The database file this process uses. */
export function databasePath(env: Record<string, string | undefined> = process.env): string {
  // The database is runtime data, not a build input: keep it out of the file tracer.
  return path.resolve(/* turbopackIgnore: true */ env.REFLEXION_DB_PATH ?? DEFAULT_DB_PATH);
}

/**
 * Composition root: wires the store, model port, environments, executor and
 * service. Exported for the CLI and tests; routes use {@link getServerContext}.
 */
export function createServerContext(
  options: {
    store?: RunStore;
    env?: Record<string, string | undefined>;
    /** The live model port (tests pass one over AI SDK mock models); it is wrapped with the response cache. */
    model?: ModelPort;
  } = {},
): ServerContext {
  const env = options.env ?? process.env;
  const store = options.store ?? new SqliteRunStore(databasePath(env));
  const bus = new RunEventBus();
  const engineDeps: EngineDeps = {
    log: store,
    model: createCachingModelPort(
      options.model ?? createModelPort({ env, demoScriptBooks: [codeDemoScriptBook, qaDemoScriptBook, householdDemoScriptBook] }),
      store,
    ),
    environmentFor: (id) => environmentEntry(id).family,
  };
  const executor = new RunExecutor(store, engineDeps, bus);
  const service = new RunService(store, executor, bus, env);
  return {
    store,
    bus,
    executor,
    service,
    engineDeps,
    models: () => listAvailableModels(env),
    runDetail: async (runId) => {
      const run = await service.getRun(runId);
      return { run: { ...(await service.summary(run)), rootBranchId: run.rootBranchId } };
    },
  };
}

const globalKey = Symbol.for("reflexion-playground.server-context");
type GlobalWithContext = typeof globalThis & { [globalKey]?: ServerContext };

/**
 * The process-wide context, kept on `globalThis` so Next's dev hot reload does
 * not open the database twice.
 */
export function getServerContext(): ServerContext {
  const holder = globalThis as GlobalWithContext;
  holder[globalKey] ??= createServerContext();
  return holder[globalKey];
}
