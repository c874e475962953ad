"use client";

import { infiniteQueryOptions } from "@tanstack/react-query";
import { reflectionListResponseSchema } from "@/lib/domain/reflection-outcomes";
import { fetchJson } from "./fetch-json";
import { paperKeys, reflectionsPath, type ReflectionParams } from "./paper-queries";

/** Reflections per page of the list. */
export const REFLECTIONS_PAGE = 25;

/**
 * The reflections list, page after page (`nextCursor`): `GET /api/reflections`
 * with the filters of {@link ReflectionParams} (cursor and limit set here).
 */
export const reflectionPagesQuery = (params: Omit<ReflectionParams, "cursor" | "limit">) =>
  infiniteQueryOptions({
    queryKey: [...paperKeys.reflections(params), "pages"] as const,
    queryFn: ({ signal, pageParam }) =>
      fetchJson(reflectionsPath({ ...params, limit: REFLECTIONS_PAGE, cursor: pageParam ?? undefined }), reflectionListResponseSchema, { signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    retry: 1,
  });
