"use client";

import { apiErrorSchema } from "@/lib/domain/api";
import { bundleImportResponseSchema, type BundleImportResponse } from "@/lib/bundles/api";

/** Whether a dropped file looks like a bundle by its name (the server checks the content). */
export function looksLikeBundle(file: File): boolean {
  return /\.(gz|json\.gz|reflexion)$/i.test(file.name) || file.type === "application/gzip" || file.type === "application/x-gzip";
}

/**
 * Uploads a bundle file to `POST /api/bundles` (lib/bundles/api.ts) as the request body, which the
 * server streams (up to its `REFLEXION_MAX_BUNDLE_MB`; a larger file gets its 413 message).
 * @throws Error with the server's message (e.g. "This bundle was changed after it was exported…") or what to do.
 */
export async function uploadBundle(file: File): Promise<BundleImportResponse> {
  let response: Response;
  try {
    response = await fetch("/api/bundles", { method: "POST", body: file, headers: { "content-type": "application/gzip", "x-file-name": encodeURIComponent(file.name) } });
  } catch (error) {
    throw new Error(`The upload did not reach the server (${error instanceof Error ? error.message : String(error)}). Check that the app is running, then try again.`);
  }
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    const parsed = apiErrorSchema.safeParse(body);
    throw new Error(parsed.success ? parsed.data.error.message : `The server answered ${response.status}.`);
  }
  return bundleImportResponseSchema.parse(body);
}
