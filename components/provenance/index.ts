/** Provenance of imported runs (issue 11): the "Recorded by the authors, 2023" badge and the read-only note. */
export { RecordedBadge, provenanceTitle, recordedLabel } from "./recorded-badge";
export { ReadOnlyNote, READ_ONLY_NOTE, isRecordedBranch } from "./read-only-note";
