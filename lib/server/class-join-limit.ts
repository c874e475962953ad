import { RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible";
import { normaliseJoinCode } from "@/lib/domain/class-rules";
import { PEER_HEADER } from "./lan-peer";

/** Joins one client address may make per minute (a phone retrying a taken nickname a few times is fine). */
export const JOINS_PER_ADDRESS_PER_MINUTE = 20;
/** Joins one class may take per minute (a room of 60 joining at once fits twice). */
export const JOINS_PER_CLASS_PER_MINUTE = 120;

/** A refused join: how long to wait, seconds (for Retry-After), and the message. */
export interface JoinRefusal {
  retryAfterSeconds: number;
  message: string;
}

/**
 * The brake on `POST /api/classes/join` (rate-limiter-flexible, in memory per app server): per
 * client address and per class code, fixed one-minute windows. With N app servers the limits are
 * N times higher (docs/shared-mode.md "Students' surfaces").
 */
export class ClassJoinLimiter {
  private readonly perAddress: RateLimiterMemory;
  private readonly perClass: RateLimiterMemory;

  constructor(limits: { perAddress?: number; perClass?: number } = {}) {
    this.perAddress = new RateLimiterMemory({ keyPrefix: "class-join-address", points: limits.perAddress ?? JOINS_PER_ADDRESS_PER_MINUTE, duration: 60 });
    this.perClass = new RateLimiterMemory({ keyPrefix: "class-join-class", points: limits.perClass ?? JOINS_PER_CLASS_PER_MINUTE, duration: 60 });
  }

  /** Counts one join of `address` into `code`; a refusal when either limit is spent, else null. */
  async take(address: string, code: string): Promise<JoinRefusal | null> {
    try {
      await this.perAddress.consume(address);
    } catch (error) {
      if (!(error instanceof RateLimiterRes)) throw error;
      return { retryAfterSeconds: seconds(error), message: `Too many joins from this device or network (${JOINS_PER_ADDRESS_PER_MINUTE} a minute): wait ${seconds(error)} s and try again.` };
    }
    try {
      await this.perClass.consume(normaliseJoinCode(code) ?? code.trim().toUpperCase());
    } catch (error) {
      if (!(error instanceof RateLimiterRes)) throw error;
      return { retryAfterSeconds: seconds(error), message: `Too many students are joining this class at once (${JOINS_PER_CLASS_PER_MINUTE} a minute): wait ${seconds(error)} s and try again.` };
    }
    return null;
  }
}

function seconds(state: RateLimiterRes): number {
  return Math.max(1, Math.ceil(state.msBeforeNext / 1000));
}

/**
 * The client's address for the join limit: the peer address the LAN-mode server stamped from the
 * socket ({@link PEER_HEADER}, never a client's), else the first `X-Forwarded-For` hop (set by a
 * proxy in shared mode, or by Next from the socket when the client sent none — a client talking
 * to Next directly can choose it), else `unknown`.
 */
export function clientAddress(request: Request): string {
  const peer = request.headers.get(PEER_HEADER)?.trim();
  if (peer) return peer;
  const forwarded = request.headers.get("x-forwarded-for")?.split(",")[0]?.trim();
  return forwarded || "unknown";
}

type GlobalWithLimiter = typeof globalThis & { __reflexionClassJoinLimiter?: ClassJoinLimiter };

/** The process's join limiter (kept on globalThis across Next's dev reloads). */
export function classJoinLimiter(): ClassJoinLimiter {
  const holder: GlobalWithLimiter = globalThis;
  holder.__reflexionClassJoinLimiter ??= new ClassJoinLimiter();
  return holder.__reflexionClassJoinLimiter;
}
