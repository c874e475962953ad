// Over 400 lines: the composition root wires every service of the app in one place (DESIGN.md §2); split, the wiring order would be scattered over files.
import path from "node:path";
import type { ModelsResponse, RunDetailResponse } from "@/lib/domain/api";
import { SqliteRunStore } from "@/lib/db/sqlite-store";
import type { RunStore } from "@/lib/db/store";
import type { ModelPort } from "@/lib/engine/ports";
import type { EngineDeps } from "@/lib/engine/run-engine";
import { demoScriptBooks, environmentEntry, provideSandbox } from "@/lib/environments/registry";
import { sharedSandbox } from "@/lib/sandbox/shared-pool";
import { demoOptimiserBook } from "@/lib/environments/demo-optimiser-book";
import { MemoryGradeStore } from "@/lib/db/grade-store-memory";
import { SqliteGradeStore } from "@/lib/db/grade-store-sqlite";
import type { AuditStore } from "@/lib/db/audit-store";
import { MemoryAuditStore } from "@/lib/db/audit-store-memory";
import { SqliteAuditStore } from "@/lib/db/audit-store-sqlite";
import { JudgeGradeService } from "./judge-grade-service";
import { SearchService } from "./search-service";
import { MemorySearchIndex } from "@/lib/db/search-index-memory";
import { SqliteSearchIndex } from "@/lib/db/search-index-sqlite";
import { MemoryReviewStore } from "@/lib/db/review-store-memory";
import { SqliteReviewStore } from "@/lib/db/review-store-sqlite";
import { ReviewService } from "./review-service";
import { MemoryAnnotationStore } from "@/lib/db/annotation-store-memory";
import { SqliteAnnotationStore } from "@/lib/db/annotation-store-sqlite";
import { AnnotationService } from "./annotation-service";
import { SpendingLimitService } from "./spending-limit-service";
import { MemorySpendingLimitStore } from "@/lib/db/spending-limit-store-memory";
import { SqliteSpendingLimitStore } from "@/lib/db/spending-limit-store-sqlite";
import type { AuthPort } from "@/lib/auth/auth-port";
import { accountFinderOf, accountNameOf, openSignIn, type AccountServices } from "@/lib/auth/accounts";
import { createCachingModelPort } from "@/lib/llm/caching-model-port";
import { createModelPort } from "@/lib/llm/model-port";
import { PaperImportService } from "@/lib/importers/import-service";
import { TraceImportService } from "./trace-import-service";
import { outputLimitFor } from "@/lib/llm/output-limit";
import type { RejectedParameterMemory } from "@/lib/llm/rejected-parameters";
import { listAvailableModels } from "@/lib/llm/provider-registry";
import { checkProviderSettings } from "@/lib/llm/provider-settings-check";
import { listModelOptions, providerStatuses } from "@/lib/llm/providers/status";
import { testProviderConnection } from "@/lib/llm/providers/test-connection";
import type { ProviderId, ProvidersResponse, ProviderTestResult } from "@/lib/domain/providers";
import { RunEventBus } from "./run-event-bus";
import { BundleService } from "./bundle-service";
import { OtlpService } from "./otlp-service";
import { ExperimentExport } from "./experiment-export";
import { ExperimentService } from "./experiment-service";
import { RunService } from "./run-service";
import { MemoryTemplateStore } from "@/lib/db/memory-templates";
import { SqliteTemplateStore } from "@/lib/db/sqlite-templates";
import type { TemplateStore } from "@/lib/db/template-store";
import { TemplateService } from "./template-service";
import { OptimiserService } from "./optimiser/optimiser-service";
import { MemoryOptimisationStore } from "@/lib/db/optimisation-store-memory";
import { SqliteOptimisationStore } from "@/lib/db/optimisation-store-sqlite";
import type { OptimisationStore } from "@/lib/db/optimisation-store";
import { TemplateWorkbench } from "./template-workbench";
import { DEFAULT_CONCURRENCY, parseProviderCaps, type WorkerPool, type WorkerPoolOptions } from "./worker-pool";
import type { CallRateLimiter } from "@/lib/llm/rate-limits/call-limiter";
import { SHARED_INTENT_POLL_MS, workersFromEnv } from "./job-queue/from-env";
import { PgBossJobQueue, pgBossSettings } from "./job-queue/pg-boss-queue";
import { WorkerPool as PlainWorkerPool } from "./worker-pool";
import type { JobQueue } from "./job-queue/port";
import { callLimiterFromEnv } from "@/lib/llm/rate-limits/from-env";
import { PriceService } from "./price-service";
import { MemoryStoreService } from "./memory-store-service";
import { MemoryPriceStore } from "@/lib/db/price-store-memory";
import { SqlitePriceStore } from "@/lib/db/price-store-sqlite";
import { MemoryMemoryStoreRepository } from "@/lib/db/memory-store-entries-memory";
import { SqliteMemoryStoreRepository } from "@/lib/db/memory-store-entries-sqlite";
import type { LessonStore } from "@/lib/db/lesson-store";
import { MemoryLessonStore } from "@/lib/db/lesson-store-memory";
import { SqliteLessonStore } from "@/lib/db/lesson-store-sqlite";
import { LessonService } from "./lesson-library";
import { openNodePostgres } from "@/lib/db/pg/database";
import { isPostgresUrl } from "@/lib/db/pg/database-url";
import { PgRunStore } from "@/lib/db/pg/pg-store";
import { pgCompanionStores } from "@/lib/db/pg/companions";
import { PgFanOut } from "./pg-notify-bus";
import { parseCellArmKey } from "@/lib/domain/experiment-cells";
import { MemoryClassStore } from "@/lib/db/class-store-memory";
import { SqliteClassStore } from "@/lib/db/class-store-sqlite";
import { ClassService } from "./class-service";
import { classStudentOrigins } from "./class-lan-warning";

/** Default database file, relative to the working directory; override with REFLEXION_DB_PATH. */
export const DEFAULT_DB_PATH = ".data/playground.sqlite";

/** Everything a route or the CLI needs, wired once per process. */
export interface ServerContext {
  store: RunStore;
  bus: RunEventBus;
  /** This process's worker pool (started for the web server and `cli worker`; `cli run` drives its own run through it). */
  workers: WorkerPool;
  /** The job-queue port (pg-boss in shared mode, the pool itself when embedded). */
  jobs: JobQueue;
  experiments: ExperimentService;
  experimentExport: ExperimentExport;
  /** Imports of the authors' published logs: `REFLEXION_DATA_ROOT` or ../shared/data. */
  imports: PaperImportService;
  /** Imports of outside agents' trace files (OTLP, Inspect, LangSmith, Langfuse) as read-only runs. */
  traceImports: TraceImportService;
  service: RunService;
  /** The template library: versions, references, prompt-edit versions. */
  templates: TemplateService;
  /** The reflective optimiser (docs/optimiser.md): optimisations of templates from an experiment's failed trials. */
  optimiser: OptimiserService;
  /** Where optimisations are stored (the lineage view reads their scores). */
  optimisations: OptimisationStore;
  /** Preview, export/import and A/B on top of the library. */
  templateWorkbench: TemplateWorkbench;
  /** Run bundles: export a run or experiment as one file, import one read-only. */
  bundles: BundleService;
  /** OpenTelemetry export of runs from their logs. */
  otlp: OtlpService;
  engineDeps: EngineDeps;
  /** The editable price table; every live call is priced with it at record time. */
  prices: PriceService;
  /** Named memory stores (warm starts, writeMemory, retention). */
  memoryStores: MemoryStoreService;
  /** People's grades of judged trials and their agreement with the LLM judge. */
  judgeGrades: JudgeGradeService;
  /** The audit log (docs/audit.md): who did what; written by every state-changing request and audited CLI command. */
  audit: AuditStore;
  /** Search across runs (docs/search.md): the per-trial index, refreshed before each search. */
  search: SearchService;
  /** Review queues: people's reviews of reflections against a rubric, pairwise preferences, corrections (docs/review-queues.md). */
  reviews: ReviewService;
  /** People's annotations (comments, tags, scores) on run graph nodes: an append-only log beside the run log. */
  annotations: AnnotationService;
  /** Lessons written in the app (docs/guides/teaching.md, "Writing a lesson in the app"); the lesson service lists them with the folder's. */
  lessons: LessonStore;
  /** Budgets per person and per lab across runs (docs/budgets.md): the engine's spending gate and the admin's view. */
  spending: SpendingLimitService;
  /** Class sessions (docs/guides/teaching.md "Teaching a class"): a lesson played to a room of phones. */
  classes: ClassService;
  /** Who a request is (decision 0041): Better Auth sessions and API tokens in shared mode with sign-in on, else everyone is the local admin. */
  auth: AuthPort;
  /** Shared mode's accounts (Better Auth's `/api/auth` handler, API tokens, users); null in embedded mode, or with sign-in off and no `BETTER_AUTH_SECRET`. */
  accounts: AccountServices | null;
  models(): ModelsResponse;
  /**
   * Providers for the settings page and the model pickers (lib/llm/providers/*), read from
   * this context's env at call time; never a key value.
   */
  providers: {
    /** Every provider's status (`fresh`: re-read the model lists instead of the 60 s cache). */
    statuses(fresh?: boolean): Promise<ProvidersResponse>;
    /** The model picker's list (`GET /api/models`): curated suggestions plus the providers' own lists. */
    models(): Promise<ModelsResponse>;
    /** One tiny call to `provider` (its first model, or `modelId`): latency or error. */
    test(provider: ProviderId, modelId?: string): Promise<ProviderTestResult>;
  };
  runDetail(runId: string): Promise<RunDetailResponse>;
  /**
   * On PostgreSQL: this process's LISTEN/NOTIFY fan-out (events and live calls of other
   * app servers and workers reach this process's bus); `ready` resolves once it listens.
   */
  fanOut?: { ready: Promise<void>; stop(): Promise<void>; watched(runId: string): boolean };
  /**
   * Releases everything this context holds, so a short-lived process (every CLI command) exits:
   * stops the worker pool (its timers; driven branches stop at their next boundary and stay
   * runnable), the job queue (pg-boss: `graceful` waits for the handlers running now, default false),
   * the LISTEN fan-out, the memory-store sweep and the shared rate limiter's pool, then closes the store.
   * Safe to call twice.
   */
  close(options?: { graceful?: boolean }): Promise<void>;
}

/** The database file this process uses. */
export function databasePath(env: Record<string, string | undefined> = process.env): string {
  // The database is runtime data, not a build input: keep it out of the file tracer.
  return path.resolve(/* turbopackIgnore: true */ env.REFLEXION_DB_PATH ?? DEFAULT_DB_PATH);
}

/**
 * The run store the environment selects: PostgreSQL when `REFLEXION_DATABASE_URL` is a
 * `postgres://…` URL (shared mode, docs/shared-mode.md; the schema must be migrated with
 * `cli db migrate`), else the SQLite file at {@link databasePath} (the embedded default).
 */
export function openRunStore(env: Record<string, string | undefined> = process.env): RunStore {
  const url = env.REFLEXION_DATABASE_URL?.trim();
  if (url && !isPostgresUrl(url)) throw new Error("REFLEXION_DATABASE_URL must be a postgres://user:password@host:port/database URL (unset it to use the SQLite file).");
  return url ? new PgRunStore(openNodePostgres(url)) : new SqliteRunStore(databasePath(env));
}

/** Options of {@link createServerContext}. */
export interface ServerContextOptions {
  store?: RunStore;
  env?: Record<string, string | undefined>;
  /** The live model port (tests pass one over AI SDK mock models); it is wrapped with the response cache. */
  model?: ModelPort;
  /** Start the worker pool, so queued runs are claimed (default true; the CLI's `run` passes false). */
  startWorkers?: boolean;
  /**
   * Shared mode only (`REFLEXION_DATABASE_URL`): this process drives only the branches it is asked
   * to (`cli run`, `resume`, `fork`, `replay`, `experiment run --here`) — its pool is a plain
   * {@link WorkerPool} that never reconciles the store with the job queue nor works jobs, so a CLI
   * command never starts other runs' jobs; `jobs` is still the pg-boss queue (to enqueue, or for the
   * dead letters), started only when used. Default false. No effect on the embedded default.
   */
  driveOnly?: boolean;
  /** Overrides of the pool's settings (default from the environment). */
  workers?: WorkerPoolOptions;
  /** Written into pause and cancel requests: `web` (default), `cli`, … */
  requestedBy?: string;
  /**
   * The template library's store. Default: the SQLite file of the database when no `store` is given,
   * else an in-memory one (tests that pass a store get a library of their own).
   */
  templates?: TemplateStore;
  /** The price table's and memory stores' clock (tests); default the wall clock. */
  now?: () => Date;
}

/**
 * Composition root: wires the store, model port, environments, executor and
 * service. Exported for the CLI and tests; routes use {@link getServerContext}.
 * Short-lived callers (the CLI) release it with {@link ServerContext.close}.
 */
export function createServerContext(options: ServerContextOptions = {}): ServerContext {
  const env = options.env ?? process.env;
  const store = options.store ?? openRunStore(env);
  try {
    return wireContext(store, env, options);
  } catch (error) {
    // A bad setting (REFLEXION_RATE_LIMITS, REFLEXION_CONCURRENCY, …) must not leave the store's pool open: the process could not exit.
    if (!options.store) void store.close().catch(() => undefined);
    throw error;
  }
}

function wireContext(store: RunStore, env: Record<string, string | undefined>, options: ServerContextOptions): ServerContext {
  // The composition root gives the code family its sandbox: the process's shared pool, started on the first code run.
  provideSandbox(sharedSandbox);
  // Settings of the model port built from env that would otherwise fail every call (and a base URL
  // with a password would be quoted in the run logs); a caller's own port (tests) reads none of them.
  if (!options.model) checkProviderSettings(env);
  outputLimitFor(env);
  // Sign-in (shared mode): refuses to start on a bad setting or a missing secret, before anything opens.
  const signIn = openSignIn(store instanceof PgRunStore ? store.pg.db : null, env);
  const bus = new RunEventBus();
  // On PostgreSQL, appends of other processes (and their live calls) reach this bus at once.
  // Started last, once nothing below can throw on a bad setting (its LISTEN connection would keep the process alive).
  const pgFanOut = store instanceof PgRunStore ? new PgFanOut(store, bus) : null;
  // In shared mode the template library, prices, grades and memory stores live in the same PostgreSQL database.
  const shared = !options.store && store instanceof PgRunStore ? pgCompanionStores(store) : null;
  // On the database file, or in memory when the caller passes its own run store (tests).
  const prices = new PriceService(options.store ? new MemoryPriceStore() : (shared?.prices ?? new SqlitePriceStore(databasePath(env))), options.now);
  const memoryStores = new MemoryStoreService(options.store ? new MemoryMemoryStoreRepository() : (shared?.memoryStores ?? new SqliteMemoryStoreRepository(databasePath(env))), options.now);
  const otlp = new OtlpService(store, env);
  const spending = new SpendingLimitService(store, options.store ? new MemorySpendingLimitStore() : (shared?.spendingLimits ?? new SqliteSpendingLimitStore(databasePath(env))), accountNameOf(signIn.accounts), options.now, accountFinderOf(signIn.accounts));
  let limiter: CallRateLimiter | null = null;
  const engineDeps: EngineDeps = {
    // With REFLEXION_OTLP_LIVE=1 and an endpoint, spans are also sent as events are appended.
    log: otlp.liveLog(store),
    model: createCachingModelPort(
      options.model ??
        createModelPort({
          env,
          demoScriptBooks: [demoOptimiserBook, ...demoScriptBooks()],
          rateLimiter: (limiter = callLimiterFromEnv(env)),
          rejectedParameters: rejectedParameterMemoryOf(store),
        }),
      store,
    ),
    environmentFor: (id) => environmentEntry(id).family,
    pricing: prices.pricer(),
    memory: memoryStores.port(),
    spending,
  };
  // In shared mode (REFLEXION_DATABASE_URL) runs become pg-boss jobs for `cli worker` processes.
  const poolOptions: WorkerPoolOptions = { ...workerSettings(env), ...options.workers };
  const { workers, jobs } =
    options.driveOnly && isPostgresUrl(env.REFLEXION_DATABASE_URL)
      ? { workers: new PlainWorkerPool(store, engineDeps, bus, { intentPollMs: SHARED_INTENT_POLL_MS, ...poolOptions }), jobs: new PgBossJobQueue(env.REFLEXION_DATABASE_URL, pgBossSettings(env)) }
      : workersFromEnv(store, engineDeps, bus, poolOptions, env);
  const service = new RunService(store, workers, bus, env, options.requestedBy ?? "web");
  const experiments = new ExperimentService(store, service, workers);
  const experimentExport = new ExperimentExport(store, experiments);
  const imports = new PaperImportService(store, experiments, { env });
  const traceImports = new TraceImportService(store);
  const templates = new TemplateService(options.templates ?? (options.store ? new MemoryTemplateStore() : (shared?.templates ?? new SqliteTemplateStore(databasePath(env)))));
  service.useTemplates(templates);
  experiments.useTemplates(templates);
  const templateWorkbench = new TemplateWorkbench(templates, service, experiments);
  const bundles = new BundleService(store, templates, templateWorkbench, env);
  const optimisations = options.store ? new MemoryOptimisationStore() : (shared?.optimisations ?? new SqliteOptimisationStore(databasePath(env)));
  const optimiser = new OptimiserService({ store: optimisations, templates, experiments, runs: service, model: spending.guard(engineDeps.model), pricing: engineDeps.pricing, memoryStores });
  const judgeGrades = new JudgeGradeService(store, options.store ? new MemoryGradeStore() : (shared?.grades ?? new SqliteGradeStore(databasePath(env))), options.now);
  const audit = options.store ? new MemoryAuditStore() : (shared?.audit ?? new SqliteAuditStore(databasePath(env)));
  const annotations = new AnnotationService(store, options.store ? new MemoryAnnotationStore() : (shared?.annotations ?? new SqliteAnnotationStore(databasePath(env))), options.now);
  bundles.useAnnotations(annotations.store);
  const lessons = options.store ? new MemoryLessonStore() : (shared?.lessons ?? new SqliteLessonStore(databasePath(env)));
  // One lesson library for bundles and classes: both see the folder's and the authored lessons.
  const lessonLibrary = new LessonService({ store, service, imports, lessons }, { env });
  bundles.useLessons(lessonLibrary);
  otlp.useAnnotations(annotations.store);
  const search = new SearchService(store, options.store ? new MemorySearchIndex() : (shared?.search ?? new SqliteSearchIndex(databasePath(env))), annotations.store);
  const reviews = new ReviewService({
    reviews: options.store ? new MemoryReviewStore() : (shared?.reviews ?? new SqliteReviewStore(databasePath(env))),
    runs: store,
    experiments,
    memoryStores,
    annotations: annotations.store,
    searchTrials: (query) => search.searchTrials(query, { limit: 500 }),
    judgeGrades,
    now: options.now,
  });
  const classes = new ClassService({
    store: options.store ? new MemoryClassStore() : (shared?.classes ?? new SqliteClassStore(databasePath(env))),
    runs: service,
    lessons: lessonLibrary,
    bus,
    now: options.now,
    studentOrigins: () => classStudentOrigins(env),
  });
  bundles.useClassBranches((runId) => classes.classBranchIds(runId));
  const fanOut = pgFanOut ? { ready: pgFanOut.start(), stop: () => pgFanOut.stop(), watched: (runId: string) => pgFanOut.watched(runId) } : undefined;
  if (options.startWorkers !== false) {
    workers.start();
    memoryStores.start();
  }
  let closing: Promise<void> | null = null;
  const close = (closeOptions: { graceful?: boolean } = {}) =>
    (closing ??= (async () => {
      await workers.stop();
      await jobs.stop({ graceful: closeOptions.graceful ?? false });
      // A stop while the first LISTEN is still being set up would leave that connection open: wait for it.
      if (fanOut) await fanOut.ready.catch(() => undefined);
      await fanOut?.stop();
      memoryStores.stop();
      await limiter?.close().catch(() => undefined);
      await search.close();
      await store.close();
    })());
  return {
    close,
    store,
    bus,
    workers,
    jobs,
    experiments,
    experimentExport,
    imports,
    traceImports,
    service,
    templates,
    optimiser,
    optimisations,
    templateWorkbench,
    bundles,
    otlp,
    engineDeps,
    prices,
    memoryStores,
    judgeGrades,
    audit,
    search,
    reviews,
    annotations,
    lessons,
    spending,
    classes,
    auth: signIn.auth,
    accounts: signIn.accounts,
    fanOut,
    models: () => listAvailableModels(env),
    providers: {
      statuses: (fresh = false) => providerStatuses(env, { fresh }),
      models: () => listModelOptions(env),
      test: (provider, modelId) => testProviderConnection(provider, env, { modelId }),
    },
    runDetail: async (runId) => {
      const run = await service.getRun(runId);
      const cell = await store.experiments.experimentOfRun(run.id);
      // The stored arm key carries the repetition (lib/domain/experiment-cells.ts); people see the label.
      const experiment = cell ? { id: cell.experimentId, taskId: cell.taskId, arm: parseCellArmKey(cell.arm).arm } : null;
      return { run: { ...(await service.summary(run)), rootBranchId: run.rootBranchId, experiment } };
    },
  };
}

/** The run store as the model port's memory of rejected parameters (every adapter has the table; a test double may not). */
function rejectedParameterMemoryOf(store: RunStore): RejectedParameterMemory | null {
  const { rejectedParameters, rememberRejectedParameter } = store;
  if (!rejectedParameters || !rememberRejectedParameter) return null;
  return {
    rejectedParameters: (modelId) => rejectedParameters.call(store, modelId),
    rememberRejectedParameter: (modelId, parameter) => rememberRejectedParameter.call(store, modelId, parameter),
  };
}

/**
 * The pool's settings from the environment: `REFLEXION_CONCURRENCY` (runs driven
 * at once by one process, default 4) and `REFLEXION_PROVIDER_CONCURRENCY`
 * (per-provider caps, `openai=2,compatible=1`). In shared mode (`REFLEXION_DATABASE_URL` set)
 * `REFLEXION_CONCURRENCY=0` is allowed: an app server that only serves pages — it still
 * reconciles runs into jobs but works none (`cli worker` processes drive them).
 * @throws Error naming the variable when a value is malformed (0 without REFLEXION_DATABASE_URL too).
 */
export function workerSettings(env: Record<string, string | undefined>): WorkerPoolOptions {
  const raw = env.REFLEXION_CONCURRENCY?.trim();
  const concurrency = raw ? Number(raw) : DEFAULT_CONCURRENCY;
  const shared = isPostgresUrl(env.REFLEXION_DATABASE_URL);
  if (!Number.isInteger(concurrency) || concurrency < (shared ? 0 : 1)) {
    throw new Error(
      shared
        ? `REFLEXION_CONCURRENCY must be a whole number ≥ 0 (0: this process works no jobs, it only serves pages; got "${raw}").`
        : `REFLEXION_CONCURRENCY must be a positive whole number (got "${raw}"); 0 (a server that works no runs) needs shared mode, REFLEXION_DATABASE_URL.`,
    );
  }
  return { concurrency, providerCaps: parseProviderCaps(env.REFLEXION_PROVIDER_CONCURRENCY) };
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

/** The process-wide context if one was made, else null (never creates one: the audit hook writes only where a server runs). */
export function existingServerContext(): ServerContext | null {
  return (globalThis as GlobalWithContext)[globalKey] ?? null;
}

