import fs from "node:fs";
import { once } from "node:events";
import { Readable } from "node:stream";
import { finished } from "node:stream/promises";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";

/**
 * Writes a byte stream (e.g. a streamed CSV export) to the file `out`, replacing it, or to stdout
 * when `out` is undefined, waiting for the target to drain, so memory stays bounded.
 * @throws the stream's or the file's error (a partly written file is left as it is).
 */
export async function writeStream(stream: ReadableStream<Uint8Array>, out: string | undefined): Promise<void> {
  const target = out ? fs.createWriteStream(out) : process.stdout;
  // The DOM and Node declarations of ReadableStream differ only in typing; it is the same object.
  for await (const chunk of Readable.fromWeb(stream as NodeReadableStream<Uint8Array>)) {
    if (!target.write(chunk)) await once(target, "drain");
  }
  if (target instanceof fs.WriteStream) {
    target.end();
    await finished(target);
  }
}
