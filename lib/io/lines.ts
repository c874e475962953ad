/**
 * Lines of a byte stream, for line-oriented files (JSON Lines bundles) read as they arrive: each
 * line is yielded as its exact bytes (without the `\n`), so a reader can hash a line as it was
 * written. A line longer than `maxLineBytes` is refused before it is held whole, so one endless
 * line (a decompression bomb with no newline) costs at most that much memory.
 */

/** The refusal of a line longer than the reader allows. */
export class LineTooLongError extends Error {
  /** The limit that was passed, bytes. */
  readonly limitBytes: number;
  /** 1-based number of the line that was too long. */
  readonly line: number;
  constructor(line: number, limitBytes: number) {
    super(`Line ${line} is longer than ${limitBytes} bytes.`);
    this.name = "LineTooLongError";
    this.limitBytes = limitBytes;
    this.line = line;
  }
}

/**
 * Splits `source` (chunks of bytes, e.g. a gunzip stream) at `\n` bytes; the last line needs no
 * `\n`. Errors of `source` (a damaged gzip stream) pass through unchanged.
 * @param maxLineBytes longest line accepted, bytes.
 * @returns each line's bytes, without its `\n` (an empty trailing line is not yielded).
 * @throws LineTooLongError as soon as a line passes `maxLineBytes`.
 */
export async function* linesOf(source: AsyncIterable<Buffer | Uint8Array>, maxLineBytes: number): AsyncGenerator<Buffer> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let line = 0;
  for await (const piece of source) {
    const chunk = Buffer.isBuffer(piece) ? piece : Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength);
    let start = 0;
    for (;;) {
      const end = chunk.indexOf(0x0a, start);
      if (end === -1) break;
      line += 1;
      const tail = chunk.subarray(start, end);
      if (pendingBytes + tail.length > maxLineBytes) throw new LineTooLongError(line, maxLineBytes);
      yield pending.length === 0 ? tail : Buffer.concat([...pending, tail], pendingBytes + tail.length);
      pending = [];
      pendingBytes = 0;
      start = end + 1;
    }
    if (start < chunk.length) {
      const rest = chunk.subarray(start);
      pendingBytes += rest.length;
      if (pendingBytes > maxLineBytes) throw new LineTooLongError(line + 1, maxLineBytes);
      // Copy: the source may reuse its chunk's memory after we return to it.
      pending.push(Buffer.from(rest));
    }
  }
  if (pendingBytes > 0) yield Buffer.concat(pending, pendingBytes);
}
