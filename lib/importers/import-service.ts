import { runAs } from "@/lib/actors/actor-context";
import { importActor } from "@/lib/auth/system-actors";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { RunStore } from "@/lib/db/store";
import { AppError } from "@/lib/domain/errors";
import { experimentDefinitionSchema, type ExperimentSummary } from "@/lib/domain/experiment";
import type { ImportableFile, ImportListResponse, ImportResult } from "@/lib/domain/paper-import";
import { loadHotpotQa, type QaTask } from "@/lib/environments/qa";
import { parseAlfworldRun, type AlfworldFileInput } from "./alfworld-results-parser";
import { mapAlfworldRun } from "./alfworld-mapper";
import { parseHotpotQaLog, type ParsedHotpotLog } from "./hotpotqa-log-parser";
import { mapHotpotQaLog } from "./hotpotqa-mapper";
import { describeHotpotQaContent, describeLogPath, notImportedReason, type LogDescriptor } from "./log-catalog";
import { discoverLogs, findDataRoot, HOTPOTQA_SAMPLE_PATH, type SkippedLog } from "./log-discovery";
import { parseProgrammingLog } from "./programming-log-parser";
import { mapProgrammingLog } from "./programming-mapper";
import { provenanceOf } from "./provenance-of";
import type { MappedLog, TaskSetRef } from "./types";

/**
 * Imports the authors' published logs (docs/decisions/0015): each log
 * becomes one experiment with one arm and one read-only run per question /
 * environment / problem, stored in one transaction (`RunStore.importExperiment`),
 * so a bad file imports nothing. Importing a source again returns the existing
 * experiment. Used by `GET|POST /api/imports` and `cli import-logs`.
 */

/** One file's text as given (an upload or a file read from disk). */
export interface LogFileInput {
  name: string;
  content: string;
}

/** What the service needs from the experiments service: an experiment's summary (the `--json` line's source). */
export interface ExperimentSummaries {
  summary(id: string): Promise<ExperimentSummary>;
}

/** Name of the task set the HotpotQA sample is registered as. */
export const HOTPOTQA_SAMPLE_SET_NAME = "HotpotQA distractor sample (the 100 questions of the Reflexion logs)";

/** The result of importing a folder: one result per log, and what was skipped on purpose. */
export interface FolderImport {
  imports: ImportResult[];
  skipped: SkippedLog[];
}

export class PaperImportService {
  private readonly root: string | null;

  constructor(
    private readonly store: RunStore,
    private readonly experiments: ExperimentSummaries,
    options: { dataRoot?: string | null; env?: Record<string, string | undefined>; cwd?: string } = {},
  ) {
    this.root = options.dataRoot !== undefined ? options.dataRoot : findDataRoot(options.env, options.cwd);
  }

  /** The data root in use (absolute), or null. */
  get dataRoot(): string | null {
    return this.root;
  }

  /** `GET /api/imports`: the shared folder's logs and which of them were imported already. */
  async list(): Promise<ImportListResponse> {
    if (!this.root) return { dataRoot: null, files: [] };
    const imported = await this.importedExperiments();
    const shipped = this.shippedLogs();
    const { logs } = discoverLogs(path.join(this.root, "reflexion"), this.root);
    const files: ImportableFile[] = logs.map(({ path: p, family, label, format, sizeBytes }) => {
      const sha = shipped.find((log) => log.path === p)?.sha256;
      return { path: p, family, label, format, sizeBytes, importedExperimentId: (sha && imported.byContent.get(sha)) ?? imported.legacyBySource.get(p) ?? null };
    });
    return { dataRoot: this.root, files };
  }

  /** `POST /api/imports` with `paths`: entries of {@link list}, imported one after the other. */
  async importPaths(paths: readonly string[]): Promise<ImportResult[]> {
    if (!this.root) throw new AppError("not-found", "No shared data folder was found: set REFLEXION_DATA_ROOT to the folder that holds reflexion/, or upload the log files instead.");
    const results: ImportResult[] = [];
    for (const relative of paths) {
      const absolute = path.resolve(this.root, relative);
      if (path.relative(this.root, absolute).startsWith("..")) throw new AppError("invalid-input", `${relative} is outside the data folder; pick an entry of GET /api/imports.`);
      if (!fs.existsSync(absolute)) throw new AppError("not-found", `${relative} is not in the data folder ${this.root}; pick an entry of GET /api/imports.`);
      const { imports } = await this.importPath(absolute);
      if (imports.length === 0) throw new AppError("invalid-input", `${relative} holds no log this importer reads (HotpotQA 100_questions_*_trials.txt, ALFWorld env_results_trial_N.json, programming .jsonl).`);
      results.push(...imports);
    }
    return results;
  }

  /** `cli import-logs <file-or-folder>`: every log found at the path (an ALFWorld folder is one log). */
  async importPath(target: string): Promise<FolderImport> {
    const absolute = path.resolve(target);
    if (!fs.existsSync(absolute)) throw new AppError("not-found", `${target} does not exist. Give a log file or a folder (e.g. ../shared/data/reflexion).`);
    const skip = notImportedReason(absolute);
    if (skip && fs.statSync(absolute).isFile()) throw new AppError("invalid-input", skip);
    const { logs, skipped } = discoverLogs(absolute, this.root);
    if (logs.length === 0 && skipped.length === 0 && fs.statSync(absolute).isFile()) {
      // A log outside the authors' folder layout (e.g. /tmp/x/100_questions_5_trials.txt): recognised by its content, as an upload is.
      return { imports: await this.importUploads([{ name: absolute, content: fs.readFileSync(absolute, "utf8") }]), skipped };
    }
    const imports: ImportResult[] = [];
    for (const log of logs) {
      const files = log.files.map((file) => ({ name: file, content: fs.readFileSync(file, "utf8") }));
      imports.push(await this.importLog(log.path, files));
    }
    return { imports, skipped };
  }

  /** `POST /api/imports` with uploads: several `env_results_trial_N.json` files form one ALFWorld import; every other file is its own log. */
  async importUploads(files: readonly LogFileInput[]): Promise<ImportResult[]> {
    if (files.length === 0) throw new AppError("invalid-input", "No file was uploaded: send one or more `file` fields.");
    const alfworld = files.filter((file) => /env_results_trial_\d+\.json$/.test(file.name));
    const others = files.filter((file) => !alfworld.includes(file));
    const results: ImportResult[] = [];
    for (const file of others) {
      const skip = notImportedReason(file.name);
      if (skip) throw new AppError("invalid-input", skip);
      results.push(await this.importLog(file.name, [file]));
    }
    if (alfworld.length > 0) {
      const hash = createHash("sha256");
      for (const file of [...alfworld].sort((a, b) => a.name.localeCompare(b.name))) hash.update(file.name).update("\0").update(file.content);
      const source = `${alfworld.length} uploaded env_results_trial_N.json files (${hash.digest("hex").slice(0, 12)})`;
      results.push(await this.importLog(source, alfworld));
    }
    return results;
  }

  /**
   * Imports one log (its files) under `source`, or returns the experiment an
   * earlier import of the same source made.
   * @throws AppError("invalid-dataset") naming file and line when the log is malformed (nothing is stored).
   */
  async importLog(source: string, files: readonly LogFileInput[]): Promise<ImportResult> {
    // An import is identified by its content, not its path: the same bytes by another path or as an upload are the same import.
    const sha256 = contentSha256(files);
    // Two requests for the same content at once (a double click) wait for one import, not two.
    const pending = this.inFlight.get(sha256);
    if (pending) return { ...(await pending), alreadyImported: true };
    const work = this.importOnce(source, files, sha256);
    this.inFlight.set(sha256, work);
    try {
      return await work;
    } finally {
      this.inFlight.delete(sha256);
    }
  }

  private readonly inFlight = new Map<string, Promise<ImportResult>>();

  private async importOnce(source: string, files: readonly LogFileInput[], sha256: string): Promise<ImportResult> {
    const imported = await this.importedExperiments();
    // Parsed even when imported before: the log's warnings are recomputed, and a malformed file still says so.
    const { mapped, taskSet } = await this.map(source, files, sha256);
    const existing = imported.byContent.get(sha256) ?? imported.legacyBySource.get(source);
    if (existing) return { ...(await this.resultOf(existing, mapped.warnings)), alreadyImported: true };
    const earlier = imported.hashedBySource.get(source);
    if (earlier) mapped.warnings.unshift(`${source} differs from its earlier import (experiment ${earlier}): its content changed, so this is a new import; the earlier experiment is kept.`);
    const { descriptor } = mapped;
    const taskIds = mapped.runs.map((run) => run.cell.taskId);
    const definition = experimentDefinitionSchema.parse({
      name: `${descriptor.label} — the authors' run (${source.split("/").slice(-2).join("/")})`.slice(0, 120),
      environment: descriptor.family,
      taskSet: taskSet.id,
      taskIds,
      arms: [{ label: descriptor.label, strategy: descriptor.strategy, modelId: descriptor.modelId, memoryWindow: descriptor.memoryWindow, maxTrials: mapped.trials }],
      maxTrials: mapped.trials,
      concurrency: 1,
    });
    const provenance = provenanceOf(descriptor, source, mapped.notes, mapped.logSummary);
    const { experiment } = await runAs(importActor("paper-logs"), () => this.store.importExperiment({ definition, taskSetName: taskSet.name, provenance, runs: mapped.runs }));
    return this.resultOf(experiment.id, mapped.warnings);
  }

  private async map(source: string, files: readonly LogFileInput[], sha256: string): Promise<{ mapped: MappedLog; taskSet: TaskSetRef }> {
    const first = files[0];
    if (!first) throw new AppError("invalid-input", `${source}: no file to import.`);
    const pathDescriptor = describeLogPath(files.length > 1 ? `${source}/env_results_trial_0.json` : first.name) ?? describeLogPath(source);
    const format = pathDescriptor?.format ?? sniffFormat(first);
    if (format === "alfworld-results") {
      const found = pathDescriptor ?? describeLogPath("env_results_trial_0.json");
      if (!found) throw new Error("no ALFWorld descriptor");
      const descriptor = this.identified(found, first.name, sha256);
      const parsed = parseAlfworldRun(files.map((file): AlfworldFileInput => ({ name: file.name, content: file.content })));
      const taskSet = recordedTaskSet(descriptor);
      return { mapped: mapAlfworldRun(parsed, { descriptor, source, taskSet }), taskSet };
    }
    if (format === "programming-jsonl") {
      const parsed = parseProgrammingLog(first.name, first.content);
      const descriptor = this.identified(pathDescriptor ?? programmingDescriptorFor(first.name), first.name, sha256);
      const taskSet = recordedTaskSet(descriptor);
      return { mapped: mapProgrammingLog(parsed, { descriptor, source, taskSet }), taskSet };
    }
    const parsed = parseHotpotQaLog(first.name, first.content);
    const descriptor = this.identified(pathDescriptor ?? describeHotpotQaContent(first.name, variantOf(parsed)), first.name, sha256);
    const { tasks, taskSet } = await this.hotpotSample(descriptor);
    const mapped = mapHotpotQaLog(parsed, { descriptor, source, sample: tasks, taskSet });
    const named = /(\d+)_trials\.txt$/.exec(path.basename(first.name));
    const held = parsed.trials.length;
    if (named && Number(named[1]) !== held) mapped.warnings.push(`the file name says ${named[1]} trials; it holds ${held}.`);
    return { mapped, taskSet };
  }

  /**
   * The descriptor with this content's identity: verified only when the content
   * equals a log shipped in the data folder; otherwise a note says the copy may
   * have been edited, naming the published log of that name when there is one.
   */
  private identified(descriptor: LogDescriptor, fileName: string, sha256: string): LogDescriptor {
    const shipped = this.shippedLogs();
    const verified = shipped.some((log) => log.sha256 === sha256);
    if (verified) return { ...descriptor, identity: { contentSha256: sha256, verified } };
    const sameName =
      descriptor.format === "alfworld-results"
        ? shipped.filter((log) => log.format === "alfworld-results")
        : shipped.filter((log) => path.basename(log.path) === path.basename(fileName));
    const published = sameName.find((log) => log.label === descriptor.label) ?? sameName[0];
    const note = published
      ? `Uploaded copy: its content differs from the published log ${published.path}, so it may have been edited.`
      : `Uploaded copy: its content differs from the published log (no published log to compare with), so it may have been edited.`;
    return { ...descriptor, notes: [...descriptor.notes, note], identity: { contentSha256: sha256, verified } };
  }

  private shippedCache = new Map<string, { key: string; log: ShippedLog }>();

  /** The logs shipped in the data folder with their content hashes (re-hashed only when a file's size or mtime changes). */
  private shippedLogs(): ShippedLog[] {
    if (!this.root || !fs.existsSync(path.join(this.root, "reflexion"))) return [];
    const { logs } = discoverLogs(path.join(this.root, "reflexion"), this.root);
    return logs.map((log) => {
      const key = log.files.map((file) => {
        const stat = fs.statSync(file);
        return `${file}:${stat.size}:${stat.mtimeMs}`;
      }).join("|");
      const cached = this.shippedCache.get(log.path);
      if (cached && cached.key === key) return cached.log;
      const entry: ShippedLog = { path: log.path, format: log.format, label: log.label, sha256: contentSha256(log.files.map((file) => ({ name: file, content: fs.readFileSync(file, "utf8") }))) };
      this.shippedCache.set(log.path, { key, log: entry });
      return entry;
    });
  }

  /** The 100-question sample, registered as a task set (once: saveTaskSet dedupes by content hash). */
  private async hotpotSample(descriptor: LogDescriptor): Promise<{ tasks: QaTask[]; taskSet: TaskSetRef }> {
    const file = this.root ? path.join(this.root, HOTPOTQA_SAMPLE_PATH) : null;
    if (!file || !fs.existsSync(file)) return { tasks: [], taskSet: recordedTaskSet(descriptor) };
    const content = fs.readFileSync(file, "utf8");
    const { tasks, problems } = loadHotpotQa(content);
    const set = await this.store.saveTaskSet({
      name: HOTPOTQA_SAMPLE_SET_NAME,
      environment: "qa",
      // Spread into plain objects: the store keeps tasks as JSON records.
      tasks: tasks.map((task) => ({ ...task })),
      problems,
      contentHash: createHash("sha256").update(content).digest("hex"),
    });
    return { tasks, taskSet: { id: set.id, name: set.name } };
  }

  /**
   * Experiments made by earlier imports: by content hash; by source for the ones
   * that carry a hash (to say a known path now holds other content); and by source
   * for records imported before hashes were stored (legacy: matched by path as before).
   */
  private async importedExperiments(): Promise<{ byContent: Map<string, string>; hashedBySource: Map<string, string>; legacyBySource: Map<string, string> }> {
    const experiments = await this.store.experiments.listExperiments(10_000);
    const byContent = new Map<string, string>();
    const hashedBySource = new Map<string, string>();
    const legacyBySource = new Map<string, string>();
    for (const experiment of experiments) {
      const provenance = experiment.provenance;
      // Imported agent traces are identified by their own service (lib/server/trace-import-service.ts).
      if (!provenance || provenance.kind === "external-trace") continue;
      if (provenance.contentSha256) {
        if (!byContent.has(provenance.contentSha256)) byContent.set(provenance.contentSha256, experiment.id);
        if (!hashedBySource.has(provenance.source)) hashedBySource.set(provenance.source, experiment.id);
      } else if (!legacyBySource.has(provenance.source)) legacyBySource.set(provenance.source, experiment.id);
    }
    return { byContent, hashedBySource, legacyBySource };
  }

  private async resultOf(experimentId: string, warnings: string[]): Promise<ImportResult> {
    const summary = await this.experiments.summary(experimentId);
    const arm = summary.arms[0];
    const record = summary.experiment;
    return {
      source: record.provenance?.source ?? record.definition.name,
      experimentId,
      label: arm?.label ?? record.definition.name,
      family: record.definition.environment,
      runs: summary.cells.length,
      trials: arm?.trials ?? record.definition.maxTrials,
      successByTrial: arm?.successByTrial ?? [],
      warnings,
      alreadyImported: false,
    };
  }
}

/** A log shipped in the data folder and the SHA-256 of its content. */
interface ShippedLog {
  path: string;
  format: ImportableFile["format"];
  label: string;
  sha256: string;
}

/**
 * What identifies an import: the SHA-256 of the log's content; for an ALFWorld
 * run (several env_results_trial_N.json files) of its trial files' contents in
 * trial order (names and paths do not count).
 */
export function contentSha256(files: readonly LogFileInput[]): string {
  const trialOf = (name: string) => Number(/env_results_trial_(\d+)\.json$/.exec(name)?.[1] ?? 0);
  const ordered = files.length > 1 ? [...files].sort((a, b) => trialOf(a.name) - trialOf(b.name) || a.name.localeCompare(b.name)) : files;
  const hash = createHash("sha256");
  for (const file of ordered) hash.update(file.content).update("\0");
  return hash.digest("hex");
}

/**
 * The pseudo task set of recorded-only tasks (ALFWorld, programming, QA without the sample):
 * `paper-log` is no stored set, so nothing offers to run its tasks again.
 */
function recordedTaskSet(descriptor: LogDescriptor): TaskSetRef {
  return { id: "paper-log", name: `Paper log: ${descriptor.label}` };
}

/** The format of an upload whose name does not say: JSONL records, a JSON array, or a text log. */
function sniffFormat(file: LogFileInput): "hotpotqa-text" | "alfworld-results" | "programming-jsonl" {
  const head = file.content.trimStart();
  if (head.startsWith("[")) return "alfworld-results";
  if (head.startsWith("{")) return "programming-jsonl";
  if (/BEGIN TRIAL \d+/.test(file.content.slice(0, 2000))) return "hotpotqa-text";
  throw new AppError(
    "invalid-input",
    `${file.name}, line 1: not a log this importer reads. Expected a HotpotQA run log (100_questions_*_trials.txt, starting with a "BEGIN TRIAL 1" banner), ALFWorld env_results_trial_N.json files, or a programming run .jsonl.`,
  );
}

/** A programming descriptor for an uploaded .jsonl whose folder is unknown, from the file name's conventions. */
function programmingDescriptorFor(name: string): LogDescriptor {
  const base = path.basename(name);
  const folder = /immediate-refinement/.test(base)
    ? "immediate_refinement_humaneval_rs_hardest50"
    : /immediate-reflexion/.test(base)
      ? "immediate_reflexion_humaneval_rs_hardest50"
      : /humaneval-rs/.test(base)
        ? /_reflexion_/.test(base)
          ? "reflexion_humaneval_rs_hard50"
          : "simple_humaneval_rs_hard50"
        : /mbpp/.test(base)
          ? /_reflexion_/.test(base)
            ? "reflexion_mbpp_py"
            : "simple_mbpp_py"
          : /reflexion/.test(base)
            ? "reflexion_humaneval_py_pass_at_1"
            : "simple_test_run";
  const descriptor = describeLogPath(`${folder}/${base}`);
  if (!descriptor) throw new Error(`no programming descriptor for ${folder}`);
  return { ...descriptor, notes: [...descriptor.notes, `Variant read from the file name ${base}.`] };
}

/** What an uploaded HotpotQA log's content says about its variant. */
function variantOf(log: ParsedHotpotLog): { react: boolean; withContext: boolean; reflections: boolean; lastTrial: boolean } {
  const blocks = log.trials.flatMap((trial) => trial.blocks);
  return {
    react: log.react,
    withContext: blocks.some((block) => (block.context ?? "") !== ""),
    reflections: blocks.some((block) => (block.memory ?? []).length > 0 && !block.memoryIsLastTrial),
    lastTrial: blocks.some((block) => block.memoryIsLastTrial),
  };
}
