import type { ReadableSpan } from "@opentelemetry/sdk-trace-base";
import type { EventDraft, RunEvent } from "@/lib/domain/events";
import type { BranchId, RunId } from "@/lib/domain/ids";
import type { EventLog } from "@/lib/engine/ports";
import { sendOtlp, spansOfBranches, type OtlpTarget } from "./export";
import type { BranchLog } from "./trace-from-log";

/**
 * The optional live toggle (`REFLEXION_OTLP_LIVE=1`; docs/decisions/0026): the engine's
 * event log is wrapped so that after every append the branch's spans that are complete are sent to
 * the configured endpoint — model calls, tools and verdicts at once, a trial's CHAIN span once the
 * next trial starts or the run ends, the AGENT span when the branch ends, pauses or fails. The spans
 * are the same as the post-hoc export's (same builder, same deterministic ids), so a later full
 * export of the run lands on the same trace. Chosen over the AI SDK's `experimental_telemetry`
 * because that sees only live provider calls (not cached replays, tools or verdicts) and emits
 * `ai.*` spans in another shape. Sending never blocks or fails a run: errors are logged once per branch.
 */
export function withLiveOtlp(log: EventLog, input: { target: OtlpTarget; appVersion: string; branchLog: (runId: string, branchId: string) => Promise<BranchLog | null> }): EventLog {
  const sent = new Map<string, Set<string>>();
  const queue = new Map<string, Promise<void>>();
  const warned = new Set<string>();
  // Branches whose run-end was sent: nothing more to send (events may still be appended after it,
  // e.g. the worker's own bookkeeping — sending the whole trace again would duplicate every span).
  const finished = new Set<string>();

  const flush = async (runId: string, branchId: string): Promise<void> => {
    if (finished.has(branchId)) return;
    const branch = await input.branchLog(runId, branchId);
    if (!branch) return;
    const ended = branch.events.some((event) => event.type === "run-end" || event.type === "run-error" || event.type === "run-pause");
    const trialsStarted = branch.events.filter((event) => event.type === "trial-start").length;
    const done = sent.get(branchId) ?? new Set<string>();
    sent.set(branchId, done);
    const spans = (spansOfBranches([branch], input.appVersion)[0] ?? []).filter((span) => !done.has(span.spanContext().spanId) && complete(span, ended, trialsStarted));
    if (spans.length === 0) return;
    await sendOtlp([spans], input.target);
    for (const span of spans) done.add(span.spanContext().spanId);
    if (branch.events.some((event) => event.type === "run-end")) {
      finished.add(branchId);
      sent.delete(branchId);
    }
  };

  return {
    list: (runId, branchId, after, limit) => log.list(runId, branchId, after, limit),
    async append(runId: RunId, branchId: BranchId, drafts: readonly EventDraft[]): Promise<RunEvent[]> {
      const stored = await log.append(runId, branchId, drafts);
      const previous = queue.get(branchId) ?? Promise.resolve();
      const next = previous
        .then(() => flush(runId, branchId))
        .catch((error: unknown) => {
          if (warned.has(branchId)) return;
          warned.add(branchId);
          console.warn(`Live OTLP export of run ${runId} failed (the run goes on): ${error instanceof Error ? error.message : String(error)}`);
        });
      queue.set(branchId, next);
      return stored;
    },
  };
}

function complete(span: ReadableSpan, ended: boolean, trialsStarted: number): boolean {
  const kind = span.attributes["openinference.span.kind"];
  if (kind === "AGENT") return ended;
  if (kind === "CHAIN") {
    const trial = span.attributes["reflexion.trial"];
    return ended || (typeof trial === "number" && trial < trialsStarted);
  }
  return true;
}
