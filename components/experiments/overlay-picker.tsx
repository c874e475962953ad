"use client";

import { useQuery } from "@tanstack/react-query";
import { experimentListQuery } from "@/lib/query/experiment-queries";
import { MAX_OVERLAID } from "@/lib/query/overlay-series";
import { RecordedBadge } from "@/components/provenance";
import { familyName } from "./labels";

/**
 * The overlay's experiments as checkboxes: every experiment, the chosen ones
 * ticked (at most {@link MAX_OVERLAID}); imported ones carry their badge.
 */
export function OverlayPicker({ chosen, onChange }: { chosen: readonly string[]; onChange: (ids: string[]) => void }) {
  const list = useQuery(experimentListQuery());
  const experiments = list.data?.experiments ?? [];
  const full = chosen.length >= MAX_OVERLAID;
  return (
    <fieldset className="space-y-1" data-testid="overlay-picker">
      <legend className="mb-1 text-xs font-semibold text-slate-700">Experiments on the chart{full ? ` (at most ${MAX_OVERLAID})` : ""}</legend>
      {list.isPending ? <p className="text-xs text-slate-500">Loading experiments…</p> : null}
      {list.error ? <p className="text-xs text-red-700">Could not load the experiments: {list.error.message}</p> : null}
      <ul className="max-h-72 space-y-1 overflow-y-auto pr-1">
        {experiments.map((experiment) => {
          const checked = chosen.includes(experiment.id);
          return (
            <li key={experiment.id}>
              <label className="flex items-start gap-2 text-xs text-slate-800">
                <input
                  type="checkbox"
                  className="mt-0.5"
                  data-testid="overlay-pick"
                  data-experiment-id={experiment.id}
                  checked={checked}
                  disabled={!checked && full}
                  onChange={(event) => onChange(event.target.checked ? [...chosen, experiment.id] : chosen.filter((id) => id !== experiment.id))}
                />
                <span className="min-w-0">
                  <span className="block font-medium">{experiment.name}</span>
                  <span className="flex flex-wrap items-center gap-1 text-[11px] text-slate-500">
                    {familyName(experiment.environment)} · {experiment.tasks} tasks <RecordedBadge provenance={experiment.provenance} />
                  </span>
                </span>
              </label>
            </li>
          );
        })}
      </ul>
    </fieldset>
  );
}
