import type { Provenance } from "@/lib/domain/provenance";
import { cn } from "@/lib/utils/cn";

/** The read-only note of a run that came in a bundle. */
export const READ_ONLY_BUNDLE_NOTE = "Imported bundle, read-only — Replay recorded re-runs it from its cached responses (no model calls); fork from any checkpoint to continue live.";

/** The read-only note of an outside agent's imported trace. */
export const READ_ONLY_TRACE_NOTE = "Imported trace, read-only — an outside agent's recorded attempt: reflect on it or compare it; there is no world here to continue it in.";

/** The words of the read-only note (also the accessible name of the disabled controls' group). */
export const READ_ONLY_NOTE = "Recorded by the authors — fork from any checkpoint to continue live.";

/**
 * The note shown in place of the steering controls of an imported run: it
 * cannot be paused, resumed or edited, but "Fork here" on an evaluation or
 * reflection node starts a live branch from that checkpoint. With `notes`,
 * the import's caveats follow (e.g. ALFWorld: trajectories were not published).
 */
export function ReadOnlyNote({ provenance, className, showNotes = false }: { provenance: Provenance; className?: string; showNotes?: boolean }) {
  return (
    <div className={cn("rounded-md border border-amber-300 bg-amber-50 px-2.5 py-1.5 text-xs text-amber-950", className)} role="note" data-testid="read-only-note">
      <p className="font-medium">{provenance.kind === "bundle" ? READ_ONLY_BUNDLE_NOTE : provenance.kind === "external-trace" ? READ_ONLY_TRACE_NOTE : READ_ONLY_NOTE}</p>
      {showNotes && provenance.notes.length > 0 ? (
        <ul className="mt-1 list-disc space-y-0.5 pl-4 text-[11px] [overflow-wrap:anywhere]" data-testid="provenance-notes">
          {provenance.notes.map((note) => (
            <li key={note}>{note}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

/**
 * Whether a branch is read-only: its run was imported (`provenance` set) and
 * the branch is a recorded one, not a fork made here (a fork continues live: its
 * events after the fork point are made here). A bundle may bring forks of its
 * own (`provenance.bundleBranchIds`): each of them is recorded too, as the
 * server's rule says (lib/bundles/read-only.ts); `branchId` (null = the root)
 * tells them apart.
 */
export function isRecordedBranch(provenance: Provenance | null | undefined, fork: unknown, branchId: string | null = null): boolean {
  if (provenance === null || provenance === undefined) return false;
  if (provenance.kind === "bundle" && provenance.bundleBranchIds && branchId !== null) return provenance.bundleBranchIds.includes(branchId);
  return fork === null || fork === undefined;
}
