"use strict";
/**
 * Captures a test's stdout/stderr up to `limitBytes` (UTF-8 bytes). Everything
 * past the cap is counted, not stored, so an output flood costs no memory.
 */
class OutputSink {
  constructor() {
    this.reset(64 * 1024);
  }

  /** Starts a new capture with a cap of `limitBytes`. */
  reset(limitBytes) {
    this.limit = limitBytes;
    this.chunks = [];
    this.stored = 0;
    this.dropped = 0;
  }

  /** Appends raw bytes (Uint8Array); returns the number of bytes accepted (all of them). */
  writeBytes(bytes) {
    const room = this.limit - this.stored;
    if (room > 0) {
      const kept = bytes.length <= room ? bytes : bytes.subarray(0, room);
      this.chunks.push(Buffer.from(kept));
      this.stored += kept.length;
      this.dropped += bytes.length - kept.length;
    } else {
      this.dropped += bytes.length;
    }
    return bytes.length;
  }

  /** Appends a string. */
  writeText(text) {
    const room = this.limit - this.stored;
    if (room <= 0) {
      this.dropped += Buffer.byteLength(text);
      return;
    }
    // Cheap pre-cut so a 1 GB string is never encoded whole.
    const head = text.length > room ? text.slice(0, room) : text;
    this.writeBytes(Buffer.from(head, "utf8"));
    if (head.length < text.length) this.dropped += Buffer.byteLength(text) - Buffer.byteLength(head);
  }

  /** The captured text, with a marker when something was dropped. */
  text() {
    let body = Buffer.concat(this.chunks).toString("utf8");
    if (this.dropped > 0) body += `\n[output truncated: ${this.dropped} more bytes]`;
    return body;
  }
}

module.exports = { OutputSink };
