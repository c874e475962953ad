// Over 400 lines: one schema file mirrors lib/db/schema.ts table for table, as drizzle-kit reads it.
import { bigint, boolean, doublePrecision, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
// NUL-safe: jsonb cannot hold U+0000, which text from a model or a program may contain (see the module).
import { jsonb } from "./nul-safe-jsonb";

/**
 * PostgreSQL schema (drizzle `pg-core`), mirroring the SQLite one (lib/db/schema.ts) table for
 * table and column for column, so both adapters hold the same records (docs/decisions/0027).
 * Differences: `seq` and epoch-ms columns are `bigint`; JSON columns are `jsonb`; tables listed
 * "in insertion order" carry an identity column `ord` (SQLite's `rowid`). Times stay ISO-8601
 * text, so records read back exactly as the SQLite adapter returns them.
 */

const ord = () => bigint("ord", { mode: "number" }).generatedAlwaysAsIdentity();

export const runs = pgTable(
  "runs",
  {
    id: text("id").primaryKey(),
    ord: ord(),
    createdAt: text("created_at").notNull(),
    rootBranchId: text("root_branch_id").notNull(),
    title: text("title").notNull(),
    /** RunConfig (also in the run-start event; duplicated here for listing). */
    config: jsonb("config").notNull(),
    /** The account that created it (the creating actor's userId); null when none (local, CLI, import, or made before sign-in). */
    ownerUserId: text("owner_user_id"),
  },
  (table) => [index("runs_created_at").on(table.createdAt)],
);

export const branches = pgTable(
  "branches",
  {
    id: text("id").primaryKey(),
    ord: ord(),
    runId: text("run_id")
      .notNull()
      .references(() => runs.id),
    parentBranchId: text("parent_branch_id"),
    forkSeq: bigint("fork_seq", { mode: "number" }),
    createdAt: text("created_at").notNull(),
  },
  (table) => [index("branches_run").on(table.runId)],
);

/** Events: only ever inserted. `(branch_id, seq)` is unique, so two writers can never store the same seq. */
export const events = pgTable(
  "events",
  {
    id: text("id").primaryKey(),
    runId: text("run_id")
      .notNull()
      .references(() => runs.id),
    branchId: text("branch_id")
      .notNull()
      .references(() => branches.id),
    seq: bigint("seq", { mode: "number" }).notNull(),
    type: text("type").notNull(),
    schemaVersion: integer("schema_version").notNull(),
    occurredAt: text("occurred_at").notNull(),
    causedBy: text("caused_by"),
    data: jsonb("data").notNull(),
    /** Who made the event (lib/domain/actor.ts); null when none was known or for events from before actors were recorded. */
    actor: jsonb("actor"),
  },
  (table) => [uniqueIndex("events_branch_seq").on(table.branchId, table.seq), index("events_run").on(table.runId)],
);

/** Response cache for recorded replays: one completed response per request hash (inserted with ON CONFLICT DO NOTHING). */
export const responseCache = pgTable("response_cache", {
  requestHash: text("request_hash").primaryKey(),
  response: jsonb("response").notNull(),
  createdAt: text("created_at").notNull(),
});

/** Request parameters a model's provider rejected (see the SQLite schema): one row per model and parameter. */
export const rejectedParameters = pgTable(
  "rejected_parameters",
  {
    modelId: text("model_id").notNull(),
    parameter: text("parameter").notNull(),
    rejectedAt: text("rejected_at").notNull(),
  },
  (table) => [primaryKey({ columns: [table.modelId, table.parameter] })],
);

/** Which process executes a branch, until when (epoch ms), and the call it waits on. */
export const branchLeases = pgTable("branch_leases", {
  branchId: text("branch_id")
    .primaryKey()
    .references(() => branches.id),
  owner: text("owner").notNull(),
  expiresAt: bigint("expires_at", { mode: "number" }).notNull(),
  /** CallActivity (transient) or null. */
  activity: jsonb("activity"),
});

/** The per-branch summary read model, updated in the same transaction as every append. */
export const branchSummaries = pgTable(
  "branch_summaries",
  {
    branchId: text("branch_id")
      .primaryKey()
      .references(() => branches.id),
    runId: text("run_id")
      .notNull()
      .references(() => runs.id),
    status: text("status").notNull(),
    queuedAt: text("queued_at").notNull(),
    /** BranchSummaryState. */
    summary: jsonb("summary").notNull(),
  },
  (table) => [index("branch_summaries_status").on(table.status, table.queuedAt), index("branch_summaries_run").on(table.runId)],
);

export const taskSets = pgTable(
  "task_sets",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    environment: text("environment").notNull(),
    createdAt: text("created_at").notNull(),
    tasks: jsonb("tasks").notNull(),
    problems: jsonb("problems").notNull(),
    contentHash: text("content_hash"),
    /** Number of tasks, stored so listing the sets never reads their tasks. */
    taskCount: integer("task_count").notNull().default(0),
  },
  (table) => [index("task_sets_hash").on(table.environment, table.contentHash)],
);

export const experiments = pgTable(
  "experiments",
  {
    id: text("id").primaryKey(),
    ord: ord(),
    createdAt: text("created_at").notNull(),
    name: text("name").notNull(),
    /** ExperimentDefinition (with `provenance` under its own key for imported logs, as in SQLite). */
    definition: jsonb("definition").notNull(),
    taskSetName: text("task_set_name").notNull(),
    /** The account that created it (the creating actor's userId); null when none (local, CLI, import, or made before sign-in). */
    ownerUserId: text("owner_user_id"),
  },
  (table) => [index("experiments_created_at").on(table.createdAt)],
);

/** Each (experiment, task, arm) cell's run: one, and only one, per cell. */
export const experimentRuns = pgTable(
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
    position: integer("position").notNull(),
  },
  (table) => [
    uniqueIndex("experiment_runs_cell").on(table.experimentId, table.taskId, table.arm),
    uniqueIndex("experiment_runs_run").on(table.runId),
    index("experiment_runs_position").on(table.experimentId, table.position),
  ],
);

/** The maintained results of a finished experiment, as in SQLite (lib/db/schema.ts `experimentSummaries`). ExperimentSummary JSON. */
export const experimentSummaries = pgTable("experiment_summaries", {
  experimentId: text("experiment_id")
    .primaryKey()
    .references(() => experiments.id),
  fingerprint: text("fingerprint").notNull(),
  summary: jsonb("summary").notNull(),
  /** ISO-8601. */
  computedAt: text("computed_at").notNull(),
});

/** A run's trial statistics once its root branch has ended, as in SQLite (lib/db/schema.ts `runTrialStats`). RunTrialStats JSON. */
export const runTrialStats = pgTable("run_trial_stats", {
  runId: text("run_id")
    .primaryKey()
    .references(() => runs.id),
  branchId: text("branch_id").notNull(),
  lastSeq: integer("last_seq").notNull(),
  version: integer("version").notNull(),
  stats: jsonb("stats").notNull(),
});

/** Template library: one row per template; `labels` maps label → version id. */
export const templates = pgTable(
  "templates",
  {
    id: text("id").primaryKey(),
    ord: ord(),
    name: text("name").notNull(),
    family: text("family").notNull(),
    role: text("role").notNull(),
    strategy: text("strategy"),
    builtIn: boolean("built_in").notNull(),
    source: text("source"),
    labels: jsonb("labels").notNull(),
    createdAt: text("created_at").notNull(),
  },
  (table) => [index("templates_family_role").on(table.family, table.role)],
);

/** Immutable template versions: a trigger (migration 0001) refuses UPDATE and DELETE, as SQLite's do. */
export const templateVersions = pgTable(
  "template_versions",
  {
    id: text("id").primaryKey(),
    templateId: text("template_id")
      .notNull()
      .references(() => templates.id),
    number: integer("number").notNull(),
    parentId: text("parent_id"),
    text: text("text").notNull(),
    message: text("message").notNull(),
    createdAt: text("created_at").notNull(),
    builtIn: boolean("built_in").notNull(),
  },
  (table) => [uniqueIndex("template_versions_number").on(table.templateId, table.number)],
);

/** Run bundles imported here, keyed by the manifest's content hash. */
export const bundles = pgTable("bundles", {
  contentHash: text("content_hash").primaryKey(),
  importedAt: text("imported_at").notNull(),
  fileName: text("file_name").notNull(),
  /** The manifest's JSON text exactly as imported (text, not jsonb: it is returned byte for byte). */
  manifest: text("manifest").notNull(),
  runIds: jsonb("run_ids").notNull(),
  experimentIds: jsonb("experiment_ids").notNull(),
});

/** Price table: rows only appended; the newest at or before a call's time applies. */
export const prices = pgTable(
  "prices",
  {
    id: text("id").primaryKey(),
    provider: text("provider").notNull(),
    model: text("model").notNull(),
    inputUsdPerMTok: doublePrecision("input_usd_per_mtok").notNull(),
    outputUsdPerMTok: doublePrecision("output_usd_per_mtok").notNull(),
    cachedInputUsdPerMTok: doublePrecision("cached_input_usd_per_mtok"),
    enteredAt: text("entered_at").notNull(),
    note: text("note").notNull(),
  },
  (table) => [index("prices_model").on(table.provider, table.model, table.enteredAt)],
);

/** Named memory stores: reflections kept across runs with a retention period (days). */
export const memoryStores = pgTable("memory_stores", {
  name: text("name").primaryKey(),
  retentionDays: doublePrecision("retention_days").notNull(),
  createdAt: text("created_at").notNull(),
});

export const memoryEntries = pgTable(
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

/** A person's grade of one judged trial; one per (run, branch, trial). */
export const humanGrades = pgTable(
  "human_grades",
  {
    id: text("id").primaryKey(),
    runId: text("run_id")
      .notNull()
      .references(() => runs.id),
    branchId: text("branch_id").notNull(),
    trial: integer("trial").notNull(),
    taskId: text("task_id").notNull(),
    verdict: text("verdict").notNull(),
    criteria: jsonb("criteria"),
    note: text("note").notNull(),
    judgeVerdict: text("judge_verdict").notNull(),
    judgeScore: doublePrecision("judge_score").notNull(),
    gradedAt: text("graded_at").notNull(),
  },
  (table) => [uniqueIndex("human_grades_trial").on(table.runId, table.branchId, table.trial)],
);

/** Reflective optimisations: the SQLite table's twin (lib/db/schema.ts `optimisations`), `record` as jsonb. */
export const optimisations = pgTable(
  "optimisations",
  {
    id: text("id").primaryKey(),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
    status: text("status").notNull(),
    targetTemplateId: text("target_template_id").notNull(),
    record: jsonb("record").notNull(),
    leaseOwner: text("lease_owner"),
    leaseExpiresAt: bigint("lease_expires_at", { mode: "number" }),
  },
  (table) => [index("optimisations_target_template").on(table.targetTemplateId)],
);

// Search across runs (lib/db/search-index.ts, docs/search.md). A derived index: no foreign keys. The GIN
// index over `to_tsvector('simple', text)` is created at run time by lib/db/pg/pg-search-index.ts.

/** How far each branch's log is indexed: the branch summary's `lastSeq` when it was last read. */
export const searchBranches = pgTable("search_branches", {
  branchId: text("branch_id").primaryKey(),
  runId: text("run_id").notNull(),
  indexedSeq: integer("indexed_seq").notNull(),
});

/** One row per trial of each indexed branch; `meta` is the TrialDocumentMeta (lib/domain/search-documents.ts). */
export const searchTrials = pgTable(
  "search_trials",
  {
    key: text("key").primaryKey(),
    branchId: text("branch_id").notNull(),
    runId: text("run_id").notNull(),
    meta: jsonb("meta").notNull(),
  },
  (table) => [index("search_trials_branch").on(table.branchId)],
);

/** The searched texts of each indexed trial, with the event that drew each. */
export const searchNodes = pgTable(
  "search_nodes",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
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

/** Review queues: the SQLite table's twin (lib/db/schema.ts `reviewQueues`), `record` as jsonb. */
export const reviewQueues = pgTable("review_queues", {
  id: text("id").primaryKey(),
  createdAt: text("created_at").notNull(),
  record: jsonb("record").notNull(),
});

/** The items of a queue by position (lib/db/schema.ts `reviewItems`). */
export const reviewItems = pgTable(
  "review_items",
  {
    id: text("id").primaryKey(),
    queueId: text("queue_id")
      .notNull()
      .references(() => reviewQueues.id),
    position: integer("position").notNull(),
    record: jsonb("record").notNull(),
  },
  (table) => [uniqueIndex("review_items_position").on(table.queueId, table.position)],
);

/** Reviews, one per queue, item and reviewer (lib/db/schema.ts `reviews`). */
export const reviews = pgTable(
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
    record: jsonb("record").notNull(),
  },
  (table) => [uniqueIndex("reviews_item_reviewer").on(table.queueId, table.itemId, table.reviewer)],
);

// Annotations (people's comments, tags and scores on run graph nodes).

/** The annotation log: the SQLite table's twin (lib/db/schema.ts `annotation_events`), `seq` an identity column, `data` as jsonb. */
export const annotationEvents = pgTable(
  "annotation_events",
  {
    id: text("id").primaryKey(),
    seq: bigint("seq", { mode: "number" }).generatedAlwaysAsIdentity(),
    runId: text("run_id")
      .notNull()
      .references(() => runs.id, { onDelete: "cascade" }),
    annotationId: text("annotation_id").notNull(),
    type: text("type").notNull(),
    data: jsonb("data").notNull(),
    occurredAt: text("occurred_at").notNull(),
  },
  (table) => [index("annotation_events_run").on(table.runId), index("annotation_events_annotation").on(table.annotationId)],
);

// Budgets per person and per lab (lib/domain/spending-limits.ts).

/** Budgets across runs: the SQLite table's twin (lib/db/schema.ts `spending_limits`). */
export const spendingLimits = pgTable(
  "spending_limits",
  {
    scope: text("scope").notNull(),
    period: text("period").notNull(),
    usd: doublePrecision("usd"),
    tokens: bigint("tokens", { mode: "number" }),
    updatedAt: text("updated_at").notNull(),
    updatedBy: text("updated_by"),
  },
  (table) => [primaryKey({ columns: [table.scope, table.period] })],
);

/** The spend ledger: the SQLite table's twin (lib/db/schema.ts `spend_ledger`); rows are added to with ON CONFLICT. */
export const spendLedger = pgTable(
  "spend_ledger",
  {
    userKey: text("user_key").notNull(),
    day: text("day").notNull(),
    usd: doublePrecision("usd").notNull().default(0),
    tokens: bigint("tokens", { mode: "number" }).notNull().default(0),
    calls: integer("calls").notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.userKey, table.day] }), index("spend_ledger_day").on(table.day)],
);

// Sign-in (Better Auth's tables, lib/auth/better-auth.ts, and per-person API tokens, lib/auth/api-tokens.ts).

/** Better Auth's `user` model: one account per person; `role` is ours (viewer | runner | admin). */
export const authUsers = pgTable("auth_users", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  email: text("email").notNull().unique(),
  emailVerified: boolean("email_verified").notNull().default(false),
  image: text("image"),
  role: text("role").notNull().default("viewer"),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/** Better Auth's `session` model: a browser's session, ended at `expiresAt` or on sign-out. */
export const authSessions = pgTable(
  "auth_sessions",
  {
    id: text("id").primaryKey(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    token: text("token").notNull().unique(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
    userId: text("user_id")
      .notNull()
      .references(() => authUsers.id, { onDelete: "cascade" }),
  },
  (table) => [index("auth_sessions_user").on(table.userId)],
);

/** Better Auth's `account` model: a way to sign in (`credential` holds the scrypt password hash; an OIDC provider its tokens). */
export const authAccounts = pgTable(
  "auth_accounts",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id").notNull(),
    providerId: text("provider_id").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => authUsers.id, { onDelete: "cascade" }),
    accessToken: text("access_token"),
    refreshToken: text("refresh_token"),
    idToken: text("id_token"),
    accessTokenExpiresAt: timestamp("access_token_expires_at", { withTimezone: true }),
    refreshTokenExpiresAt: timestamp("refresh_token_expires_at", { withTimezone: true }),
    scope: text("scope"),
    password: text("password"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("auth_accounts_user").on(table.userId)],
);

/** Better Auth's `verification` model (OIDC state, one-time values). */
export const authVerifications = pgTable(
  "auth_verifications",
  {
    id: text("id").primaryKey(),
    identifier: text("identifier").notNull(),
    value: text("value").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("auth_verifications_identifier").on(table.identifier)],
);

/** Better Auth's rate-limit counters (`rateLimit.storage: "database"`), shared by every app server. `last_request`: epoch ms. */
export const authRateLimits = pgTable("auth_rate_limits", {
  id: text("id").primaryKey(),
  key: text("key").notNull().unique(),
  count: integer("count").notNull(),
  lastRequest: bigint("last_request", { mode: "number" }).notNull(),
});

/** Per-person API tokens: only the SHA-256 of the secret is stored; revoked or expired tokens stop at once. Times ISO-8601. */
export const apiTokens = pgTable(
  "api_tokens",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => authUsers.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    secretHash: text("secret_hash").notNull().unique(),
    prefix: text("prefix").notNull(),
    createdAt: text("created_at").notNull(),
    lastUsedAt: text("last_used_at"),
    expiresAt: text("expires_at"),
    revokedAt: text("revoked_at"),
  },
  (table) => [index("api_tokens_user").on(table.userId)],
);

// Audit (who did what: every state-changing request and CLI command).

/** The audit log: the SQLite table's twin (lib/db/schema.ts `audit_log`), `actor` and `target` as jsonb. */
export const auditLog = pgTable(
  "audit_log",
  {
    id: text("id").primaryKey(),
    ord: ord(),
    at: text("at").notNull(),
    actor: jsonb("actor").notNull(),
    action: text("action").notNull(),
    target: jsonb("target").notNull(),
    status: integer("status").notNull(),
    detail: text("detail"),
  },
  (table) => [index("audit_log_at").on(table.at)],
);

// Class sessions (lib/db/schema.ts `classes` … `classForks`).

/** A class (lib/db/schema.ts `classes`); `revealed_steps` is jsonb. */
export const classes = pgTable(
  "classes",
  {
    id: text("id").primaryKey(),
    code: text("code").notNull(),
    lessonId: text("lesson_id").notNull(),
    lessonTitle: text("lesson_title").notNull(),
    runId: text("run_id").notNull(),
    teacherSecretHash: text("teacher_secret_hash").notNull(),
    status: text("status").notNull(),
    step: integer("step").notNull(),
    revealedSteps: jsonb("revealed_steps").notNull(),
    maxStudents: integer("max_students").notNull(),
    createdBy: text("created_by"),
    createdAt: text("created_at").notNull(),
    endsAt: text("ends_at").notNull(),
    endedAt: text("ended_at"),
    version: integer("version").notNull(),
  },
  (table) => [uniqueIndex("classes_code").on(table.code), index("classes_created").on(table.createdAt), index("classes_run").on(table.runId)],
);

/** A class's students (lib/db/schema.ts `classStudents`). */
export const classStudents = pgTable(
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

/** One answer per student per step (lib/db/schema.ts `classAnswers`). */
export const classAnswers = pgTable(
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

/** One reflection per student per practice step (lib/db/schema.ts `classReflections`). */
export const classReflections = pgTable(
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

/** The forks a class ran (lib/db/schema.ts `classForks`); `cleared` after a reset. */
export const classForks = pgTable(
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
    cleared: boolean("cleared").notNull().default(false),
  },
  (table) => [index("class_forks_class").on(table.classId), index("class_forks_run").on(table.runId)],
);

/** Lessons written in the app: the lesson file's text keyed by the lesson's id (as SQLite's `lessons`). */
export const lessons = pgTable("lessons", {
  id: text("id").primaryKey(),
  fileText: text("file_text").notNull(),
  updatedAt: text("updated_at").notNull(),
});
