import type { RunConfig } from "@/lib/domain/config";
import type { RunEvent } from "@/lib/domain/events";
import type { Provenance } from "@/lib/domain/provenance";
import type { BundleManifest, BundleRun } from "./format";

/** The label of every run and experiment imported from a bundle (badge and read-only note). */
export const BUNDLE_LABEL = "Imported bundle";

/**
 * The provenance of a run (or, with `run` null, an experiment) imported from a bundle:
 * kind `bundle`, the file name, the manifest's content hash, the year it was recorded, the
 * Actor's model, the branches that came in it (read-only here), and notes on where it came from —
 * including the provenance it had before (e.g. a paper-log import that was bundled again).
 */
export function bundleProvenance(input: {
  manifest: BundleManifest;
  fileName: string;
  run: BundleRun | null;
  original: Provenance | null;
  /** The model to show when `run` is null (an experiment: its first arm's). */
  model?: string;
}): Provenance {
  const { manifest, run, original } = input;
  const start = run?.events[0];
  const model = start?.type === "run-start" ? start.data.config.models.actor.modelId : (input.model ?? "");
  const recordedAt = run?.createdAt ?? manifest.createdAt;
  const year = Number.isFinite(Date.parse(recordedAt)) ? new Date(recordedAt).getUTCFullYear() : new Date().getUTCFullYear();
  return {
    kind: "bundle",
    label: BUNDLE_LABEL,
    source: input.fileName,
    recordedBy: "bundle",
    year,
    model,
    notes: [
      `Exported ${manifest.createdAt} by Reflexion Playground ${manifest.appVersion} (bundle format ${manifest.formatVersion}); content SHA-256 ${manifest.contentSha256}.`,
      ...(original ? [`Before it was bundled: ${original.label} (${original.source}).`, ...original.notes] : []),
    ],
    logSummary: original?.logSummary ?? null,
    contentSha256: manifest.contentSha256,
    bundleBranchIds: run ? run.branches.map((branch) => branch.id) : undefined,
  };
}

/** The run's events with its `run-start` config replaced by `config` (the bundle provenance); every other event unchanged. */
export function withProvenance(events: RunEvent[], config: RunConfig): RunEvent[] {
  return events.map((event) => (event.type === "run-start" ? { ...event, data: { ...event.data, config } } : event));
}
