/** The code task family: the programming Reflexion loop, its built-in tasks, dataset loaders and reference verification. */
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
export { createCodeEnvironment, type CodeEnvironmentDeps } from "./environment";
export { CodeEpisode } from "./episode";
export { builtinCodeTasks } from "./builtin-tasks";
export { builtinCodeDemoScripts } from "./builtin-demo-scripts";
export { codeDemoScriptBook } from "./demo-script";
export type { CodeSandbox } from "./test-runs";
