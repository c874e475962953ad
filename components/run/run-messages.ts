import type { ShownStatus } from "@/lib/domain/shown-status";
import type { TrialView } from "@/lib/domain/fold-run";
import type { CallActivity } from "@/lib/domain/status";
import { ApiRequestError } from "@/lib/query/fetch-json";

/** Wording of the interrupted banner: resume replays the log and continues after its last event. */
export const INTERRUPTED_MESSAGE =
  "This run was interrupted: the worker driving it stopped (a server restart or a crash). A worker takes it over when a slot is free, or Pause it to look first; Resume to continue from the last recorded step; nothing recorded is lost.";

/**
 * One line under the status pill for the statuses that need a word: why a run
 * waits (queued), what happens next (pausing, cancelling), what to do
 * (interrupted), what a replay shows. Null for the others: their pill (and banners) say enough.
 */
export function statusExplanation(status: ShownStatus | null): string | null {
  switch (status) {
    case "replaying":
      return "Showing the log up to the replay cursor: the run is as it was then. Back to live (End) shows all of it; Fork here starts a branch from a checkpoint on screen.";
    case "queued":
      return "Waiting for a free worker slot (REFLEXION_CONCURRENCY); it starts on its own.";
    case "pausing":
      return "Pauses at the next step boundary, once the model call in flight returns. Cancel stops it now.";
    case "cancelling":
      return "Stopping the model call in flight; the run then ends as cancelled.";
    case "interrupted":
      return "Its worker stopped. Another worker takes it over, or press Resume (or Pause to look first).";
    case "budget-exhausted":
      return "Its budget is spent: it stopped between two steps, nothing lost. Give a higher budget in the banner to continue.";
    default:
      return null;
  }
}

/** What a model call in flight is, in words: `Actor call · trial 2 step 3`, `Self-reflection call · trial 2`. */
export function callInFlightLabel(call: Pick<CallActivity, "role" | "trial" | "step">): string {
  if (call.role === "reflector") return `Self-reflection call · trial ${call.trial}`;
  return `Actor call · trial ${call.trial}${call.step === null ? "" : ` step ${call.step}`}`;
}

/**
 * While a failed attempt waits for its retry: "attempt 1 failed · retrying in 7 s"
 * (counting down from `retry.at`, ms clock `now`), then "retrying now…".
 */
export function retryLabel(retry: NonNullable<CallActivity["retry"]>, now: number): string {
  const left = Math.ceil((Date.parse(retry.at) - now) / 1000);
  const when = Number.isNaN(left) || left <= 0 ? "retrying now…" : `retrying in ${left} s`;
  return `attempt ${retry.attempt} failed · ${when}`;
}

/** The paused banner in three parts: a bold headline, the reason (if any) and one instruction. */
export interface PauseBanner {
  headline: string;
  detail: string | null;
  instruction: string;
}

const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * A model error's text without its "resume the run" advice (the banner gives
 * that once, at the end): the engine's own "Resume the run to retry this call."
 * suffix is dropped, "…, then resume the run." / "… and resume the run" lose the
 * resume clause, and a sentence that only says to resume is dropped.
 */
export function withoutResumeAdvice(detail: string): string {
  const sentences = detail.trim().split(/(?<=[.?!])\s+/);
  const kept: string[] = [];
  for (const sentence of sentences) {
    const afterSemicolon = /^resume the run\b[^;]*;\s*(.+)$/i.exec(sentence);
    if (afterSemicolon?.[1]) {
      kept.push(capitalize(afterSemicolon[1]));
      continue;
    }
    if (/^resume the run\b/i.test(sentence)) continue;
    const trimmed = sentence.replace(/,?\s+(?:then|and)\s+resume the run\b/gi, "").trim();
    if (trimmed.length > 0) kept.push(trimmed);
  }
  const text = kept.join(" ").trim();
  return text.length > 0 ? text : detail.trim();
}

const withPeriod = (text: string) => (/[.?!]$/.test(text) ? text : `${text}.`);

/**
 * What the paused banner says for a `run-pause` event's data, given whether
 * there is memory to edit. Takes only `reason` and `detail`, so a new pause
 * reason still gets a sensible banner (its detail, then "Resume to continue").
 */
export function pauseBanner(pause: { reason: string; detail: string }, options: { canEditMemory: boolean }): PauseBanner {
  const editHint = "You can edit the newest reflection or the memory at the right, then Resume.";
  const detail = pause.detail.trim();
  switch (pause.reason) {
    case "model-error":
      return {
        headline: "Paused: a model call failed.",
        detail: withPeriod(withoutResumeAdvice(detail)),
        instruction: "Press Resume to retry the call.",
      };
    case "user":
      // The detail already says who paused ("Paused by the user."): use it as the headline.
      return {
        headline: detail.length > 0 && /^paused\b/i.test(detail) ? withPeriod(detail) : "Paused.",
        detail: detail.length > 0 && !/^paused\b/i.test(detail) ? withPeriod(detail) : null,
        instruction: options.canEditMemory ? editHint : "Resume to continue.",
      };
    case "breakpoint":
      return {
        headline: "Paused.",
        detail: detail.length > 0 ? withPeriod(detail) : null,
        instruction: options.canEditMemory ? editHint : "Resume to continue.",
      };
    case "step":
      return {
        headline: "Paused after one step.",
        detail: detail.length > 0 && !/^stepped one action\.?$/i.test(detail) ? withPeriod(detail) : null,
        instruction: "Step again, or Resume to run on.",
      };
    case "spending-limit":
      // The detail names whose budget across runs is spent and how an admin raises it.
      return { headline: "Paused: a budget across runs is spent.", detail: detail.length > 0 ? withPeriod(detail) : null, instruction: "Resume once an admin has raised it." };
    default:
      return { headline: "Paused.", detail: detail.length > 0 ? withPeriod(detail) : null, instruction: "Resume to continue." };
  }
}

/** The state shown on a trial chip: its outcome, else what the run is doing now. */
export type TrialChipState = NonNullable<TrialView["outcome"]> | "running" | "replaying" | "queued" | "paused" | "interrupted" | "stopped" | "out-of-budget" | "unfinished";

/**
 * A trial without an outcome is only "running" while the run is; at a replay cursor it is "replaying"
 * (its outcome lies past the cursor); otherwise it says why it stands still.
 */
export function trialChipState(outcome: TrialView["outcome"], status: ShownStatus | null): TrialChipState {
  if (outcome !== null) return outcome;
  switch (status) {
    case "replaying":
      return "replaying";
    case "queued":
      return "queued";
    case "paused":
      return "paused";
    case "interrupted":
      return "interrupted";
    case "error":
      return "stopped";
    case "budget-exhausted":
      return "out-of-budget";
    case "ended":
      return "unfinished";
    default:
      return "running";
  }
}

/**
 * Whether the header's stream dot may say "live": only while the branch is being worked on. A run
 * that stopped (paused, out of budget, ended…) keeps its stream open for updates, but a green
 * "live" next to it reads as if it were still running; so does one next to a replay.
 */
export function showsLiveDot(status: ShownStatus | null): boolean {
  return status === null || status === "queued" || status === "running" || status === "pausing" || status === "cancelling";
}

/** The chip's text for {@link trialChipState}. */
export function trialChipLabel(state: TrialChipState): string {
  switch (state) {
    case "running":
      return "running…";
    case "queued":
      return "waiting for a worker";
    case "stopped":
      return "stopped (error)";
    case "out-of-budget":
      return "stopped: out of budget";
    default:
      return state;
  }
}

/**
 * What a failed Pause / Resume / Step / Cancel request says, with what to do:
 * the server unreachable (check it runs, try again), a conflict (the request
 * no longer applies: the server's reason, and that nothing changed), anything
 * else (the reason, try again, the server log).
 */
export function controlErrorText(action: "pause" | "resume" | "step" | "cancel", error: Error): string {
  const message = error.message.trim().replace(/\.$/, "");
  if (error instanceof ApiRequestError) {
    if (error.code === "network") return `Could not reach the server to ${action} the run. Check that it is still running, then try again.`;
    if (error.status === 409) return `${message}. Nothing was changed; the status above is the current one.`;
    if (error.status === 404) return `${message}. Go back to the list of runs and open it again.`;
  }
  return `Could not ${action} the run: ${message}. Try again; if it keeps failing, the server log says why.`;
}
