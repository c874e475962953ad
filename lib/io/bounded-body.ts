import { AppError } from "@/lib/domain/errors";

/**
 * Reading an HTTP request body with a ceiling. `request.arrayBuffer()`, `.json()` and
 * `.formData()` read the whole body whatever its size; an upload route reads it through here
 * instead, so an oversized body is refused from its `content-length` before a byte is read, or
 * as soon as the bytes received pass the limit (a chunked body has no length), and the rest of
 * it is never buffered.
 */

/**
 * Ceiling of a small JSON request body (a fork, a resume, breakpoints, a label, a price, a grade,
 * a provider test): 1 MiB, far above any real one.
 */
export const MAX_JSON_BODY_BYTES = 1024 * 1024;

/**
 * Ceiling of a JSON body that may carry prompt templates or reflections (a new run, an
 * experiment's arms, a template and its versions, a preview, an A/B, an edit, a memory store):
 * 8 MiB. A template is at most 64 KiB and an edited text 16,384 characters, so a real body is far
 * smaller; without a ceiling a 200 MB body was read whole (+700 MB) before the schema refused it.
 */
export const MAX_RICH_JSON_BODY_BYTES = 8 * 1024 * 1024;

/** The body as text, at most `maxBytes` (UTF-8). @throws AppError("too-large"). */
export async function readTextBounded(request: Request, maxBytes: number, what: string): Promise<string> {
  return new TextDecoder().decode(await readBodyBounded(request, maxBytes, what, SMALLER_REQUEST));
}

/** What to do about an upload that is too large; a JSON request gets {@link SMALLER_REQUEST}. */
const SPLIT_FILES = "Split it into smaller files.";
const SMALLER_REQUEST = "Send a smaller request: a template is at most 64 KB and an edited text 16,384 characters.";

function tooLarge(what: string, maxBytes: number, hint: string = SPLIT_FILES): AppError {
  return new AppError("too-large", `This ${what} is larger than ${formatBytes(maxBytes)}, the most this server accepts; nothing was stored. ${hint}`);
}

/** `12.5 MB` (MiB, one decimal) or `900 bytes`, for messages. */
export function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB` : `${bytes} bytes`;
}

/**
 * The request's body bytes, at most `maxBytes`.
 * @param what what the body is, for the message ("bundle upload", "task set upload").
 * @throws AppError("too-large") naming the limit, before reading when `content-length` says so, else once past it.
 */
export async function readBodyBounded(request: Request, maxBytes: number, what: string, hint: string = SPLIT_FILES): Promise<Uint8Array<ArrayBuffer>> {
  const declared = Number(request.headers.get("content-length") ?? NaN);
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge(what, maxBytes, hint);
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(what, maxBytes, hint);
    }
    chunks.push(value);
  }
  const body = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    body.set(chunk, at);
    at += chunk.byteLength;
  }
  return body;
}

/** The body as JSON, at most `maxBytes` (`hint`: what to do instead, in the too-large message). @throws AppError("too-large"); SyntaxError for invalid JSON (400 by the route's error mapping). */
export async function readJsonBounded(request: Request, maxBytes: number, what: string): Promise<unknown> {
  return JSON.parse(new TextDecoder().decode(await readBodyBounded(request, maxBytes, what))) as unknown;
}

/**
 * An API request's JSON body (not an upload), at most `maxBytes`: {@link MAX_JSON_BODY_BYTES} or
 * {@link MAX_RICH_JSON_BODY_BYTES}. The refusal says to send a smaller request.
 * @throws AppError("too-large"); SyntaxError for invalid JSON (400 by the route's error mapping).
 */
export async function readRequestJson(request: Request, maxBytes: number, what: string, hint: string = SMALLER_REQUEST): Promise<unknown> {
  return JSON.parse(new TextDecoder().decode(await readBodyBounded(request, maxBytes, what, hint))) as unknown;
}

/** The body as multipart form data, at most `maxBytes` in all. @throws AppError("too-large"); TypeError for a body that is not multipart. */
export async function readFormDataBounded(request: Request, maxBytes: number, what: string, hint: string = SPLIT_FILES): Promise<FormData> {
  const bytes = await readBodyBounded(request, maxBytes, what, hint);
  return new Response(bytes, { headers: { "content-type": request.headers.get("content-type") ?? "" } }).formData();
}
