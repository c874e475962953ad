/** Importing the paper's own run logs: the list of the shared folder's logs, upload, results. */
export { ImportPage, DATA_ROOT_HINT } from "./import-page";
export { ImportableFiles, groupByFamily, formatBytes, logFamilyName } from "./importable-files";
export { UploadLogs, IMPORT_ACCEPT } from "./upload-logs";
export { PaperFigures, PAPER_FIGURES } from "./paper-figures";
