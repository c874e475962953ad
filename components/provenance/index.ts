/** Provenance of imported runs: the "Recorded by the authors, 2023" badge and the read-only note. */
export { RecordedBadge, provenanceTitle, recordedLabel, isUnverified, UNVERIFIED_NOTE } from "./recorded-badge";

/** Shown instead of zeros for calls, tokens and cost of imported runs: the published logs record none. */
export const NOT_RECORDED = "not recorded in the published log";
export { ReadOnlyNote, READ_ONLY_NOTE, READ_ONLY_TRACE_NOTE, isRecordedBranch } from "./read-only-note";
