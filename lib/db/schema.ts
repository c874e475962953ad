// Over 400 lines: drizzle-kit reads the whole SQLite schema from this one file (drizzle.config.ts) and diffs it into migrations; each table is one short block.
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

/**
 * SQLite schema (drizzle). Events are the source of truth and are only ever
 * inserted; `runs` and `branches` hold identity and metadata; `run_leases` says
 * which process is executing a run (so a run whose executor died shows as interrupted).
 */
export const runs = sqliteTable(
  "runs",
  {
    id: text("id").primaryKey(),
    createdAt: text("created_at").notNull(),
    rootBranchId: text("root_branch_id").notNull(),
    title: text("title").notNull(),
    /** RunConfig JSON (also in the run-start event; duplicated here for listing). */
    config: text("config").notNull(),
    /** The account that created it (the creating actor's userId); null when none (local, CLI, import, or made before sign-in). */
    ownerUserId: text("owner_user_id"),
  },
  (table) => [index("runs_created_at").on(table.createdAt)],
);

export const branches = sqliteTable("branches", {
  id: text("id").primaryKey(),
  runId: text("run_id")
    .notNull()
    .references(() => runs.id),
  parentBranchId: text("parent_branch_id"),
  forkSeq: integer("fork_seq"),
  createdAt: text("created_at").notNull(),
});

export const events = sqliteTable(
  "events",
  {
    id: text("id").primaryKey(),
    runId: text("run_id")
      .notNull()
      .references(() => runs.id),
    branchId: text("branch_id")
      .notNull()
      .references(() => branches.id),
    seq: integer("seq").notNull(),
    type: text("type").notNull(),
    schemaVersion: integer("schema_version").notNull(),
    occurredAt: text("occurred_at").notNull(),
    causedBy: text("caused_by"),
    data: text("data").notNull(),
    /** Who made the event (lib/domain/actor.ts), JSON; null when none was known or for events from before actors were recorded. */
    actor: text("actor"),
  },
  (table) => [uniqueIndex("events_branch_seq").on(table.branchId, table.seq), index("events_run").on(table.runId)],
);

/**
 * Response cache for recorded replays (DESIGN.md §1 "Replay"): one completed
 * model response per request hash (provider, model, settings, messages).
 */
export const responseCache = sqliteTable("response_cache", {
  requestHash: text("request_hash").primaryKey(),
  /** JSON of the cached response (text, usage, finish reason). */
  response: text("response").notNull(),
  createdAt: text("created_at").notNull(),
});

/**
 * Request parameters a model's provider rejected with HTTP 400 (lib/llm/rejected-parameters.ts):
 * the model port leaves them out of that model's later calls, in every process, so a resume
 * after a restart does not fail on them again. One row per model and parameter.
 */
export const rejectedParameters = sqliteTable(
  "rejected_parameters",
  {
    modelId: text("model_id").notNull(),
    /** `stopSequences`, `temperature` or `maxOutputTokens`. */
    parameter: text("parameter").notNull(),
    rejectedAt: text("rejected_at").notNull(),
  },
  (table) => [primaryKey({ columns: [table.modelId, table.parameter] })],
);

/** Which process executes a branch (replaces run_leases, which keyed by run). */
export const branchLeases = sqliteTable("branch_leases", {
  branchId: text("branch_id")
    .primaryKey()
    .references(() => branches.id),
  owner: text("owner").notNull(),
  /** Epoch ms after which the lease is void. */
  expiresAt: integer("expires_at").notNull(),
  /** JSON CallActivity: the model call the holder waits on now (transient), or null. */
  activity: text("activity"),
});

/**
 * The per-branch summary read model (lib/domain/branch-summary.ts), updated in
 * the same transaction as every append, so lists, status reads and the
 * scheduler never refold a whole log. Created at a branch's first own event.
 */
export const branchSummaries = sqliteTable(
  "branch_summaries",
  {
    branchId: text("branch_id")
      .primaryKey()
      .references(() => branches.id),
    runId: text("run_id")
      .notNull()
      .references(() => runs.id),
    /** The log's status (running / paused / ended / error), for the scheduler's query. */
    status: text("status").notNull(),
    /** ISO-8601 time the branch last became runnable (created, resumed, forked). */
    queuedAt: text("queued_at").notNull(),
    /** JSON BranchSummaryState. */
    summary: text("summary").notNull(),
  },
  (table) => [index("branch_summaries_status").on(table.status, table.queuedAt), index("branch_summaries_run").on(table.runId)],
);

/** @deprecated kept for the migration history; leases are per branch now ({@link branchLeases}). */
export const runLeases = sqliteTable("run_leases", {
  runId: text("run_id")
    .primaryKey()
    .references(() => runs.id),
  owner: text("owner").notNull(),
  /** Epoch ms after which the lease is void. */
  expiresAt: integer("expires_at").notNull(),
});

export const taskSets = sqliteTable("task_sets", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  environment: text("environment").notNull(),
  createdAt: text("created_at").notNull(),
  /** JSON array of task snapshots. */
  tasks: text("tasks").notNull(),
  /** JSON array of problem strings found while loading. */
  problems: text("problems").notNull(),
  /** SHA-256 of the imported file's content, so importing the same file twice reuses the set. */
  contentHash: text("content_hash"),
  /** Number of tasks, stored so listing the sets never reads their tasks. */
  taskCount: integer("task_count").notNull().default(0),
});

/** Experiments (lib/domain/experiment.ts): a task set × arms × trials; the definition is JSON. */
export const experiments = sqliteTable(
  "experiments",
  {
    id: text("id").primaryKey(),
    createdAt: text("created_at").notNull(),
    name: text("name").notNull(),
    /** JSON ExperimentDefinition, with its task ids resolved. */
    definition: text("definition").notNull(),
    taskSetName: text("task_set_name").notNull(),
    /** The account that created it (the creating actor's userId); null when none (local, CLI, import, or made before sign-in). */
    ownerUserId: text("owner_user_id"),
  },
  (table) => [index("experiments_created_at").on(table.createdAt)],
);

/** Each (experiment, task, arm) cell's run: one, and only one, per cell. */
export const experimentRuns = sqliteTable(
  "experiment_runs",
  {
    experimentId: text("experiment_id")
      .notNull()
      .references(() => experiments.id),
    taskId: text("task_id").notNull(),
    arm: text("arm").notNull(),
    runId: text("run_id")
      .notNull()
      .references(() => runs.id),
    /** Creation order within the experiment. */
    position: integer("position").notNull(),
  },
  (table) => [
    uniqueIndex("experiment_runs_cell").on(table.experimentId, table.taskId, table.arm),
    uniqueIndex("experiment_runs_run").on(table.runId),
    index("experiment_runs_position").on(table.experimentId, table.position),
  ],
);

/**
 * The maintained results of a finished experiment (lib/server/experiment-summary-cache.ts): the
 * summary computed once every cell's run has ended, with the fingerprint of the cells it was computed
 * from; a read whose cells give another fingerprint recomputes it. JSON ExperimentSummary.
 */
export const experimentSummaries = sqliteTable("experiment_summaries", {
  experimentId: text("experiment_id")
    .primaryKey()
    .references(() => experiments.id),
  fingerprint: text("fingerprint").notNull(),
  summary: text("summary").notNull(),
  /** ISO-8601. */
  computedAt: text("computed_at").notNull(),
});

/**
 * A run's trial statistics (lib/domain/run-trial-stats.ts), stored once its root branch has ended
 * (lib/server/run-trial-stats.ts), so an experiment's CSV export reads no logs. Valid only while
 * `branch_id` is still the run's root branch, `last_seq` its newest seq and `version` the rules'
 * version; any other entry is recomputed from the log. JSON RunTrialStats.
 */
export const runTrialStats = sqliteTable("run_trial_stats", {
  runId: text("run_id")
    .primaryKey()
    .references(() => runs.id),
  branchId: text("branch_id").notNull(),
  lastSeq: integer("last_seq").notNull(),
  version: integer("version").notNull(),
  stats: text("stats").notNull(),
});

/** Template library (lib/domain/template-library.ts): one row per template; `labels` is JSON label → version id. */
export const templates = sqliteTable(
  "templates",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    family: text("family").notNull(),
    role: text("role").notNull(),
    /** Null = any strategy. */
    strategy: text("strategy"),
    builtIn: integer("built_in", { mode: "boolean" }).notNull(),
    source: text("source"),
    labels: text("labels").notNull(),
    createdAt: text("created_at").notNull(),
  },
  (table) => [index("templates_family_role").on(table.family, table.role)],
);

/** Immutable template versions: rows are only inserted (a trigger in the migration refuses UPDATE and DELETE). */
export const templateVersions = sqliteTable(
  "template_versions",
  {
    /** Content-addressed: lib/db/template-store.ts `templateVersionId`. */
    id: text("id").primaryKey(),
    templateId: text("template_id")
      .notNull()
      .references(() => templates.id),
    number: integer("number").notNull(),
    parentId: text("parent_id"),
    text: text("text").notNull(),
    message: text("message").notNull(),
    createdAt: text("created_at").notNull(),
    builtIn: integer("built_in", { mode: "boolean" }).notNull(),
  },
  (table) => [uniqueIndex("template_versions_number").on(table.templateId, table.number)],
);

/**
 * Run bundles imported here (docs/decisions/0026): one row per bundle, keyed by its
 * manifest's content hash (SHA-256 hex), so importing the same bundle twice returns the same runs
 * and `/shared/<hash>` finds them. `runIds` / `experimentIds`: JSON arrays of what it brought in.
 */
export const bundles = sqliteTable("bundles", {
  contentHash: text("content_hash").primaryKey(),
  importedAt: text("imported_at").notNull(),
  /** The file name it was imported from (or "upload"). */
  fileName: text("file_name").notNull(),
  /** JSON of the bundle's manifest as imported. */
  manifest: text("manifest").notNull(),
  runIds: text("run_ids").notNull(),
  experimentIds: text("experiment_ids").notNull(),
});

/**
 * Price table (lib/llm/pricing.ts, docs/decisions/0024): rows are only appended — an edit
 * adds a newer dated row for the same provider + model, the newest at or before a call's time applies.
 */
export const prices = sqliteTable(
  "prices",
  {
    id: text("id").primaryKey(),
    provider: text("provider").notNull(),
    /** The model without the provider, or `*`. */
    model: text("model").notNull(),
    inputUsdPerMTok: real("input_usd_per_mtok").notNull(),
    outputUsdPerMTok: real("output_usd_per_mtok").notNull(),
    /** Null = unknown. */
    cachedInputUsdPerMTok: real("cached_input_usd_per_mtok"),
    enteredAt: text("entered_at").notNull(),
    note: text("note").notNull(),
  },
  (table) => [index("prices_model").on(table.provider, table.model, table.enteredAt)],
);

/** Named memory stores (lib/domain/memory-store.ts): reflections kept across runs with a retention period. */
export const memoryStores = sqliteTable("memory_stores", {
  name: text("name").primaryKey(),
  retentionDays: real("retention_days").notNull(),
  createdAt: text("created_at").notNull(),
});

/** A memory store's entries: one reflection each, unique per (store, source reflection event). */
export const memoryEntries = sqliteTable(
  "memory_entries",
  {
    id: text("id").primaryKey(),
    store: text("store")
      .notNull()
      .references(() => memoryStores.name, { onDelete: "cascade" }),
    environment: text("environment").notNull(),
    taskId: text("task_id").notNull(),
    text: text("text").notNull(),
    sourceRunId: text("source_run_id").notNull(),
    sourceBranchId: text("source_branch_id").notNull(),
    sourceTrial: integer("source_trial").notNull(),
    sourceEventId: text("source_event_id").notNull(),
    createdAt: text("created_at").notNull(),
    expiresAt: text("expires_at").notNull(),
    /** An ExpeL insight's provenance as JSON (lib/domain/memory-store.ts `insightProvenanceSchema`); null for a reflection. */
    provenance: text("provenance"),
  },
  (table) => [
    uniqueIndex("memory_entries_source").on(table.store, table.sourceEventId),
    index("memory_entries_task").on(table.store, table.environment, table.taskId, table.createdAt),
    index("memory_entries_expiry").on(table.expiresAt),
  ],
);

/**
 * A person's grade of one judged trial (the judge-agreement view): pass/fail and
 * optionally per criterion, beside the LLM judge's verdict as it was recorded when the person graded
 * (`judge_verdict`, from the trial's `evaluation-end`). One grade per (run, branch, trial); grading
 * again replaces it. docs/decisions/0025-llm-judge-open-tasks.md.
 */
export const humanGrades = sqliteTable(
  "human_grades",
  {
    id: text("id").primaryKey(),
    runId: text("run_id")
      .notNull()
      .references(() => runs.id),
    branchId: text("branch_id").notNull(),
    trial: integer("trial").notNull(),
    taskId: text("task_id").notNull(),
    /** `pass` or `fail`. */
    verdict: text("verdict").notNull(),
    /** JSON `{ [criterionId]: "pass" | "fail" }`, or null when graded as a whole only. */
    criteria: text("criteria"),
    note: text("note").notNull(),
    /** The judge's verdict of that trial when graded (`pass` / `fail`). */
    judgeVerdict: text("judge_verdict").notNull(),
    judgeScore: real("judge_score").notNull(),
    gradedAt: text("graded_at").notNull(),
  },
  (table) => [uniqueIndex("human_grades_trial").on(table.runId, table.branchId, table.trial)],
);

/**
 * Reflective optimisations (lib/domain/optimiser/types.ts, docs/optimiser.md): one row per
 * optimisation; `record` is its whole JSON record (request, split, candidates, spend), rewritten
 * at every boundary so a restarted process resumes where it stopped. `lease_owner` /
 * `lease_expires_at` say which process works on it (claimed with a conditional update).
 */
export const optimisations = sqliteTable(
  "optimisations",
  {
    id: text("id").primaryKey(),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
    status: text("status").notNull(),
    targetTemplateId: text("target_template_id").notNull(),
    record: text("record").notNull(),
    /** Which process works on it (`host:pid:random`, lib/server/lease-owner.ts); null when none. Kept out of `record` so a save never moves it. */
    leaseOwner: text("lease_owner"),
    /** Epoch ms after which the lease is void (the holder renews it while it works). */
    leaseExpiresAt: integer("lease_expires_at"),
  },
  (table) => [index("optimisations_target_template").on(table.targetTemplateId)],
);

// Search across runs (lib/db/search-index.ts, docs/search.md). A derived index, rebuilt from the logs at
// will: no foreign keys. The FTS5 table `search_nodes_fts` over `search_nodes` (external content) and its
// triggers are created at run time by lib/db/search-index-sqlite.ts (drizzle cannot express them).

/** How far each branch's log is indexed: the branch summary's `lastSeq` when it was last read. */
export const searchBranches = sqliteTable("search_branches", {
  branchId: text("branch_id").primaryKey(),
  runId: text("run_id").notNull(),
  indexedSeq: integer("indexed_seq").notNull(),
});

/** One row per trial of each indexed branch; `meta` is the JSON TrialDocumentMeta (lib/domain/search-documents.ts). */
export const searchTrials = sqliteTable(
  "search_trials",
  {
    key: text("key").primaryKey(),
    branchId: text("branch_id").notNull(),
    runId: text("run_id").notNull(),
    meta: text("meta").notNull(),
  },
  (table) => [index("search_trials_branch").on(table.branchId)],
);

/** The searched texts (thought, action, observation, reflection) of each indexed trial, with the event that drew each. */
export const searchNodes = sqliteTable(
  "search_nodes",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    trialKey: text("trial_key").notNull(),
    branchId: text("branch_id").notNull(),
    eventId: text("event_id").notNull(),
    field: text("field").notNull(),
    /** The ReAct step; null for a reflection. */
    step: integer("step"),
    text: text("text").notNull(),
  },
  (table) => [index("search_nodes_branch").on(table.branchId)],
);

// Review queues (lib/domain/review-queue.ts, docs/review-queues.md)

/**
 * Review queues: one row per queue; `record` is the whole queue as JSON (name, kind, rubric,
 * reviewers, source, seed), written once when the queue is built.
 */
export const reviewQueues = sqliteTable("review_queues", {
  id: text("id").primaryKey(),
  createdAt: text("created_at").notNull(),
  record: text("record").notNull(),
});

/** The items of a queue, one row each, by position; `record` is the item as JSON (its nodes' text as when the queue was built). */
export const reviewItems = sqliteTable(
  "review_items",
  {
    id: text("id").primaryKey(),
    queueId: text("queue_id")
      .notNull()
      .references(() => reviewQueues.id),
    position: integer("position").notNull(),
    record: text("record").notNull(),
  },
  (table) => [uniqueIndex("review_items_position").on(table.queueId, table.position)],
);

/** One reviewer's review of one item (saving again replaces it: unique queue, item, reviewer); `record` is the review as JSON. */
export const reviews = sqliteTable(
  "reviews",
  {
    queueId: text("queue_id")
      .notNull()
      .references(() => reviewQueues.id),
    itemId: text("item_id")
      .notNull()
      .references(() => reviewItems.id),
    reviewer: text("reviewer").notNull(),
    reviewedAt: text("reviewed_at").notNull(),
    record: text("record").notNull(),
  },
  (table) => [uniqueIndex("reviews_item_reviewer").on(table.queueId, table.itemId, table.reviewer)],
);

// Annotations (people's comments, tags and scores on run graph nodes).

/**
 * The annotation log (lib/domain/annotations.ts, docs/annotations.md): append-only add / edit /
 * delete events beside the run log, never written by the engine. `seq` is the store's global order,
 * assigned as `max(seq) + 1` inside the appending statement (SQLite allows AUTOINCREMENT only on the
 * rowid primary key, and `id` is the event's own id, kept across bundle imports). `data` is the
 * event's JSON without the columns (target, parent, author, content, origin).
 */
export const annotationEvents = sqliteTable(
  "annotation_events",
  {
    id: text("id").primaryKey(),
    seq: integer("seq").notNull(),
    runId: text("run_id")
      .notNull()
      .references(() => runs.id, { onDelete: "cascade" }),
    annotationId: text("annotation_id").notNull(),
    /** `annotation-add`, `annotation-edit` or `annotation-delete`. */
    type: text("type").notNull(),
    data: text("data").notNull(),
    occurredAt: text("occurred_at").notNull(),
  },
  (table) => [uniqueIndex("annotation_events_seq").on(table.seq), index("annotation_events_run").on(table.runId), index("annotation_events_annotation").on(table.annotationId)],
);

// Budgets per person and per lab (lib/domain/spending-limits.ts).

/** Budgets across runs: one row per scope (`lab`, `each-person`, `person:<user id>`) and period (`day`, `month`). */
export const spendingLimits = sqliteTable(
  "spending_limits",
  {
    scope: text("scope").notNull(),
    period: text("period").notNull(),
    usd: real("usd"),
    tokens: integer("tokens"),
    updatedAt: text("updated_at").notNull(),
    updatedBy: text("updated_by"),
  },
  (table) => [primaryKey({ columns: [table.scope, table.period] })],
);

/** The spend ledger: live calls' USD and tokens by run owner (`""`: no owner) and UTC day, added to per call. */
export const spendLedger = sqliteTable(
  "spend_ledger",
  {
    userKey: text("user_key").notNull(),
    day: text("day").notNull(),
    usd: real("usd").notNull().default(0),
    tokens: integer("tokens").notNull().default(0),
    calls: integer("calls").notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.userKey, table.day] }), index("spend_ledger_day").on(table.day)],
);

// Audit (who did what: every state-changing request and CLI command).

/**
 * The audit log (lib/db/audit-store.ts): one row per state-changing API request or CLI command,
 * after it ran (refused ones too). `actor` and `target` are JSON; only ever inserted.
 */
export const auditLog = sqliteTable(
  "audit_log",
  {
    id: text("id").primaryKey(),
    /** ISO-8601. */
    at: text("at").notNull(),
    /** The Actor (lib/domain/actor.ts) as JSON. */
    actor: text("actor").notNull(),
    /** `POST /api/runs/[id]/fork`, `cli users add`, … */
    action: text("action").notNull(),
    /** The route's params or the command's arguments, as JSON. */
    target: text("target").notNull(),
    /** HTTP status (a CLI command: 0 when it succeeded, else its exit code). */
    status: integer("status").notNull(),
    detail: text("detail"),
  },
  (table) => [index("audit_log_at").on(table.at)],
);

// Class sessions (lib/domain/class-session.ts, lib/db/class-store.ts, docs/guides/teaching.md).

/**
 * A class: a lesson played to a room. `code` is the join code (unique); `teacher_secret_hash` the
 * sha256 hex of the teacher secret; `revealed_steps` a JSON array of step indexes; `version` is
 * bumped on every change of the class or its rows (the SSE stream sends it).
 */
export const classes = sqliteTable(
  "classes",
  {
    id: text("id").primaryKey(),
    code: text("code").notNull(),
    lessonId: text("lesson_id").notNull(),
    lessonTitle: text("lesson_title").notNull(),
    runId: text("run_id").notNull(),
    teacherSecretHash: text("teacher_secret_hash").notNull(),
    /** `open` | `ended`. */
    status: text("status").notNull(),
    step: integer("step").notNull(),
    revealedSteps: text("revealed_steps").notNull(),
    maxStudents: integer("max_students").notNull(),
    createdBy: text("created_by"),
    /** ISO-8601 times. */
    createdAt: text("created_at").notNull(),
    endsAt: text("ends_at").notNull(),
    endedAt: text("ended_at"),
    version: integer("version").notNull(),
  },
  (table) => [uniqueIndex("classes_code").on(table.code), index("classes_created").on(table.createdAt), index("classes_run").on(table.runId)],
);

/** A class's students: the nickname typed, its clash key (unique per class) and the sha256 hex of the student's token. */
export const classStudents = sqliteTable(
  "class_students",
  {
    id: text("id").primaryKey(),
    classId: text("class_id")
      .notNull()
      .references(() => classes.id),
    nickname: text("nickname").notNull(),
    nicknameKey: text("nickname_key").notNull(),
    tokenHash: text("token_hash").notNull(),
    joinedAt: text("joined_at").notNull(),
  },
  (table) => [uniqueIndex("class_students_nickname").on(table.classId, table.nicknameKey), index("class_students_token").on(table.classId, table.tokenHash)],
);

/** One answer per student per step (saving again replaces it). */
export const classAnswers = sqliteTable(
  "class_answers",
  {
    classId: text("class_id")
      .notNull()
      .references(() => classes.id),
    studentId: text("student_id").notNull(),
    step: integer("step").notNull(),
    choiceId: text("choice_id").notNull(),
    answeredAt: text("answered_at").notNull(),
  },
  (table) => [primaryKey({ columns: [table.classId, table.studentId, table.step] })],
);

/** One reflection per student per practice step (saving again replaces it). */
export const classReflections = sqliteTable(
  "class_reflections",
  {
    classId: text("class_id")
      .notNull()
      .references(() => classes.id),
    studentId: text("student_id").notNull(),
    step: integer("step").notNull(),
    text: text("text").notNull(),
    submittedAt: text("submitted_at").notNull(),
  },
  (table) => [primaryKey({ columns: [table.classId, table.studentId, table.step] })],
);

/**
 * The forks a class ran: a branch of the lesson's run per picked reflection. `run_id` is the
 * lesson's run (its branch lists leave these branches out); `cleared` is 1 after a reset (the row
 * stays so the branch stays known as a class branch).
 */
export const classForks = sqliteTable(
  "class_forks",
  {
    branchId: text("branch_id").primaryKey(),
    classId: text("class_id")
      .notNull()
      .references(() => classes.id),
    runId: text("run_id").notNull(),
    step: integer("step").notNull(),
    groupId: text("group_id").notNull(),
    text: text("text").notNull(),
    trial: integer("trial").notNull(),
    createdAt: text("created_at").notNull(),
    cleared: integer("cleared").notNull().default(0),
  },
  (table) => [index("class_forks_class").on(table.classId), index("class_forks_run").on(table.runId)],
);

/**
 * Lessons written in the app (lib/db/lesson-store.ts): the lesson file's text (YAML front matter +
 * introduction, parsed with parseLessonFile on read), keyed by the lesson's id.
 */
export const lessons = sqliteTable("lessons", {
  id: text("id").primaryKey(),
  /** The whole `.md` file text. */
  fileText: text("file_text").notNull(),
  /** ISO-8601. */
  updatedAt: text("updated_at").notNull(),
});
