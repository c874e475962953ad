import type { LogSummaryLine, Provenance } from "@/lib/domain/provenance";
import type { LogDescriptor } from "./log-catalog";

/** The year the authors recorded the published runs (May 2023, SOURCES.md). */
export const RECORDED_YEAR = 2023;

/** The provenance of an imported log's runs and experiment (lib/domain/provenance.ts). */
export function provenanceOf(descriptor: LogDescriptor, source: string, extraNotes: readonly string[], logSummary: LogSummaryLine[] | null): Provenance {
  return {
    kind: "paper-log",
    label: descriptor.label,
    source,
    recordedBy: "authors",
    year: RECORDED_YEAR,
    model: descriptor.model,
    notes: [...descriptor.notes, ...extraNotes],
    logSummary,
    ...(descriptor.identity ? { contentSha256: descriptor.identity.contentSha256, verified: descriptor.identity.verified } : {}),
  };
}
