import { z } from "zod";
import { environmentIdSchema, strategySchema } from "@/lib/domain/config";
import { familyIds, findFamilyDescriptor } from "@/lib/environments/descriptors";

/**
 * Lessons as data (docs/decisions/0021): a lesson is a sequence of
 * steps over one run — narration in Markdown, the nodes to spotlight, a cursor
 * position, and optionally a prediction to make before the answer is revealed.
 * Files live in `lessons/*.md` (YAML front matter holding the whole lesson; the
 * Markdown body, if any, is the lesson's introduction) and are validated with
 * {@link lessonSchema} on load. Positions are named by trial / step / event kind,
 * never by raw event index, so a lesson survives a log that grows new event types.
 * Pure zod: shared by the server (lib/server/lesson-service.ts) and the client.
 */

/** The events a lesson can point at, by the name a teacher uses (mapped to event types in resolve-lesson.ts). */
export const lessonEventKinds = [
  "run-start",
  "trial-start",
  "thought",
  "action",
  "observation",
  "evaluation",
  "trial-end",
  "reflection",
  "run-end",
  // A tree-search trial's phases (LATS): selection, the first sampled child, the first value, the followed path, backpropagation.
  "tree-select",
  "tree-expansion",
  "tree-value",
  "tree-follow",
  "tree-backprop",
] as const;
export type LessonEventKind = (typeof lessonEventKinds)[number];

const trial = z.number().int().positive();
/** A ReAct step number, or `last`: the trial's last step of that kind. */
const step = z.union([z.number().int().positive(), z.literal("last")]);

/**
 * A cursor position: just `after` (default) or `before` the first event of kind `event`
 * in `trial` (and `step`, for thought / action / observation). `run-start` / `run-end`
 * take no trial.
 */
export const cursorSelectorSchema = z
  .object({
    event: z.enum(lessonEventKinds),
    trial: trial.optional(),
    step: step.optional(),
    edge: z.enum(["before", "after"]).default("after"),
  })
  .strict()
  .superRefine((value, context) => {
    const runLevel = value.event === "run-start" || value.event === "run-end";
    if (!runLevel && value.trial === undefined) context.addIssue({ code: "custom", message: `a ${value.event} cursor needs a trial (e.g. trial: 1)` });
    if (runLevel && value.trial !== undefined) context.addIssue({ code: "custom", message: `a ${value.event} cursor takes no trial` });
    const stepped = value.event === "thought" || value.event === "action" || value.event === "observation";
    if (!stepped && value.step !== undefined) context.addIssue({ code: "custom", message: `only thought, action and observation cursors take a step, not ${value.event}` });
  });
export type CursorSelector = z.infer<typeof cursorSelectorSchema>;

/** A graph node to spotlight: the node of the first event of `kind` in `trial` (and `step`); `trial` = the trial's header. */
export const nodeSelectorSchema = z
  .object({
    kind: z.enum(["trial", "thought", "action", "observation", "evaluation", "reflection"]),
    trial,
    step: step.optional(),
  })
  .strict();
export type NodeSelector = z.infer<typeof nodeSelectorSchema>;

const markdown = z.string().trim().min(1).max(4_000);

const questionBase = {
  /** The question, in Markdown. */
  prompt: markdown,
  /** Shown after the reveal: why the answer is what it is (the gap to close), in Markdown. */
  explanation: markdown,
};

/**
 * A prediction (Crouch et al. 2004, teaching-mode.md §1.3): asked with the
 * cursor *before* the answer; choices and the answer are derived from the run's log
 * (lib/lessons/predictions.ts), never typed by hand where the log can tell.
 * - `evaluator-verdict`: will the Evaluator pass trial `trial`? (`tests: hidden` — code: will the hidden tests pass?)
 * - `next-action`: which action comes next at `trial`/`step`? The log's action plus the file's `distractors`.
 * - `reflection-changes-first-action`: will trial `trial`'s first action differ from the previous trial's?
 * - `curve`: in which trial will the run first succeed (or never)?
 */
export const questionSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("evaluator-verdict"), trial, tests: z.enum(["internal", "hidden"]).default("internal"), ...questionBase }).strict(),
  z.object({ kind: z.literal("next-action"), trial, step: z.number().int().positive(), distractors: z.array(z.string().trim().min(1).max(300)).min(1).max(3), ...questionBase }).strict(),
  z.object({ kind: z.literal("reflection-changes-first-action"), trial: z.number().int().min(2), ...questionBase }).strict(),
  z.object({ kind: z.literal("curve"), ...questionBase }).strict(),
]);
export type LessonQuestion = z.infer<typeof questionSchema>;

/** One step of a lesson: a short chunk of narration, then one visible change (teaching-mode.md P1). */
export const lessonStepSchema = z
  .object({
    title: z.string().trim().min(1).max(120),
    narration: markdown,
    /** Shown instead of `narration` when the learner is on a fork of the lesson's run (their own reflection's branch); without it the step says its narration describes the model's run and what differs. */
    forkNarration: markdown.optional(),
    cursor: cursorSelectorSchema,
    /** Nodes to highlight; the first is also selected (the inspector opens on it and the graph pans to it). */
    spotlight: z.array(nodeSelectorSchema).max(8).default([]),
    question: questionSchema.optional(),
    /** A "write your own reflection" exercise at this failed trial (components/reflection-practice). */
    practice: z.object({ trial }).strict().optional(),
  })
  .strict();
export type LessonStep = z.infer<typeof lessonStepSchema>;

/**
 * The run a lesson plays: a built-in task with the offline demo model, one question of the authors'
 * imported log, or any run already in this store (`stored`: an imported log's run, a shared-link or
 * bundle-imported run, a run made here), played as it is (no new run is made).
 */
export const lessonRunSchema = z.discriminatedUnion("kind", [
  z
    .object({
      kind: z.literal("builtin"),
      environment: environmentIdSchema,
      taskId: z.string().min(1),
      strategy: strategySchema,
      maxTrials: z.number().int().min(1).max(50).optional(),
    })
    .strict(),
  z
    .object({
      kind: z.literal("imported"),
      /** The log's path relative to the shared data root (as `GET /api/imports` lists it), e.g. `reflexion/noahshinn-reflexion/hotpotqa_runs/…`. */
      log: z.string().min(1),
      /** The task (question) id in that log's experiment. */
      taskId: z.string().min(1),
    })
    .strict(),
  z
    .object({
      kind: z.literal("stored"),
      /** The run's id in this store (as `/runs/<id>` shows it); kept by a bundle's export and import. */
      runId: z.string().trim().min(1).max(200),
    })
    .strict(),
]);
export type LessonRun = z.infer<typeof lessonRunSchema>;

/** A lesson file's content (front matter). */
export const lessonSchema = z
  .object({
    id: z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, "use lower-case words joined by hyphens, e.g. why-reflexion-qa"),
    title: z.string().trim().min(1).max(120),
    summary: z.string().trim().min(1).max(400),
    family: environmentIdSchema,
    /** Rough length when presented, minutes. */
    minutes: z.number().int().min(1).max(120),
    run: lessonRunSchema,
    steps: z.array(lessonStepSchema).min(1).max(40),
  })
  .strict()
  .superRefine((lesson, context) => {
    if (!findFamilyDescriptor(lesson.family)) {
      context.addIssue({ code: "custom", path: ["family"], message: `unknown family "${lesson.family}": use one of ${familyIds().join(", ")}` });
      return;
    }
    if (lesson.run.kind === "builtin" && lesson.run.environment !== lesson.family) {
      context.addIssue({ code: "custom", path: ["run", "environment"], message: `the run's environment (${lesson.run.environment}) must be the lesson's family (${lesson.family})` });
    }
  });
export type Lesson = z.infer<typeof lessonSchema>;

/** Where a lesson comes from: a file of the lessons folder, or one written in the app (stored in the app's database). */
export const lessonSourceSchema = z.enum(["folder", "authored"]);
export type LessonSource = z.infer<typeof lessonSourceSchema>;

/**
 * A lesson as the API serves it: the file plus its introduction (the Markdown body), its file name
 * (`<id>.md` for an authored lesson) and where it comes from (`folder` when absent: older servers).
 * `updatedAt` (ISO-8601) is set for authored lessons only.
 */
export const lessonDocumentSchema = z.object({
  lesson: lessonSchema,
  introduction: z.string(),
  file: z.string(),
  source: lessonSourceSchema.default("folder"),
  updatedAt: z.string().optional(),
});
export type LessonDocument = z.infer<typeof lessonDocumentSchema>;

/** `GET /api/lessons`: every lesson that loaded, plus the files that did not (with what is wrong). */
export const lessonListResponseSchema = z.object({
  lessons: z.array(lessonDocumentSchema),
  problems: z.array(z.object({ file: z.string(), message: z.string() })),
});
export type LessonListResponse = z.infer<typeof lessonListResponseSchema>;

/** `POST /api/lessons/:id/run`: the run the lesson plays (created, or an earlier one reused). */
export const lessonRunResponseSchema = z.object({ runId: z.string(), reused: z.boolean() });
export type LessonRunResponse = z.infer<typeof lessonRunResponseSchema>;
