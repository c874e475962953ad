/** The code task family's foundation: task schema, dataset loaders, reference verification. */
export { codeLanguageSchema, codeSourceFormatSchema, codeTaskSchema, type CodeLanguage, type CodeSourceFormat, type CodeTask } from "./task";
export { decodeBuffer, detectFormat, loadCodeTasks, readCodeTaskFile, type LoadCodeTasksOptions, type LoadCodeTasksResult } from "./loaders";
export {
  formatVerificationReport,
  summarizeVerification,
  verifyReferenceSolutions,
  type ReferenceFailure,
  type ReferenceVerdict,
  type VerificationSummary,
  type VerifyReferenceOptions,
} from "./verify-reference";
