"use client";

import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import type { Role } from "@/lib/domain/roles";
import {
  createdTokenResponseSchema,
  sessionResponseSchema,
  tokenResponseSchema,
  tokensResponseSchema,
  userResponseSchema,
  usersResponseSchema,
  type SessionResponse,
} from "@/lib/domain/accounts";
import { fetchJson } from "./fetch-json";

/** Who is signed in: `off` when this server has no sign-in (`x-reflexion-sign-in: off` from `/api/auth/get-session`), else the session or null. */
export type SessionState = { signIn: "off" } | { signIn: "on"; session: SessionResponse };

export const sessionKey = () => ["auth-session"] as const;
export const tokensKey = () => ["api-tokens"] as const;
export const usersKey = () => ["users"] as const;

/** `GET /api/auth/get-session` (Better Auth). */
export const sessionQuery = () =>
  queryOptions({
    queryKey: sessionKey(),
    queryFn: async ({ signal }): Promise<SessionState> => {
      const response = await fetch("/api/auth/get-session", { signal, cache: "no-store", headers: { accept: "application/json" } });
      if (response.status === 404 || response.headers.get("x-reflexion-sign-in") === "off") {
        // Read the body all the same: an unread response stays open, and the page never goes network-idle.
        await response.text().catch(() => "");
        return { signIn: "off" };
      }
      if (!response.ok) throw new Error(`Could not read the session (${response.status}).`);
      return { signIn: "on", session: sessionResponseSchema.parse(await response.json()) };
    },
    staleTime: 30_000,
  });

/** `POST /api/auth/sign-out`, then to the sign-in page. */
export async function signOut(): Promise<void> {
  await fetch("/api/auth/sign-out", { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
  // A full load, not a client navigation: nothing cached for the signed-out person may stay in memory.
  // eslint-disable-next-line @next/next/no-location-assign-relative-destination -- see above
  window.location.assign("/sign-in");
}

/** `GET /api/tokens`: your API tokens. */
export const tokensQuery = () => queryOptions({ queryKey: tokensKey(), queryFn: ({ signal }) => fetchJson("/api/tokens", tokensResponseSchema, { signal }) });

/** `POST /api/tokens`: the answer holds the secret, shown once. */
export function useCreateToken() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { name: string }) => fetchJson("/api/tokens", createdTokenResponseSchema, { method: "POST", body: input }),
    onSuccess: () => client.invalidateQueries({ queryKey: tokensKey() }),
  });
}

/** `DELETE /api/tokens/<id>`. */
export function useRevokeToken() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => fetchJson(`/api/tokens/${encodeURIComponent(id)}`, tokenResponseSchema, { method: "DELETE" }),
    onSuccess: () => client.invalidateQueries({ queryKey: tokensKey() }),
  });
}

/** `GET /api/users` (admins). */
export const usersQuery = () => queryOptions({ queryKey: usersKey(), queryFn: ({ signal }) => fetchJson("/api/users", usersResponseSchema, { signal }) });

/** `POST /api/users`, `PATCH /api/users/<id>`, `DELETE /api/users/<id>` (admins). */
export function useUserMutations() {
  const client = useQueryClient();
  const onSuccess = () => client.invalidateQueries({ queryKey: usersKey() });
  return {
    add: useMutation({ mutationFn: (input: { email: string; name: string; password: string; role: Role }) => fetchJson("/api/users", userResponseSchema, { method: "POST", body: input }), onSuccess }),
    setRole: useMutation({ mutationFn: ({ id, role }: { id: string; role: Role }) => fetchJson(`/api/users/${encodeURIComponent(id)}`, userResponseSchema, { method: "PATCH", body: { role } }), onSuccess }),
    remove: useMutation({ mutationFn: (id: string) => fetchJson(`/api/users/${encodeURIComponent(id)}`, userResponseSchema, { method: "DELETE" }), onSuccess }),
  };
}
