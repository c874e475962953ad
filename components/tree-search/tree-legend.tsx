import { NO_VALUE_COLOUR, VALUE_STOPS } from "@/lib/graph/tree-layout";

const GRADIENT = `linear-gradient(to right, ${VALUE_STOPS.map(([at, colour]) => `${colour} ${at * 100}%`).join(", ")})`;

/** What the search tree's encodings mean: colour = value, size = visits, highlight = the path, the verdict marks. */
export function TreeLegend() {
  return (
    <div data-testid="tree-legend" className="space-y-1 rounded-md border border-slate-200 bg-white/95 px-2.5 py-2 text-[11px] text-slate-700 shadow-sm">
      <div className="flex items-center gap-2">
        <span className="w-14 font-semibold">Colour</span>
        <span className="tabular-nums">0</span>
        <span aria-hidden="true" className="h-2 w-20 rounded" style={{ background: GRADIENT }} />
        <span className="tabular-nums">1</span>
        <span>value V</span>
        <span aria-hidden="true" className="ml-1 h-2 w-2 rounded-full" style={{ backgroundColor: NO_VALUE_COLOUR }} />
        <span>none yet</span>
      </div>
      <div className="flex items-center gap-2">
        <span className="w-14 font-semibold">Size</span>
        <span>visits N: bigger boxes were on more trajectories</span>
      </div>
      <div className="flex items-center gap-2">
        <span className="w-14 font-semibold">Outline</span>
        <span>the highlighted path (the selected node&apos;s, else the latest trial&apos;s)</span>
      </div>
      <div className="flex items-center gap-2">
        <span className="w-14 font-semibold">Marks</span>
        <span>✓ success · ✗ failure · ■ halted: a trajectory ended there</span>
      </div>
    </div>
  );
}
