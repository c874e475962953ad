import { RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible";

/** Failed sign-ins one account may have per {@link ACCOUNT_WINDOW_SECONDS} on one app server before it must wait. */
export const ACCOUNT_FAILURES = 10;
/** The window of {@link ACCOUNT_FAILURES}, seconds (15 minutes). */
export const ACCOUNT_WINDOW_SECONDS = 15 * 60;

/**
 * The per-account brake on password guessing, beside Better Auth's per-address limit (which reads the
 * client's address from `X-Forwarded-For`, so a client that reaches an app server directly can dodge it
 * with made-up addresses). Counts failed sign-ins per email (lower-cased) with rate-limiter-flexible; a
 * successful sign-in clears the count. In memory, per app server: with N app servers an account can be
 * tried N × {@link ACCOUNT_FAILURES} times per window (docs/shared-mode.md § 7.6).
 */
export class SignInGuard {
  private readonly failures = new RateLimiterMemory({ points: ACCOUNT_FAILURES, duration: ACCOUNT_WINDOW_SECONDS });

  /** Seconds until `email` may try again (its failures reached the limit), or null when it may try now. */
  async waitSeconds(email: string): Promise<number | null> {
    const state = await this.failures.get(key(email));
    if (!state || state.consumedPoints < ACCOUNT_FAILURES) return null;
    return Math.max(1, Math.ceil(state.msBeforeNext / 1000));
  }

  /** Counts one failed sign-in of `email`. */
  async failed(email: string): Promise<void> {
    await this.failures.consume(key(email)).catch((error: unknown) => {
      // Over the limit already: the count stays at its ceiling until the window ends.
      if (!(error instanceof RateLimiterRes)) throw error;
    });
  }

  /** Clears `email`'s failures (it signed in). */
  async succeeded(email: string): Promise<void> {
    await this.failures.delete(key(email));
  }
}

function key(email: string): string {
  return email.trim().toLowerCase();
}
