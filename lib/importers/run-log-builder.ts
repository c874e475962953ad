import { randomUUID } from "node:crypto";
import type { RunConfig } from "@/lib/domain/config";
import { draft, type EventDataInput, type EventDraft, type MemoryItem, type RunEvent } from "@/lib/domain/events";
import { applyEvent, emptyRunState, type RunState } from "@/lib/domain/fold-run";
import { memoryForTrial } from "@/lib/domain/next-trial";
import { digestState } from "@/lib/engine/digest";
import { materializeEvent } from "@/lib/db/validate-event";
import { PAPER_LOG_CALL_PREFIX } from "@/lib/domain/provenance";

/**
 * Writes the event log of one imported run (docs/decisions/0015) in
 * the order the engine writes a live run (lib/engine/run-engine.ts):
 * `trial-start` → steps (`step-thought`, `step-action`, `step-observation`, all
 * with `callId: null`: no call of ours produced them) → `evaluation-end`,
 * `trial-end`, `checkpoint` → (`reflection-end`, `checkpoint`) → … → `run-end`.
 *
 * Each checkpoint's digest is the engine's own (`digestState`) over the state
 * folded so far, so a fork from it continues exactly as from a live run's.
 * Reflections carry a synthetic call id ({@link PAPER_LOG_CALL_PREFIX}…): the
 * authors' Self-Reflection call was not published, and the UI shows "call not
 * in the log" for an id with no `model-call-end`.
 */

export { PAPER_LOG_CALL_PREFIX };

/** One logged step: the Actor's thought and action and the environment's observation, as printed. */
export interface LoggedStepInput {
  thought: string;
  action: string;
  /** The parsed verb and argument, or null when the logged line is not `Verb[argument]`. */
  parsed: { type: string; argument: string } | null;
  observation: string;
  /** True when the step ended the episode (a `Finish[…]` or the code family's final `Implement`). */
  done: boolean;
  answer: string | null;
  /** Optional snapshot for the UI, e.g. `{ recorded: true }`. */
  state?: Record<string, unknown> | null;
  /** The recorded model call that produced the thought and action (an imported trace's LLM call); absent: none (`callId: null`). */
  callId?: string | null;
  /** Why the action did not parse, in the source's words; absent: the `Verb[argument]` default. */
  parseError?: string;
  /** Times of the thought, action and observation (ISO-8601) when the source records them; absent: the builder's current time ({@link RunLogBuilder.at}). */
  times?: { thought?: string; action?: string; observation?: string };
}

/** A recorded model call (`model-call-end`) of an imported trace: the event's data without the trial, which is the trial in progress. */
export type LoggedModelCall = Omit<EventDataInput<"model-call-end">, "trial">;

/** How a recorded trial ended, with the Evaluator's verdict as logged. */
export interface LoggedVerdict {
  outcome: "success" | "failure" | "halted";
  reason: string;
  evaluation: Omit<EventDataInput<"evaluation-end">, "trial">;
  /** When the trial ended (its `trial-end` and `checkpoint`), ISO-8601, when later than the evaluation; absent: the builder's current time. */
  endedAt?: string;
}

/**
 * Accumulates the drafts of one run and folds them as it goes (for the
 * checkpoint digests). Call {@link startTrial}, {@link step}…, {@link endTrial},
 * {@link reflect}…, and finally {@link end}; then take {@link drafts}.
 */
export class RunLogBuilder {
  private readonly events: RunEvent[] = [];
  private readonly state: RunState = emptyRunState();
  private readonly out: EventDraft[] = [];
  private seq = 0;
  private trial = 0;
  private stepNo = 0;
  private now: string | undefined = undefined;

  constructor(readonly config: RunConfig) {
    this.push(draft("run-start", { config }), false);
  }

  /** The drafts after `run-start` (the store writes `run-start` itself). */
  get drafts(): EventDraft[] {
    return this.out;
  }

  /** Reflections written so far (the episodic memory, oldest first). */
  get memory(): MemoryItem[] {
    return this.state.memory;
  }

  /** The number of the trial in progress or last ended. */
  get currentTrial(): number {
    return this.trial;
  }

  /**
   * Stamps the drafts pushed from now on with `iso` (the source's recorded time; the store keeps
   * it, RunStore.importExperiment), until the next call; null or undefined: no time (the import's).
   */
  at(iso: string | null | undefined): this {
    this.now = iso ?? undefined;
    return this;
  }

  private push(event: EventDraft, keep = true, occurredAt: string | undefined = this.now): string {
    const id = event.id ?? randomUUID();
    const stored = materializeEvent({ ...event, id }, { id, runId: "import", branchId: "import", seq: ++this.seq, occurredAt: occurredAt ?? "1970-01-01T00:00:00.000Z" });
    this.events.push(stored);
    applyEvent(this.state, stored);
    if (keep) this.out.push(occurredAt === undefined ? { ...event, id } : { ...event, id, occurredAt });
    return id;
  }

  /** Records a model call of the trial in progress as its `model-call-end` (stamped at `occurredAt` when given); returns its call id. */
  modelCall(call: LoggedModelCall, occurredAt?: string): string {
    this.push(draft("model-call-end", { ...call, trial: this.trial }), true, occurredAt ?? this.now);
    return call.callId;
  }

  /**
   * Starts the next trial. `shown`: the memory texts the log printed for this
   * trial (matched to the reflections written so far), or undefined to apply
   * the strategy's rule with the run's Ω, as the engine does.
   */
  startTrial(shown?: readonly string[]): number {
    this.trial += 1;
    this.stepNo = 0;
    let memory: MemoryItem[];
    let evicted: MemoryItem[];
    if (shown === undefined) {
      ({ inContext: memory, evicted } = memoryForTrial(this.config, this.state.memory));
    } else {
      const texts = new Set(shown.map((text) => text.trim()));
      memory = this.state.memory.filter((item) => texts.has(item.text.trim()));
      evicted = this.state.memory.filter((item) => !texts.has(item.text.trim()));
    }
    this.push(draft("trial-start", { trial: this.trial, memory, evicted }));
    return this.trial;
  }

  /** Records one logged step of the trial in progress. */
  step(input: LoggedStepInput): void {
    this.stepNo += 1;
    const at = { trial: this.trial, step: this.stepNo };
    const callId = input.callId ?? null;
    const times = input.times ?? {};
    this.push(draft("step-thought", { ...at, text: input.thought, callId }), true, times.thought ?? this.now);
    this.push(
      draft("step-action", {
        ...at,
        text: input.action,
        action: input.parsed,
        parseError: input.parsed ? null : (input.parseError ?? "Not a well-formed Verb[argument] action (as logged)."),
        callId,
      }),
      true,
      times.action ?? this.now,
    );
    this.push(draft("step-observation", { ...at, text: input.observation, done: input.done, answer: input.answer, state: input.state ?? null }), true, times.observation ?? this.now);
  }

  /** Ends the trial in progress: `evaluation-end`, `trial-end`, `checkpoint`. */
  endTrial(verdict: LoggedVerdict): void {
    this.push(draft("evaluation-end", { trial: this.trial, ...verdict.evaluation }));
    if (verdict.endedAt !== undefined) this.at(verdict.endedAt);
    this.push(draft("trial-end", { trial: this.trial, outcome: verdict.outcome, reason: verdict.reason }));
    this.checkpoint();
  }

  /**
   * Ends the trial in progress without a verdict (an imported trace that records no score):
   * no `evaluation-end` (no Evaluator judged it), `trial-end` with `outcome` and `reason`, `checkpoint`.
   */
  endTrialUnjudged(outcome: "failure" | "halted", reason: string): void {
    this.push(draft("trial-end", { trial: this.trial, outcome, reason }));
    this.checkpoint();
  }

  /**
   * Records reflections written after the trial that just ended (one `reflection-end` each), then a
   * checkpoint. `callIds[i]`: the recorded Self-Reflection call of `texts[i]` (an own export's);
   * absent: a synthetic {@link PAPER_LOG_CALL_PREFIX} id (the call was not published).
   */
  reflect(texts: readonly string[], warning: string | null = null, callIds: readonly string[] = []): void {
    if (texts.length === 0) return;
    texts.forEach((text, index) => {
      this.push(draft("reflection-end", { trial: this.trial, text, callId: callIds[index] ?? `${PAPER_LOG_CALL_PREFIX}${randomUUID()}`, warning }));
    });
    this.checkpoint();
  }

  /** A checkpoint of the state so far (the engine's digest), e.g. after the steps of a trial the source continues in. */
  checkpoint(): void {
    this.push(draft("checkpoint", { trial: this.trial, digest: digestState(this.state) }));
  }

  /** Ends the run: `run-end` with the outcome of its last trial. */
  end(outcome: "success" | "failure"): void {
    this.push(draft("run-end", { outcome, trials: this.trial }));
  }
}

/** `Verb[argument]` as the logs print actions (ReAct: `Search[…]`, `Lookup[…]`, `Finish[…]`); null otherwise. */
export function parseLoggedAction(text: string): { type: string; argument: string } | null {
  const match = /^\s*([A-Za-z]+)\[([\s\S]*)\]\s*$/.exec(text);
  return match ? { type: match[1] ?? "", argument: match[2] ?? "" } : null;
}
