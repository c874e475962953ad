import { queryOptions } from "@tanstack/react-query";
import { lessonDocumentSchema, lessonListResponseSchema, lessonRunResponseSchema } from "@/lib/lessons/lesson-schema";
import { fetchJson } from "./fetch-json";

/** Query key of the run a lesson plays (its own root: never invalidated by run queries). */
export const lessonRunKey = (lessonId: string) => ["lesson-run", lessonId] as const;

/**
 * `POST /api/lessons/:id/run`: the run the lesson plays, made on first use and reused
 * afterwards (idempotent on the server, so a query — not a mutation — is right: refetching is harmless).
 */
export const lessonRunQuery = (lessonId: string) =>
  queryOptions({
    queryKey: lessonRunKey(lessonId),
    queryFn: ({ signal }) => fetchJson(`/api/lessons/${encodeURIComponent(lessonId)}/run`, lessonRunResponseSchema, { method: "POST", signal }),
    staleTime: Infinity,
    retry: false,
  });

/** `GET /api/lessons`: every lesson file that validates, and the problems of the others. */
export const lessonListQuery = () =>
  queryOptions({
    queryKey: ["lessons"] as const,
    queryFn: ({ signal }) => fetchJson("/api/lessons", lessonListResponseSchema, { signal }),
    staleTime: 60_000,
  });

/** `GET /api/lessons/:id`: one lesson file (404 when there is none). */
export const lessonQuery = (lessonId: string) =>
  queryOptions({
    queryKey: ["lessons", lessonId] as const,
    queryFn: ({ signal }) => fetchJson(`/api/lessons/${encodeURIComponent(lessonId)}`, lessonDocumentSchema, { signal }),
    staleTime: 60_000,
    retry: false,
  });
