import { queryOptions } from "@tanstack/react-query";
import { z } from "zod";
import {
  CLASS_STUDENT_HEADER,
  CLASS_TEACHER_HEADER,
  classByCodeResponseSchema,
  classCreateResponseSchema,
  classForksResponseSchema,
  classJoinResponseSchema,
  classListResponseSchema,
  classStudentViewSchema,
  classTeacherViewSchema,
  type ClassCreateRequest,
} from "@/lib/domain/class-session";
import { fetchJson, retryUnlessClientError } from "./fetch-json";

/**
 * Class sessions' API calls (app/api/classes/**, contract in lib/domain/class-session.ts) as
 * TanStack Query options and plain functions for the mutations. Every view query is refetched
 * when the class's stream reports a new version ({@link classKeys}`.views(id)` is the prefix to
 * invalidate); none polls on its own.
 */

/** Query keys: `["class", id, …]` is the prefix of every view of one class. */
export const classKeys = {
  list: () => ["classes"] as const,
  views: (classId: string) => ["class", classId] as const,
  teacher: (classId: string, projector: boolean) => ["class", classId, projector ? "projector" : "teacher"] as const,
  student: (classId: string) => ["class", classId, "student"] as const,
  byCode: (code: string) => ["class-code", code] as const,
};

const path = (classId: string, tail = "") => `/api/classes/${encodeURIComponent(classId)}${tail}`;
/** Any JSON (the teacher actions' answers are not read: the stream's next version brings the new view). */
const anything = z.unknown();

/** `GET /api/classes`: the classes the caller may teach, newest first. */
export const classListQuery = () =>
  queryOptions({
    queryKey: classKeys.list(),
    queryFn: ({ signal }) => fetchJson("/api/classes", classListResponseSchema, { signal }),
    retry: retryUnlessClientError,
  });

/**
 * `GET /api/classes/:id` with the teacher secret (403 without a valid one); `projector` asks for
 * `?view=projector` (every nickname null). `secret` null: the query is disabled (the page asks for the link).
 */
export const classTeacherQuery = (classId: string, secret: string | null, projector: boolean) =>
  queryOptions({
    queryKey: classKeys.teacher(classId, projector),
    queryFn: ({ signal }) =>
      fetchJson(path(classId, projector ? "?view=projector" : ""), classTeacherViewSchema, { signal, headers: { [CLASS_TEACHER_HEADER]: secret ?? "" } }),
    enabled: secret !== null,
    retry: retryUnlessClientError,
  });

/** `GET /api/classes/:id/student` with the student's token (403 when the server does not know it). */
export const classStudentQuery = (classId: string, token: string | null) =>
  queryOptions({
    queryKey: classKeys.student(classId),
    queryFn: ({ signal }) => fetchJson(path(classId, "/student"), classStudentViewSchema, { signal, headers: { [CLASS_STUDENT_HEADER]: token ?? "" } }),
    enabled: token !== null,
    retry: retryUnlessClientError,
  });

/** `GET /api/classes/by-code/:code` (public): which class a join code opens; 404 with "check the code on the projector". */
export const classByCodeQuery = (code: string) =>
  queryOptions({
    queryKey: classKeys.byCode(code),
    queryFn: ({ signal }) => fetchJson(`/api/classes/by-code/${encodeURIComponent(code)}`, classByCodeResponseSchema, { signal }),
    retry: retryUnlessClientError,
  });

/** `POST /api/classes`: starts a class; the answer carries the teacher secret, once. */
export function createClass(body: ClassCreateRequest) {
  return fetchJson("/api/classes", classCreateResponseSchema, { method: "POST", body });
}

/** `POST /api/classes/join`: joins by code with a nickname; errors (409 taken / full, 410 ended, 429) carry the server's advice. */
export function joinClass(code: string, nickname: string) {
  return fetchJson("/api/classes/join", classJoinResponseSchema, { method: "POST", body: { code, nickname } });
}

/** A teacher action on a class: `step` / `reveal` (`{ step }`), `end`, `reset` (no body). Throws the server's 403 / 409 / 410 as an ApiRequestError. */
export function classTeacherAction(classId: string, secret: string, action: "step" | "reveal" | "end" | "reset", step?: number) {
  return fetchJson(path(classId, `/${action}`), anything, {
    method: "POST",
    body: step === undefined ? {} : { step },
    headers: { [CLASS_TEACHER_HEADER]: secret },
  });
}

/** `POST /api/classes/:id/forks`: runs trial N+1 with each picked reflection group on its own branch. */
export function runClassForks(classId: string, secret: string, step: number, groupIds: string[]) {
  return fetchJson(path(classId, "/forks"), classForksResponseSchema, { method: "POST", body: { step, groupIds }, headers: { [CLASS_TEACHER_HEADER]: secret } });
}

/** `POST /api/classes/:id/answers`: the student's choice at the current step (changeable until the reveal). */
export function answerClassStep(classId: string, token: string, step: number, choiceId: string) {
  return fetchJson(path(classId, "/answers"), anything, { method: "POST", body: { step, choiceId }, headers: { [CLASS_STUDENT_HEADER]: token } });
}

/** `POST /api/classes/:id/reflections`: the student's reflection at the current practice step (replaceable until forks run). */
export function submitClassReflection(classId: string, token: string, step: number, text: string) {
  return fetchJson(path(classId, "/reflections"), anything, { method: "POST", body: { step, text }, headers: { [CLASS_STUDENT_HEADER]: token } });
}
