import { AppError } from "@/lib/domain/errors";
import { maxInflatedBytes } from "@/lib/io/gunzip-bounded";

/**
 * Size limits of bundle imports. A format-2 bundle (lib/bundles/stream-format.ts) is read as it
 * arrives — never whole in memory — so its limits guard the disk and the database, not the heap:
 * the gzip'd upload is capped by `REFLEXION_MAX_BUNDLE_MB`, its inflated size by
 * {@link maxStreamedInflatedBytes}, and one line of it by {@link MAX_BUNDLE_LINE_BYTES}.
 */

/** Environment variable holding the largest bundle upload, in megabytes (MiB) of gzip'd file. */
export const MAX_BUNDLE_ENV = "REFLEXION_MAX_BUNDLE_MB";
/** The upload limit when {@link MAX_BUNDLE_ENV} is unset: room for a 1,000-run experiment's ~100 MB bundle. */
export const DEFAULT_MAX_BUNDLE_MB = 256;
/** The highest upload limit one may set (the file is spooled to a temporary file, then read twice). */
export const HIGHEST_MAX_BUNDLE_MB = 4096;
/** How many times its gzip'd limit a streamed bundle may inflate to (text compresses 3–10×; a bomb of zeros 1000×). */
export const STREAMED_INFLATION_FACTOR = 16;
/** Longest line of a format-2 bundle, bytes: the writer keeps lines near 1 MiB; one event may be larger. */
export const MAX_BUNDLE_LINE_BYTES = 64 * 1024 * 1024;

const MIB = 1024 * 1024;

/**
 * The largest bundle upload in bytes (gzip'd), from `REFLEXION_MAX_BUNDLE_MB` (whole MiB, 1–4096) or 256 MiB.
 * @throws AppError("invalid-input") for a value that is not a whole number in range, saying what to set.
 */
export function maxBundleBytes(env: Record<string, string | undefined> = process.env): number {
  const raw = env[MAX_BUNDLE_ENV]?.trim();
  if (!raw) return DEFAULT_MAX_BUNDLE_MB * MIB;
  const mb = Number(raw);
  if (!Number.isInteger(mb) || mb < 1 || mb > HIGHEST_MAX_BUNDLE_MB) {
    throw new AppError("invalid-input", `${MAX_BUNDLE_ENV}="${raw}" is not a whole number of megabytes from 1 to ${HIGHEST_MAX_BUNDLE_MB}; unset it for the default ${DEFAULT_MAX_BUNDLE_MB}.`);
  }
  return mb * MIB;
}

/**
 * Most bytes a format-2 bundle may inflate to: {@link STREAMED_INFLATION_FACTOR} × the upload limit,
 * or `REFLEXION_MAX_INFLATED_MB` when that is larger (lib/io/gunzip-bounded.ts).
 * @throws AppError("invalid-input") for an invalid value of either variable.
 */
export function maxStreamedInflatedBytes(env: Record<string, string | undefined> = process.env): number {
  return Math.max(maxInflatedBytes(env), STREAMED_INFLATION_FACTOR * maxBundleBytes(env));
}
