import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Writable } from "node:stream";
import type { StreamedBundle } from "@/lib/bundles/stream-writer";

/**
 * The HTTP answer of a bundle export: the bundle is streamed into a temporary file (one run in
 * memory at a time; a refusal — a running branch, a secret — still answers its error status
 * before any byte is sent, and the content hash can go in a header), then the file is streamed
 * as the response body (no whole-file buffer) and deleted as soon as it is open.
 * @param write writes the bundle into the stream it is given (BundleService `exportRunTo` / `exportExperimentTo`).
 * @throws whatever `write` throws (the partial file is deleted).
 */
export async function bundleResponse(write: (out: Writable) => Promise<StreamedBundle & { fileName: string }>): Promise<Response> {
  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), "rp-bundle-"));
  const file = path.join(dir, "bundle.reflexion.json.gz");
  const remove = () => fs.promises.rm(dir, { recursive: true, force: true }).catch(() => undefined);
  let download: StreamedBundle & { fileName: string };
  try {
    download = await write(fs.createWriteStream(file));
  } catch (error) {
    await remove();
    throw error;
  }
  const stream = fs.createReadStream(file, { highWaterMark: 1024 * 1024 });
  // Once open, the file can go: the stream keeps reading it through its descriptor (POSIX).
  stream.once("open", () => void remove());
  stream.once("close", () => void remove());
  const chunks = stream[Symbol.asyncIterator]();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = (await chunks.next()) as IteratorResult<Buffer>;
      if (next.done) controller.close();
      else controller.enqueue(new Uint8Array(next.value.buffer, next.value.byteOffset, next.value.byteLength));
    },
    async cancel() {
      await chunks.return?.();
    },
  });
  return new Response(body, {
    headers: {
      "content-type": "application/gzip",
      "content-length": String(download.bytes),
      "content-disposition": `attachment; filename="${download.fileName}"`,
      "x-bundle-sha256": download.manifest.contentSha256,
    },
  });
}
