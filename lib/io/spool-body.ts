import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import { AppError } from "@/lib/domain/errors";
import { formatBytes } from "./bounded-body";

/** A request body written to a temporary file; {@link SpooledBody.remove} deletes it (and its folder). */
export interface SpooledBody {
  /** Path of the file holding the body. */
  file: string;
  /** Size of the body, bytes. */
  bytes: number;
  /** Deletes the file and its temporary folder; never throws. */
  remove: () => Promise<void>;
}

function tooLarge(what: string, maxBytes: number, variable: string): AppError {
  return new AppError("too-large", `This ${what} is larger than ${formatBytes(maxBytes)}, the most this server accepts (${variable}); nothing was stored. Raise ${variable} for the server, or split the file.`);
}

/**
 * Streams a request body to a temporary file (os.tmpdir()), counting the bytes: an oversized body is
 * refused from its `content-length` before a byte is read, or as soon as the bytes received pass
 * `maxBytes` (the partial file is deleted). Memory holds one chunk at a time.
 * @param what what the body is, for the message ("bundle upload"); `variable` names the limit's setting.
 * @throws AppError("too-large") naming the limit and the setting that raises it.
 */
export async function spoolBody(request: Request, maxBytes: number, what: string, variable: string): Promise<SpooledBody> {
  const declared = Number(request.headers.get("content-length") ?? NaN);
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge(what, maxBytes, variable);
  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), "rp-upload-"));
  const file = path.join(dir, "body");
  const remove = () => fs.promises.rm(dir, { recursive: true, force: true }).catch(() => undefined);
  let bytes = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      bytes += chunk.length;
      callback(bytes > maxBytes ? tooLarge(what, maxBytes, variable) : null, chunk);
    },
  });
  try {
    const body = request.body ? Readable.fromWeb(request.body as NodeReadableStream<Uint8Array>) : Readable.from([]);
    await pipeline(body, counter, fs.createWriteStream(file));
  } catch (error) {
    await remove();
    throw error;
  }
  return { file, bytes, remove };
}
