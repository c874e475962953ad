"use client";

import { queryOptions, useQuery } from "@tanstack/react-query";
import { meResponseSchema } from "@/lib/domain/roles";
import { fetchJson, retryUnlessClientError } from "./fetch-json";

/** Query key of who this browser is. */
export const meKey = () => ["me"] as const;

/** `GET /api/me`: whether sign-in is on and this browser's principal (null when signed out). */
export const meQuery = () =>
  queryOptions({
    queryKey: meKey(),
    queryFn: ({ signal }) => fetchJson("/api/me", meResponseSchema, { signal }),
    // Who one is changes only by signing in or out (a page load): no refetch while the page is open.
    staleTime: 5 * 60_000,
    retry: retryUnlessClientError,
  });

/** Who this browser is (`data` undefined until the server answers): for hiding what the role cannot do (lib/domain/run-permissions.ts). */
export function useMe() {
  return useQuery(meQuery());
}
