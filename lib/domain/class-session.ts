import { z } from "zod";

/**
 * Class sessions (docs/decisions/0043-class-sessions.md, docs/guides/teaching.md "Teaching a
 * class"): a teacher plays a lesson to a room; students join from their phones with a short code
 * and a nickname (no accounts), answer the lesson's predictions, write reflections, and watch
 * the teacher run trial N+1 with the reflections the class picked, each on its own branch.
 *
 * This file is the contract between the server (lib/server/class-service.ts, app/api/classes/**)
 * and the pages (app/classes, app/join, app/class): the stored records, the request bodies and
 * the three views (teacher / projector, student). Pure zod; the rules that compute views
 * (codes, nicknames, grouping, histograms, scores) are in lib/domain/class-rules.ts.
 */

/** Header carrying a student's token (from `POST /api/classes/join`) on student calls. */
export const CLASS_STUDENT_HEADER = "x-class-student";
/** Header carrying the teacher secret (returned once when the class is created) on teacher calls. */
export const CLASS_TEACHER_HEADER = "x-class-teacher";

/** Default and bounds of a class's length, minutes (a class ends by itself at `endsAt`). */
export const CLASS_MINUTES = { default: 60, min: 5, max: 240 } as const;
/** Default most students in one class (joins beyond it: 409). */
export const CLASS_MAX_STUDENTS = 60;
/** Longest nickname, characters after trimming. */
export const NICKNAME_MAX = 24;
/** Longest reflection, characters after trimming. */
export const REFLECTION_MAX = 600;
/** Most reflection groups one fork request may run. */
export const FORK_GROUPS_MAX = 4;

/** Whether a class still takes writes: `ended` by the teacher or by its clock (`endsAt`). */
export const classStatusSchema = z.enum(["open", "ended"]);
export type ClassStatus = z.infer<typeof classStatusSchema>;

// ---------------------------------------------------------------- stored records

/** A class as stored (lib/db/class-store.ts). Holds the sha256 of the teacher secret, never the secret. */
export const classRecordSchema = z.object({
  id: z.string().min(1),
  /** The join code (6 characters of {@link JOIN_CODE_ALPHABET}), unique among classes. */
  code: z.string().min(1),
  lessonId: z.string().min(1),
  lessonTitle: z.string(),
  /** The lesson's run (LessonService.ensureRun); class forks are branches of it. */
  runId: z.string().min(1),
  /** sha256 hex of the teacher secret. */
  teacherSecretHash: z.string().min(1),
  status: classStatusSchema,
  /** The current step, a 0-based index into the lesson's steps. */
  step: z.number().int().min(0),
  /** Step indexes whose answer the teacher revealed. */
  revealedSteps: z.array(z.number().int().min(0)),
  maxStudents: z.number().int().positive(),
  /** Who started it (user id in shared mode with sign-in; null otherwise). */
  createdBy: z.string().nullable(),
  /** ISO-8601 times. */
  createdAt: z.string(),
  endsAt: z.string(),
  endedAt: z.string().nullable(),
  /** Bumped on every change of the class, its students, answers, reflections or forks. */
  version: z.number().int().min(0),
});
export type ClassRecord = z.infer<typeof classRecordSchema>;

/** A student as stored: the nickname they typed and the sha256 of their token. */
export const classStudentRecordSchema = z.object({
  id: z.string().min(1),
  classId: z.string().min(1),
  nickname: z.string(),
  tokenHash: z.string().min(1),
  joinedAt: z.string(),
});
export type ClassStudentRecord = z.infer<typeof classStudentRecordSchema>;

/** One student's answer to one step's question (one per student per step). */
export const classAnswerRecordSchema = z.object({
  classId: z.string(),
  studentId: z.string(),
  step: z.number().int().min(0),
  choiceId: z.string(),
  answeredAt: z.string(),
});
export type ClassAnswerRecord = z.infer<typeof classAnswerRecordSchema>;

/** One student's reflection at one practice step (one per student per step). */
export const classReflectionRecordSchema = z.object({
  classId: z.string(),
  studentId: z.string(),
  step: z.number().int().min(0),
  text: z.string(),
  submittedAt: z.string(),
});
export type ClassReflectionRecord = z.infer<typeof classReflectionRecordSchema>;

/** A fork the teacher ran: trial N+1 of the lesson's run with one group's reflection, on its own branch. */
export const classForkRecordSchema = z.object({
  classId: z.string(),
  step: z.number().int().min(0),
  groupId: z.string(),
  /** The reflection the branch was given (the group's representative). */
  text: z.string(),
  branchId: z.string(),
  /** The trial the branch runs (N+1). */
  trial: z.number().int().positive(),
  createdAt: z.string(),
});
export type ClassForkRecord = z.infer<typeof classForkRecordSchema>;

// ---------------------------------------------------------------- requests

/** `POST /api/classes` body. */
export const classCreateRequestSchema = z
  .object({
    lessonId: z.string().trim().min(1).max(120),
    /** Length of the class, minutes (default 60, 5..240). */
    minutes: z.number().int().min(CLASS_MINUTES.min).max(CLASS_MINUTES.max).default(CLASS_MINUTES.default),
  })
  .strict();
export type ClassCreateRequest = z.infer<typeof classCreateRequestSchema>;

/** `POST /api/classes/join` body (the nickname's rules are checked by `checkNickname`, with messages). */
export const classJoinRequestSchema = z
  .object({
    code: z.string().trim().min(1).max(32),
    nickname: z.string().max(200),
  })
  .strict();
export type ClassJoinRequest = z.infer<typeof classJoinRequestSchema>;

const stepIndex = z.number().int().min(0).max(1000);

/** `POST /api/classes/:id/step` and `/reveal` body: a 0-based step index. */
export const classStepRequestSchema = z.object({ step: stepIndex }).strict();
export type ClassStepRequest = z.infer<typeof classStepRequestSchema>;

/** `POST /api/classes/:id/forks` body: 1..4 reflection groups of the step to run as trial N+1. */
export const classForksRequestSchema = z
  .object({
    step: stepIndex,
    groupIds: z.array(z.string().min(1).max(100)).min(1).max(FORK_GROUPS_MAX, `pick at most ${FORK_GROUPS_MAX} reflections to run`),
  })
  .strict();
export type ClassForksRequest = z.infer<typeof classForksRequestSchema>;

/** `POST /api/classes/:id/answers` body. */
export const classAnswerRequestSchema = z.object({ step: stepIndex, choiceId: z.string().min(1).max(100) }).strict();
export type ClassAnswerRequest = z.infer<typeof classAnswerRequestSchema>;

/** `POST /api/classes/:id/reflections` body (text 1..600 characters after trimming). */
export const classReflectionRequestSchema = z
  .object({
    step: stepIndex,
    text: z.string().trim().min(1, "write a reflection first").max(REFLECTION_MAX, `a reflection is at most ${REFLECTION_MAX} characters`),
  })
  .strict();
export type ClassReflectionRequest = z.infer<typeof classReflectionRequestSchema>;

// ---------------------------------------------------------------- views

/** A lesson step as the class sees it: resolved on the run's log; the question's answer is NOT in it. */
export const classStepSchema = z.object({
  index: z.number().int().min(0),
  title: z.string(),
  /** Markdown. */
  narration: z.string(),
  /** Events shown (lib/lessons/resolve-lesson.ts). */
  cursor: z.number().int().min(0),
  spotlightNodeIds: z.array(z.string()),
  question: z
    .object({
      kind: z.string(),
      /** Markdown. */
      prompt: z.string(),
      choices: z.array(z.object({ id: z.string(), label: z.string() })),
    })
    .nullable(),
  practice: z.object({ trial: z.number().int().positive() }).nullable(),
});
export type ClassStep = z.infer<typeof classStepSchema>;

/** Near-duplicate reflections grouped server-side; `nicknames` is null on the projector. */
export const classReflectionGroupSchema = z.object({
  /** Stable while its first member keeps their text: what `POST …/forks` names. */
  id: z.string(),
  /** The representative text (the group's first submission). */
  text: z.string(),
  members: z.number().int().positive(),
  nicknames: z.array(z.string()).nullable(),
});
export type ClassReflectionGroup = z.infer<typeof classReflectionGroupSchema>;

/** A class fork with its progress, read from the branch's log. */
export const classForkSchema = z.object({
  groupId: z.string(),
  text: z.string(),
  branchId: z.string(),
  status: z.enum(["running", "succeeded", "failed"]),
  trial: z.number().int().positive(),
  /** The demo's key facts the reflection matched (as the practice rubric shows them). */
  matchedFacts: z.array(z.string()),
});
export type ClassFork = z.infer<typeof classForkSchema>;

/** After the reveal: the right choice, the lesson's explanation (Markdown) and what the log says. */
const revealFields = {
  answerId: z.string().nullable(),
  /** The lesson's explanation, Markdown (after the reveal; null before). */
  explanation: z.string().nullable(),
  /** What the log says, e.g. "The Evaluator: FAIL (trial 1)." (after the reveal; null before). */
  fact: z.string().nullable(),
};

/** `GET /api/classes/:id` (teacher) and `?view=projector` (every nickname null). */
export const classTeacherViewSchema = z.object({
  id: z.string(),
  code: z.string(),
  joinPath: z.string(),
  /**
   * Origins phones reach the server at (`http://192.168.1.20:3000` in class LAN mode, where the
   * teacher's page itself is on loopback; `REFLEXION_PUBLIC_URL`'s origin when set); empty: use the
   * page's own origin. The QR code and the printed URL are `studentOrigins[0] + joinPath`.
   */
  studentOrigins: z.array(z.string()),
  lesson: z.object({ id: z.string(), title: z.string() }),
  runId: z.string(),
  status: classStatusSchema,
  endsAt: z.string(),
  step: z.number().int().min(0),
  steps: z.array(classStepSchema),
  students: z.array(z.object({ id: z.string(), nickname: z.string().nullable() })),
  version: z.number().int().min(0),
  current: z.object({
    answers: z.object({
      /** How many students answered the current step. */
      count: z.number().int().min(0),
      /** Answers per choice id (every choice present, 0 included); null until the reveal. */
      byChoice: z.record(z.string(), z.number().int().min(0)).nullable(),
      revealed: z.boolean(),
      ...revealFields,
    }),
    reflections: z.array(classReflectionGroupSchema),
  }),
  forks: z.array(classForkSchema),
  /** The class score table: revealed questions only; nickname null on the projector. Best first. */
  score: z.array(z.object({ nickname: z.string().nullable(), correct: z.number().int().min(0), answered: z.number().int().min(0) })),
});
export type ClassTeacherView = z.infer<typeof classTeacherViewSchema>;

/** `GET /api/classes/:id/student`: what one student sees (never another student's nickname or answer before the reveal). */
export const classStudentViewSchema = z.object({
  classId: z.string(),
  nickname: z.string(),
  status: classStatusSchema,
  step: classStepSchema,
  myAnswer: z.string().nullable(),
  revealed: z.boolean(),
  /** Answers per choice id, only after the reveal. */
  histogram: z.record(z.string(), z.number().int().min(0)).nullable(),
  ...revealFields,
  myReflection: z.string().nullable(),
  forks: z.array(classForkSchema),
  score: z.object({ correct: z.number().int().min(0), answered: z.number().int().min(0) }),
});
export type ClassStudentView = z.infer<typeof classStudentViewSchema>;

/** One row of `GET /api/classes`. */
export const classSummarySchema = z.object({
  id: z.string(),
  code: z.string(),
  lessonId: z.string(),
  lessonTitle: z.string(),
  status: classStatusSchema,
  students: z.number().int().min(0),
  createdAt: z.string(),
  endsAt: z.string(),
});
export type ClassSummary = z.infer<typeof classSummarySchema>;

/** `POST /api/classes` 201 answer: the teacher secret is returned here once, never again. */
export const classCreateResponseSchema = z.object({ class: classTeacherViewSchema, teacherSecret: z.string(), joinPath: z.string() });
export type ClassCreateResponse = z.infer<typeof classCreateResponseSchema>;

/** `GET /api/classes` answer, newest first. */
export const classListResponseSchema = z.object({ classes: z.array(classSummarySchema) });
export type ClassListResponse = z.infer<typeof classListResponseSchema>;

/** `GET /api/classes/by-code/:code` answer (public). */
export const classByCodeResponseSchema = z.object({ classId: z.string(), lessonTitle: z.string(), status: classStatusSchema });
export type ClassByCodeResponse = z.infer<typeof classByCodeResponseSchema>;

/** `POST /api/classes/join` 201 answer: keep `studentToken` (localStorage) and send it as `x-class-student`. */
export const classJoinResponseSchema = z.object({ classId: z.string(), studentId: z.string(), studentToken: z.string(), nickname: z.string() });
export type ClassJoinResponse = z.infer<typeof classJoinResponseSchema>;

/** `POST /api/classes/:id/forks` answer: every fork of the class (the new ones running). */
export const classForksResponseSchema = z.object({ forks: z.array(classForkSchema) });
export type ClassForksResponse = z.infer<typeof classForksResponseSchema>;

/** The SSE `version` event's data on `GET /api/classes/:id/stream`: only the number; clients refetch their view. */
export const classVersionEventSchema = z.object({ version: z.number().int().min(0) });
export type ClassVersionEvent = z.infer<typeof classVersionEventSchema>;

/** The student join path for a code: `/join/<CODE>`. */
export function joinPathFor(code: string): string {
  return `/join/${code}`;
}
