import { z } from "zod";
import { environmentIdSchema, strategySchema } from "./config";
import { chatMessageSchema } from "./events";
import { templateTextSchema } from "./template-check";

/**
 * The template library (docs/decisions/0018-template-library.md):
 * prompt templates per family × role × strategy with immutable versions and
 * movable labels, stored in the database and shared by runs, experiment arms,
 * the editor and the CLI.
 *
 * Contract for the UI (changes are additive only):
 * - as built: `GET /api/experiments/:id/ab` answers 404 with code `not-found` (no `not-ab` code; the
 *   message says the experiment is no template comparison); every A/B arm outcome carries `runId`.
 * - as built: `PUT …/labels/:label` answers 400 `invalid-input` for a bad label name or `latest`;
 *   a version of another template is 400 too. Unknown ids/references are 404 `not-found`.
 * - as built: preview for `summarizer` renders the memory as it stood when trial `trial` started
 *   (before any `memory-summary` of that trial), with the run's token budget or 200; `variables` is
 *   `count`, `reflections`, `tokenBudget`. `promptTokens` equals the recorded call's `contextUse.promptTokens`.
 * - as built: a run's default templates record the built-in version ids (`versionId` = the id the
 *   seeded built-in has), so "which version produced this prompt" is never null for new runs; a
 *   `prompt-edit` keeps `newTemplate.id` = the run's template id and `version` + 1, and `versionId`
 *   names the library version (look it up with `GET /api/templates/versions/:versionId`).
 * - as built: experiments pin arm `templateVersions` references to version ids at start (the stored
 *   definition has `tv-…` ids), so `GET /api/experiments/:id` shows ids, not labels.
 *
 * HTTP (app/api/templates; errors as in lib/domain/api.ts `apiErrorSchema`):
 * - `GET  /api/templates?family=&role=` → {@link templateListResponseSchema}
 * - `GET  /api/templates/:id` → {@link templateDetailResponseSchema} (versions newest first)
 * - `POST /api/templates` body {@link createTemplateRequestSchema} → {@link createTemplateResponseSchema} (201)
 * - `POST /api/templates/:id/versions` body {@link saveVersionRequestSchema} → {@link saveVersionResponseSchema}
 *   (201 when a version was created, 200 with `created: false` when the text equals an existing
 *   version of the template: that version is returned; nothing is ever edited in place)
 * - `PUT  /api/templates/:id/labels/:label` body {@link moveLabelRequestSchema} → `{ template }`
 * - `GET  /api/templates/versions/:versionId` → {@link versionDetailResponseSchema}
 *   (`:versionId` may also be a reference `templateId@label` or `templateId@v<number>`, URL-encoded)
 * - `POST /api/templates/preview` body {@link previewRequestSchema} → {@link previewResponseSchema}
 * - `GET  /api/templates/export?ids=a,b` (no ids: every template) → {@link templateBundleSchema}
 * - `POST /api/templates/import` body {@link templateBundleSchema} → {@link importResponseSchema}
 * - `POST /api/templates/ab` body {@link abRequestSchema} → `{ experimentId }` (201)
 * - `GET  /api/experiments/:id/ab` → {@link abResultSchema} (404 `not-ab` when the experiment
 *   is not a two-arm template comparison)
 *
 * Template ids: built-ins keep the family's template id (`qa/react-actor`,
 * `qa/cot-reflect`, `qa/summarize-memory`, …); templates made here get
 * `tpl-<random>`. Ids contain `/`, so clients URL-encode them in paths
 * (`encodeURIComponent`).
 *
 * Version ids are content-addressed (`tv-` + 16 hex of SHA-256 over the
 * template id and the text), so the same text of the same template has the
 * same id in every clone: an exported file imports into another clone with
 * the id the runs there would record.
 *
 * Version references (run requests, arms, `cli templates show`, the
 * `versions/:versionId` route): a version id `tv-…`, or `templateId@label`
 * (e.g. `qa/reflect@baseline`), or `templateId@v<number>` (`qa/reflect@v2`),
 * or a bare template id (its `latest`).
 *
 * Shared-schema additions (additive): `promptTemplateSchema.versionId?: string | null` (lib/domain/config.ts;
 * absent/null = a text that is no saved version), `RunConfig.memoryManagement?` (absent = window);
 * `CreateRunRequest.templateVersions?` and `.memoryManagement?` (lib/domain/api.ts), the same on experiment
 * arms (lib/domain/experiment.ts); the `prompt` edit request gains `versionId?` (use that saved version's
 * text; send its text in `text` too) and `saveAsVersion?: { message }` (save `text` as a new version of the
 * run's current template for that role; the `prompt-edit` event's `newTemplate.versionId` records it).
 *
 * The memory-summary event (lib/domain/events.ts `memory-summary`), for the memory panel:
 * `{ trial, before: MemoryItem[], after: MemoryItem[], callId, tokenBudget, beforeTokens, afterTokens }`:
 * appended just before trial `trial`'s `trial-start` when the reflections of the episodic memory exceed
 * `tokenBudget` tokens; `before` is the memory replaced, `after` the new memory (one item, the summary,
 * id = the memory-summary event's id, `trial: null`); `callId` is the Self-Reflection model call
 * (a `model-call-end` with role `reflector`, step null) that wrote it. Memory diffs treat it as a memory
 * change from `before` to `after`.
 */

/**
 * Model-facing roles a template can fill. `summarizer`: the memory summariser (called with the Self-Reflection model).
 * `evaluator`: the LLM judge's template of a family whose Evaluator is a model (`open/judge`; docs/decisions/0025).
 * `optimiser`: the reflective optimiser's meta-prompt (`<family>/optimise`; lib/domain/optimiser/meta-prompt.ts, docs/optimiser.md).
 * `value`: a tree search's value prompt (`<family>/lats-value`, LATS; lib/domain/lats-value.ts), called with the Actor's model.
 */
export const templateRoleSchema = z.enum(["actor", "reflector", "summarizer", "evaluator", "optimiser", "value"]);
export type TemplateRole = z.infer<typeof templateRoleSchema>;

/** A label name: lower-case letters, digits, `-` and `_`, e.g. `baseline`, `candidate`. `latest` is implicit (always the newest version) and cannot be set. */
export const labelNameSchema = z
  .string()
  .regex(/^[a-z][a-z0-9_-]{0,39}$/, { message: "a label is 1–40 lower-case letters, digits, - or _, starting with a letter (e.g. baseline)" })
  .refine((label) => label !== "latest", { message: "`latest` always names the newest version and cannot be moved" });

/** One template: its identity and where its labels point. Its texts are its {@link TemplateVersion}s. */
export const templateSchema = z.object({
  id: z.string().min(1),
  /** Shown in lists, e.g. "HotpotQA ReAct Actor" or the name a person gave it. */
  name: z.string().min(1).max(120),
  family: environmentIdSchema,
  role: templateRoleSchema,
  /** The strategy the template is for; null = any strategy of the family that uses the family's default templates. */
  strategy: strategySchema.nullable(),
  /** Seeded from the code: read-only (new versions may still be saved on a copy, not on it). */
  builtIn: z.boolean(),
  /** Where a built-in's text comes from, e.g. "Reflexion paper, hotpotqa_runs/prompts.py" or "ours"; null for templates made here. */
  source: z.string().nullable(),
  /** label → version id. */
  labels: z.record(z.string(), z.string()),
  /** ISO-8601. */
  createdAt: z.string(),
});
export type Template = z.infer<typeof templateSchema>;

/** One immutable version of a template. */
export const templateVersionSchema = z.object({
  /** `tv-<16 hex>`, content-addressed (see the file comment). */
  id: z.string().min(1),
  templateId: z.string().min(1),
  /** 1, 2, … within the template, in the order versions were saved (or imported). */
  number: z.number().int().positive(),
  /** The version this one was edited from; null for a template's first version. */
  parentId: z.string().nullable(),
  text: z.string().min(1),
  /** What changed and why, as a commit message. */
  message: z.string(),
  /** ISO-8601; no author is recorded. */
  createdAt: z.string(),
  builtIn: z.boolean(),
});
export type TemplateVersion = z.infer<typeof templateVersionSchema>;

/** A template with its newest version, for lists. */
export const templateListItemSchema = templateSchema.extend({
  latestVersion: templateVersionSchema,
  versionCount: z.number().int().positive(),
});
export type TemplateListItem = z.infer<typeof templateListItemSchema>;

export const templateListResponseSchema = z.object({ templates: z.array(templateListItemSchema) });
export type TemplateListResponse = z.infer<typeof templateListResponseSchema>;

export const templateDetailResponseSchema = z.object({ template: templateSchema, versions: z.array(templateVersionSchema) });
export type TemplateDetailResponse = z.infer<typeof templateDetailResponseSchema>;

export const versionDetailResponseSchema = z.object({ template: templateSchema, version: templateVersionSchema });
export type VersionDetailResponse = z.infer<typeof versionDetailResponseSchema>;

/** A new template with its first version. */
export const createTemplateRequestSchema = z.object({
  name: z.string().trim().min(1).max(120),
  family: environmentIdSchema,
  role: templateRoleSchema,
  strategy: strategySchema.nullable().default(null),
  text: templateTextSchema,
  /** Accept placeholders the family does not fill, or a text without a required one (lib/domain/template-check.ts). */
  allowUnknown: z.boolean().optional(),
  message: z.string().max(500).default(""),
  /** The version this text was derived from (e.g. a built-in's), recorded as the first version's parent. */
  parentId: z.string().nullable().optional(),
});
export type CreateTemplateRequest = z.input<typeof createTemplateRequestSchema>;
export const createTemplateResponseSchema = z.object({ template: templateSchema, version: templateVersionSchema });

/**
 * Saves an edited text. Onto a template made here it is the next version; built-in templates are
 * read-only, so onto a built-in it creates a new template (named `name`, default "<built-in> (edited)")
 * whose first version's parent is the built-in version edited from.
 */
export const saveVersionRequestSchema = z.object({
  text: templateTextSchema,
  /** Accept placeholders the family does not fill, or a text without a required one (lib/domain/template-check.ts). */
  allowUnknown: z.boolean().optional(),
  message: z.string().max(500).default(""),
  /** The version the text was edited from; default the template's newest. */
  parentId: z.string().nullable().optional(),
  /** The new template's name when the text is saved onto a built-in (ignored otherwise). */
  name: z.string().trim().min(1).max(120).optional(),
});
export type SaveVersionRequest = z.input<typeof saveVersionRequestSchema>;
export const saveVersionResponseSchema = z.object({
  version: templateVersionSchema,
  /** False when the text equalled an existing version of the template (that version is returned). */
  created: z.boolean(),
  /** The template the version belongs to: a new one when the text was saved onto a built-in. */
  template: templateSchema.optional(),
  /** True when the save onto a built-in created `template`. */
  newTemplate: z.boolean().optional(),
});

export const moveLabelRequestSchema = z.object({ versionId: z.string().min(1) });

/**
 * Renders a template for one recorded trial of a run, exactly as the engine
 * would: for `actor`, the Actor prompt of `step` (default 1) of `trial`; for
 * `reflector`, the Self-Reflection prompt after `trial`; for `summarizer`, the
 * summariser prompt over the reflections in memory when `trial` started.
 * Give `text` (unsaved editor content) or `versionId` (a version reference).
 */
export const previewRequestSchema = z
  .object({
    text: z.string().optional(),
    versionId: z.string().optional(),
    role: templateRoleSchema,
    runId: z.string().min(1),
    /** Default the run's root branch. */
    branchId: z.string().optional(),
    trial: z.number().int().positive(),
    step: z.number().int().positive().optional(),
  })
  .refine((request) => (request.text === undefined) !== (request.versionId === undefined), {
    message: "give either text or versionId",
  });
export type PreviewRequest = z.input<typeof previewRequestSchema>;
export const previewResponseSchema = z.object({
  messages: z.array(chatMessageSchema),
  /** Tokens of the rendered messages by the run's Actor (or Self-Reflection) model tokenizer (lib/domain/tokenizer.ts). */
  promptTokens: z.number().int().nonnegative(),
  /** `{name}`s in the text that the engine does not fill for this role (they reach the model as literal text). */
  unknownPlaceholders: z.array(z.string()),
  /** The names the engine fills for this role in this family, sorted. */
  variables: z.array(z.string()),
});
export type PreviewResponse = z.infer<typeof previewResponseSchema>;

/** One exported file: `path` relative to the export directory, `content` Markdown with YAML front matter (see {@link templateFileFrontMatterSchema}). */
export const templateFileSchema = z.object({ path: z.string().min(1), content: z.string() });
export type TemplateFile = z.infer<typeof templateFileSchema>;
/** Export/import bundle: one file per template version, `<family>/<template id with / as __>/v<NNN>.md`. */
export const templateBundleSchema = z.object({
  files: z.array(templateFileSchema).max(5_000),
  /** On import: keep files whose placeholders the family does not fill, or that leave a required one out (else they are skipped with the reason). */
  allowUnknown: z.boolean().optional(),
});
export type TemplateBundle = z.infer<typeof templateBundleSchema>;

/**
 * The front matter of an exported file (the body, after the front matter, is the version's text verbatim):
 * `template`, `name`, `family`, `role`, `strategy`, `source`, `builtIn`, `version` (its id), `number`,
 * `parent`, `message`, `createdAt`, `labels` (the labels that pointed at this version when exported).
 */
export const templateFileFrontMatterSchema = z.object({
  template: z.string().min(1),
  name: z.string().min(1),
  family: environmentIdSchema,
  role: templateRoleSchema,
  strategy: strategySchema.nullable().default(null),
  source: z.string().nullable().default(null),
  builtIn: z.boolean().default(false),
  version: z.string().min(1).optional(),
  number: z.number().int().positive().optional(),
  parent: z.string().nullable().default(null),
  message: z.string().default(""),
  createdAt: z.string().optional(),
  labels: z.array(z.string()).default([]),
});
export type TemplateFileFrontMatter = z.infer<typeof templateFileFrontMatterSchema>;

/** Import outcome per file: `imported` added a version; `skipped` had the same text already (idempotent) or could not be read (`reason`). */
export const importResponseSchema = z.object({
  imported: z.array(z.object({ path: z.string(), templateId: z.string(), versionId: z.string() })),
  skipped: z.array(z.object({ path: z.string(), reason: z.string(), versionId: z.string().nullable() })),
});
export type ImportResponse = z.infer<typeof importResponseSchema>;

/** "Compare versions": a two-arm experiment whose arms differ only in `role`'s template version. */
export const abRequestSchema = z.object({
  name: z.string().trim().min(1).max(120).optional(),
  family: environmentIdSchema,
  role: z.enum(["actor", "reflector"]),
  /** Version references (id, `templateId@label`, …); arm labels are `A` and `B` unless `labelA`/`labelB`. */
  versionA: z.string().min(1),
  versionB: z.string().min(1),
  labelA: z.string().trim().min(1).max(60).optional(),
  labelB: z.string().trim().min(1).max(60).optional(),
  taskSet: z.string().min(1),
  /** Empty = every task of the set. */
  taskIds: z.array(z.string().min(1)).max(2_000).default([]),
  modelId: z.string().min(1),
  maxTrials: z.number().int().min(1).max(50).default(5),
  /** Default `reflexion`. */
  strategy: strategySchema.optional(),
  concurrency: z.number().int().min(1).max(32).optional(),
});
export type AbRequest = z.input<typeof abRequestSchema>;

/** An exact paired test over tasks on the discordant pairs (see lib/domain/paired-test.ts). */
export const pairedTestSchema = z.object({
  /** Tasks with both arms ended (the sample size). */
  n: z.number().int().nonnegative(),
  /** Tasks solved by A only / by B only within the trial budget (the discordant pairs). */
  aOnly: z.number().int().nonnegative(),
  bOnly: z.number().int().nonnegative(),
  /** Two-sided exact p-value; 1 when there are no discordant pairs. */
  pValue: z.number().min(0).max(1),
  method: z.string(),
});
export type PairedTest = z.infer<typeof pairedTestSchema>;

const abArmOutcomeSchema = z.object({
  /** First successful trial, null if unsolved (or not ended). */
  solvedAtTrial: z.number().int().positive().nullable(),
  /** The arm run's reflections in trial order (text after any edits). */
  reflections: z.array(z.string()),
  runId: z.string(),
});

export const abResultSchema = z.object({
  role: z.enum(["actor", "reflector"]),
  armA: z.object({ label: z.string(), versionId: z.string() }),
  armB: z.object({ label: z.string(), versionId: z.string() }),
  /** Tasks where the arms' `solvedAtTrial` differ (solved vs not, or at different trials). */
  differingTasks: z.array(z.object({ taskId: z.string(), a: abArmOutcomeSchema, b: abArmOutcomeSchema })),
  pairedTest: pairedTestSchema,
});
export type AbResult = z.infer<typeof abResultSchema>;

/** The part of a create-run request / experiment arm that picks template versions (version references). */
export const templateVersionChoiceSchema = z.object({
  actor: z.string().min(1).optional(),
  reflector: z.string().min(1).optional(),
  /** A LATS run's value prompt (role `value`). */
  value: z.string().min(1).optional(),
});
export type TemplateVersionChoice = z.infer<typeof templateVersionChoiceSchema>;

/**
 * Memory management of a run (RunConfig.memoryManagement):
 * - `window` (default): the memory window Ω prunes the oldest reflections (today's behaviour);
 * - `summarize`: before a trial, when the reflections in memory exceed `tokenBudget` tokens, the
 *   Self-Reflection model merges them with the summariser template (`summarizerVersionId`, default
 *   the family's built-in `<family>/summarize-memory`) into one; recorded as `memory-summary`.
 */
export const memoryManagementRequestSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("window") }),
  z.object({
    kind: z.literal("summarize"),
    tokenBudget: z.number().int().min(16).max(100_000),
    summarizerVersionId: z.string().min(1).optional(),
  }),
]);
export type MemoryManagementRequest = z.infer<typeof memoryManagementRequestSchema>;
