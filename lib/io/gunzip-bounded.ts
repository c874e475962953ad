import { createGunzip, gunzipSync } from "node:zlib";
import { AppError } from "@/lib/domain/errors";

/**
 * Decompression with a ceiling on the OUTPUT, for every door a gzip file comes in by (bundle
 * imports, dataset uploads, `cli` dataset files). A few megabytes of gzip can hold gigabytes of
 * zeros (gzip compresses them about 1000:1): inflating such a "bomb" whole froze the server for
 * 23 s and kept 4.5 GB. Here the inflated bytes are counted as they come and the work stops at
 * the limit, so a bomb costs at most the limit in memory, and that is released when it is refused.
 */

/** Environment variable holding the limit, in megabytes (MiB) of decompressed data. */
export const MAX_INFLATED_ENV = "REFLEXION_MAX_INFLATED_MB";
/** The limit when {@link MAX_INFLATED_ENV} is unset: enough for HotpotQA's dev set (~46 MB) or a large experiment bundle. */
export const DEFAULT_MAX_INFLATED_MB = 128;
/** The highest limit one may set: the text is decoded into one JavaScript string, which V8 caps at about 512 MiB. */
export const HIGHEST_MAX_INFLATED_MB = 512;

const MIB = 1024 * 1024;

/**
 * The decompressed-size limit in bytes, from `REFLEXION_MAX_INFLATED_MB` (whole MiB, 1–512) or the default 128 MiB.
 * @throws AppError("invalid-input") for a value that is not a whole number in range, saying what to set.
 */
export function maxInflatedBytes(env: Record<string, string | undefined> = process.env): number {
  const raw = env[MAX_INFLATED_ENV]?.trim();
  if (!raw) return DEFAULT_MAX_INFLATED_MB * MIB;
  const mb = Number(raw);
  if (!Number.isInteger(mb) || mb < 1 || mb > HIGHEST_MAX_INFLATED_MB) {
    throw new AppError("invalid-input", `${MAX_INFLATED_ENV}="${raw}" is not a whole number of megabytes from 1 to ${HIGHEST_MAX_INFLATED_MB}; unset it for the default ${DEFAULT_MAX_INFLATED_MB}.`);
  }
  return mb * MIB;
}

/** True when `bytes` start with the gzip magic number (1f 8b). */
export function isGzip(bytes: Uint8Array): boolean {
  return bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
}

/** Options of {@link gunzipBounded} and {@link gunzipBoundedSync}. */
export interface GunzipBoundedOptions {
  /** Most decompressed bytes accepted; default {@link maxInflatedBytes} of `env`. */
  maxBytes?: number;
  /** What the file is, for the messages ("bundle", "dataset file"). Default "file". */
  what?: string;
  /** Where the limit's variable is read; default `process.env`. */
  env?: Record<string, string | undefined>;
}

/** The refusal of a file that decompresses past the limit: says the limit, its variable and how to raise it (413). */
export class InflatedTooLargeError extends AppError {
  /** The limit that was passed, bytes. */
  readonly limitBytes: number;
  constructor(what: string, limitBytes: number) {
    const mb = Math.round((limitBytes / MIB) * 10) / 10;
    super(
      "too-large",
      `This ${what} decompresses to more than ${mb} MB, the limit on decompressed uploads (${MAX_INFLATED_ENV}, default ${DEFAULT_MAX_INFLATED_MB}). ` +
        `Nothing was imported. If the file is genuine, raise the limit: set ${MAX_INFLATED_ENV}=${Math.min(HIGHEST_MAX_INFLATED_MB, Math.max(DEFAULT_MAX_INFLATED_MB, Math.ceil(mb) * 2))} (megabytes, at most ${HIGHEST_MAX_INFLATED_MB}) for the server or CLI and try again, or split the file.`,
    );
    this.name = "InflatedTooLargeError";
    this.limitBytes = limitBytes;
  }
}

function unreadable(what: string, error: unknown): AppError {
  return new AppError(
    "invalid-dataset",
    `This ${what} looks gzip-compressed but could not be decompressed (${error instanceof Error ? error.message : String(error)}): it is not gzip data or it is cut short. Download or copy the whole file again.`,
  );
}

function limitOf(options: GunzipBoundedOptions): number {
  return options.maxBytes ?? maxInflatedBytes(options.env);
}

/**
 * Gunzips `bytes` on zlib's worker threads (node:zlib's streaming API), counting the output and
 * destroying the stream as soon as it passes the limit, so the event loop keeps answering other
 * requests and a bomb never inflates past the limit. Concatenated gzip members are read as one.
 * @returns the decompressed bytes (at most the limit).
 * @throws InflatedTooLargeError (code `too-large`) past the limit; AppError("invalid-dataset") for data that is not gzip or is cut short.
 */
export function gunzipBounded(bytes: Uint8Array, options: GunzipBoundedOptions = {}): Promise<Buffer> {
  const limit = limitOf(options);
  const what = options.what ?? "file";
  return new Promise<Buffer>((resolve, reject) => {
    const gunzip = createGunzip({ chunkSize: 64 * 1024 });
    let chunks: Buffer[] = [];
    let total = 0;
    let settled = false;
    const fail = (error: Error) => {
      if (settled) return;
      settled = true;
      chunks = [];
      gunzip.destroy();
      reject(error);
    };
    gunzip.on("data", (chunk: Buffer) => {
      if (settled) return;
      total += chunk.length;
      if (total > limit) fail(new InflatedTooLargeError(what, limit));
      else chunks.push(chunk);
    });
    gunzip.on("error", (error) => fail(unreadable(what, error)));
    gunzip.on("end", () => {
      if (settled) return;
      settled = true;
      const out = Buffer.concat(chunks, total);
      chunks = [];
      resolve(out);
    });
    gunzip.end(bytes);
  });
}

/**
 * The same as {@link gunzipBounded} in one blocking call (zlib's `maxOutputLength`), for the CLI
 * and library readers that are synchronous; a server path uses {@link gunzipBounded}.
 * @throws InflatedTooLargeError past the limit; AppError("invalid-dataset") for data that is not gzip or is cut short.
 */
export function gunzipBoundedSync(bytes: Uint8Array, options: GunzipBoundedOptions = {}): Buffer {
  const limit = limitOf(options);
  const what = options.what ?? "file";
  try {
    return gunzipSync(bytes, { maxOutputLength: Math.max(1, limit) });
  } catch (error) {
    if ((error as { code?: unknown }).code === "ERR_BUFFER_TOO_LARGE") throw new InflatedTooLargeError(what, limit);
    throw unreadable(what, error);
  }
}

/**
 * Text of an uploaded file's bytes: gunzipped (bounded, off the event loop) when they start with
 * the gzip magic number, then decoded as UTF-8.
 * @throws as {@link gunzipBounded}.
 */
export async function textOfUpload(bytes: Uint8Array, options: GunzipBoundedOptions = {}): Promise<string> {
  const plain = isGzip(bytes) ? await gunzipBounded(bytes, options) : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return plain.toString("utf8");
}
