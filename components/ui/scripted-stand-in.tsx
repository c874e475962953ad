import { SCRIPTED_STAND_IN, SCRIPTED_STAND_IN_NOTE } from "@/lib/domain/model-id";
import { Badge } from "./badge";

/**
 * The demo model's tag beside a model id: `scripted stand-in`, or with `full` the
 * `scripted stand-in, not an LLM` note. The wording comes from lib/domain/model-id so the
 * UI, the CLI and the figures name the demo model the same way.
 */
export function ScriptedStandIn({ full = false, className = "text-[11px] text-violet-700", testId }: { full?: boolean; className?: string; testId?: string }) {
  return (
    <span className={className} data-testid={testId}>
      {full ? SCRIPTED_STAND_IN_NOTE : SCRIPTED_STAND_IN}
    </span>
  );
}

/** The violet badge beside the demo model's id: `<prefix> — scripted stand-in, not an LLM`. */
export function DemoModelBadge({ prefix = "Demo model", testId, className }: { prefix?: string; testId?: string; className?: string }) {
  return (
    <Badge tone="violet" data-testid={testId} className={className}>
      {prefix} — {SCRIPTED_STAND_IN_NOTE}
    </Badge>
  );
}
