import type { EventData } from "@/lib/domain/events";
import { formatInteger } from "@/components/ui/format";

/** A prompt's size against its model's window, as recorded on `model-call-end` (`contextUse`). */
export type ContextUse = NonNullable<EventData<"model-call-end">["contextUse"]>;

/** Share of the window from which the meter warns (amber); at or over the window it is red. */
export const WARN_SHARE = 0.8;

/** `ok`, `warn` (≥ {@link WARN_SHARE} of the window) or `over` (≥ the window). */
export function meterLevel(use: ContextUse): "ok" | "warn" | "over" {
  const share = use.promptTokens / use.window;
  return share >= 1 ? "over" : share >= WARN_SHARE ? "warn" : "ok";
}

/** "3,912 / 128,000 tokens (3%)", with `~` before the count when it is an estimate; under 1% shows "<1%". */
export function meterText(use: ContextUse): string {
  const percent = (use.promptTokens / use.window) * 100;
  const shown = percent > 0 && percent < 1 ? "<1" : String(Math.round(percent));
  return `${use.exact ? "" : "~"}${formatInteger(use.promptTokens)} / ${formatInteger(use.window)} tokens (${shown}%)`;
}

const BAR: Record<ReturnType<typeof meterLevel>, string> = { ok: "bg-sky-500", warn: "bg-amber-500", over: "bg-red-600" };
const TEXT: Record<ReturnType<typeof meterLevel>, string> = { ok: "text-slate-700", warn: "text-amber-800", over: "text-red-800" };

/**
 * The prompt's token count against the model's context window, as a line of
 * text and a bar: amber from 80 % of the window, red at or over it. The count
 * was made on the server when the call was recorded (lib/domain/tokenizer.ts:
 * the model's own encoding for known OpenAI models, else an estimate, marked
 * `~`), so no tokenizer reaches the browser. Calls recorded before the count
 * existed (`contextUse` null) show nothing.
 */
export function PromptTokenMeter({ contextUse }: { contextUse: EventData<"model-call-end">["contextUse"] | undefined }) {
  if (!contextUse) return null;
  const level = meterLevel(contextUse);
  const width = Math.min(100, (contextUse.promptTokens / contextUse.window) * 100);
  const how = contextUse.exact ? `counted with ${contextUse.tokenizer}, the model's own encoding` : `estimated (${contextUse.tokenizer}); the provider's count may differ`;
  return (
    <div data-testid="prompt-token-meter" data-level={level} className="space-y-1" title={`Prompt tokens ${how}; the window is the model's context length.`}>
      <p className={`text-xs font-medium ${TEXT[level]}`}>
        {meterText(contextUse)}
        {level === "warn" ? " — close to the model's context window" : level === "over" ? " — over the model's context window" : ""}
      </p>
      <div className="h-1.5 w-full overflow-hidden rounded-full bg-slate-200" role="meter" aria-valuemin={0} aria-valuemax={contextUse.window} aria-valuenow={contextUse.promptTokens} aria-label="Prompt tokens against the context window">
        <div className={`h-full ${BAR[level]}`} style={{ width: `${width}%` }} />
      </div>
    </div>
  );
}
