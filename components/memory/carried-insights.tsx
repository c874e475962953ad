import Link from "next/link";
import type { RunState } from "@/lib/domain/fold-run";
import { formatShortTime } from "@/components/ui/format";

/**
 * An ExpeL run's insights in the memory panel (lib/domain/insights.ts): what trial 1 was given from
 * which memory store and where each insight came from (the experiment, the template version and the
 * model that extracted it), as recorded in the run's `insights-carried-in` event — or, when none was
 * carried in, the recorded note saying how to extract them. The insights themselves are memory items
 * above: edit them there like reflections.
 */
export function CarriedInsights({ state }: { state: RunState }) {
  const carried = state.insightsCarriedIn;
  if (!carried) return null;
  return (
    <div className="space-y-1.5 rounded-md border border-teal-200 bg-teal-50 px-2.5 py-2" data-testid="carried-insights" data-store={carried.store ?? ""} data-count={carried.entries.length}>
      <h3 className="text-[11px] font-semibold uppercase tracking-wide text-teal-900">
        ExpeL insights · carried into every trial{carried.store ? (
          <>
            {" "}from store <code className="font-mono normal-case">{carried.store}</code>
          </>
        ) : null}{" "}
        · {carried.entries.length}
      </h3>
      {carried.entries.length === 0 ? (
        <p className="text-xs text-teal-900">{carried.note ?? "The store had no insights for this family."} The run goes on as Reflexion.</p>
      ) : (
        <ol className="space-y-1.5">
          {carried.entries.map((entry) => (
            <li key={entry.itemId} className="text-xs leading-snug text-slate-800" data-testid="carried-insight">
              <p className="whitespace-pre-wrap break-words">{entry.text}</p>
              <p className="mt-0.5 text-[11px] text-teal-800">
                {entry.provenance ? (
                  <>
                    {entry.provenance.experimentId ? (
                      <>
                        from{" "}
                        <Link className="underline" href={`/experiments/${encodeURIComponent(entry.provenance.experimentId)}`}>
                          experiment {entry.provenance.experimentId.slice(0, 8)}
                        </Link>{" "}
                        ({entry.provenance.runIds.length} runs)
                      </>
                    ) : (
                      <>from {entry.provenance.runIds.length} runs</>
                    )}
                    {" "}· {entry.provenance.model} · {entry.provenance.template.id} v{entry.provenance.template.version}
                  </>
                ) : (
                  "no provenance recorded"
                )}{" "}
                · stored {formatShortTime(entry.createdAt)}
              </p>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
