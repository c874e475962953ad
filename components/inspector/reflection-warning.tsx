import { Notice } from "@/components/ui/notice";

/**
 * The warning a reflection was stored with (`reflection-end.warning`: the Self-Reflection
 * model was asked twice and the text still failed a check, e.g. "925" is no lesson), and
 * what the user can do about it: the next trial reads the text as it is unless it is edited
 * or deleted, which the Memory panel allows while the run is paused.
 */
export function ReflectionWarning({ warning }: { warning: string }) {
  return (
    <Notice tone="warning" data-testid="reflection-warning" title="Stored with a warning" className="text-xs">
      <p>{warning}</p>
      <p className="mt-1">
        The next trials read it as it is. To change that, <strong>Pause</strong> the run, then in the <strong>Memory</strong> panel edit the reflection or
        delete it from the memory list, and <strong>Resume</strong>.
      </p>
    </Notice>
  );
}
