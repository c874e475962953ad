import { splitSendable } from "@/lib/domain/live-call";

/** Default interval between two flushes, in ms (at most ~10 messages a second). */
export const TOKEN_FLUSH_MS = 100;

/**
 * Buffers streamed text pieces and hands them on at most once per `intervalMs`
 * (ms), never splitting a surrogate pair. `flush()` sends what is buffered now
 * (call it when the call ends); `close()` flushes and stops the timer.
 */
export class TokenCoalescer {
  private buffer = "";
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly send: (text: string) => void,
    private readonly intervalMs = TOKEN_FLUSH_MS,
  ) {}

  push(text: string): void {
    this.buffer += text;
    if (this.timer === null) {
      this.timer = setTimeout(() => {
        this.timer = null;
        this.flushSendable();
      }, this.intervalMs);
      this.timer.unref?.();
    }
  }

  /** Sends everything buffered, including a lone trailing surrogate (the stream has ended). */
  close(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    const rest = this.buffer;
    this.buffer = "";
    if (rest !== "") this.send(rest);
  }

  private flushSendable(): void {
    const { send, keep } = splitSendable(this.buffer);
    this.buffer = keep;
    if (send !== "") this.send(send);
  }
}
