"use client";

import { queryOptions } from "@tanstack/react-query";
import { humanGradeSchema, judgeGradesResponseSchema, type GradeRequest } from "@/lib/domain/judge-grades";
import { fetchJson } from "./fetch-json";

/** Query keys of the judge-agreement view. */
export const judgeGradeKeys = { all: ["judge-grades"] as const };

/** `GET /api/judge-grades`: judged trials, grades and agreement. */
export const judgeGradesQuery = () =>
  queryOptions({
    queryKey: judgeGradeKeys.all,
    queryFn: ({ signal }) => fetchJson("/api/judge-grades", judgeGradesResponseSchema, { signal }),
    retry: 1,
  });

/** `POST /api/judge-grades`: grade one judged trial (again = replace). */
export function postGrade(grade: GradeRequest) {
  return fetchJson("/api/judge-grades", humanGradeSchema, { method: "POST", body: grade });
}
