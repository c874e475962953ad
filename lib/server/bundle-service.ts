import type { AnnotationStore } from "@/lib/db/annotation-store";
import type { BundleRecord, BundleStore } from "@/lib/db/bundle-store";
import type { RunStore, TaskSetRecord } from "@/lib/db/store";
import { annotationsThatFit } from "./bundle-annotations";
import fs from "node:fs";
import path from "node:path";
import { Readable, type Writable } from "node:stream";
import { decodeBundle, encodeBundle } from "@/lib/bundles/codec";
import type { SharedBundleResponse } from "@/lib/bundles/api";
import { bundleManifestSchema } from "@/lib/bundles/format";
import type { BundleContent, BundleExperiment, BundleManifest, BundleRun, BundleTemplateVersion } from "@/lib/bundles/format";
import { runContentSha256 } from "@/lib/bundles/run-identity";
import { bundleHead, sniffBundleFormat } from "@/lib/bundles/stream-reader";
import type { StreamedBundle } from "@/lib/bundles/stream-writer";
import { isGzip } from "@/lib/io/gunzip-bounded";
import { AppError } from "@/lib/domain/errors";
import { asRunId } from "@/lib/domain/ids";
import { runAs } from "@/lib/actors/actor-context";
import { importActor } from "@/lib/auth/system-actors";
import { Pseudonyms, stripAnnotationEventNames, stripEventNames, type NamesMode } from "@/lib/domain/strip-names";
import type { TemplateService } from "./template-service";
import type { TemplateWorkbench } from "./template-workbench";
import { toTemplateFile } from "./template-files";
import { bundleFileName, secretRefusal, writeStreamedBundle, type StreamedExportSource } from "./bundle-export";
import { importStreamed, importedExperiment, importedRun, type BundleImportOutcome, type StreamedImportDeps } from "./bundle-import";
import { lessonsPlaying, type BundleLessons } from "./bundle-lessons";
import { readBundleRun } from "./bundle-run-reader";

export type { BundleLessons } from "./bundle-lessons";

export type { BundleImportOutcome } from "./bundle-import";

/** A bundle file ready to download. */
export interface BundleDownload {
  bytes: Buffer;
  manifest: BundleManifest;
  /** A file name for it, e.g. `run-<title>-<hash12>.reflexion.json.gz`. */
  fileName: string;
}

/**
 * Run bundles (docs/decisions/0026): export a run (all its branches) or an experiment
 * (all its runs) as one gzip'd JSON file, and import one into this database as read-only runs with
 * provenance "Imported bundle". What goes in is an allow-list (lib/bundles/format.ts); the bytes
 * are also searched for the values of secret-looking environment variables and URLs with
 * credentials before they leave (lib/bundles/secret-scan.ts): a hit refuses the export.
 */
export class BundleService {
  /** People's annotation log: exported with each run, imported beside it (none when not given). */
  private annotations: AnnotationStore | null = null;
  /** Lessons written in the app: those that play an exported run go with it; a bundle's are stored on import (none when not given). */
  private lessons: BundleLessons | null = null;
  /** The class forks of a run, left out of its bundle (none when not given). */
  private classBranchIds: ((runId: string) => Promise<ReadonlySet<string>>) | null = null;

  constructor(
    private readonly store: RunStore,
    private readonly templates: TemplateService,
    private readonly workbench: TemplateWorkbench,
    private readonly env: Record<string, string | undefined>,
  ) {}

  /** Carries runs' annotation logs in bundles (the composition root wires the context's store). */
  useAnnotations(store: AnnotationStore): void {
    this.annotations = store;
  }

  /** Leaves a class's forks out of a run's bundle (students' reflections stay with the class; the composition root wires the class service). */
  useClassBranches(classBranchIds: (runId: string) => Promise<ReadonlySet<string>>): void {
    this.classBranchIds = classBranchIds;
  }

  /** Carries the lessons written in the app that play a bundle's runs (the composition root wires the lesson library). */
  useLessons(lessons: BundleLessons): void {
    this.lessons = lessons;
  }

  private bundles(): BundleStore {
    if (!this.store.bundles) throw new AppError("internal", "This database cannot hold bundles (the in-memory store). Use the SQLite database.");
    return this.store.bundles;
  }

  /** A run as bundled: its branches (oldest first) and each branch's own events, checked against the event schemas. */
  private async bundleRun(runId: string): Promise<BundleRun> {
    return this.readRun(runId, true);
  }

  /** The run as a bundle holds it; with `ended`, refuses a run with a branch still running (bundle-run-reader.ts). */
  private readRun(runId: string, ended: boolean): Promise<BundleRun> {
    return readBundleRun({ store: this.store, annotations: this.annotations, classBranchIds: this.classBranchIds }, runId, ended);
  }

  /** The response-cache entries the runs' model calls used (every scope, occurrence and attempt of their request hashes). */
  private async cacheOf(runs: BundleRun[]): Promise<BundleContent["responseCache"]> {
    const hashes = runs.flatMap((run) => run.events.flatMap((event) => (event.type === "model-call-end" ? [event.data.requestHash] : [])));
    if (!this.store.listCacheEntries) return [];
    const entries = await this.store.listCacheEntries(hashes);
    return entries.map(({ key, response }) => ({ key, response: { text: response.text, usage: response.usage, finishReason: response.finishReason } }));
  }

  /** The template library versions the runs recorded (`versionId` in run-start templates and prompt edits). */
  private async templateVersionsOf(runs: BundleRun[]): Promise<BundleTemplateVersion[]> {
    const ids = new Set<string>();
    for (const run of runs) {
      for (const event of run.events) {
        if (event.type === "run-start") {
          const { templates, memoryManagement } = event.data.config;
          for (const template of [templates.actor, templates.reflector, memoryManagement?.kind === "summarize" ? memoryManagement.summarizer : undefined]) {
            if (template?.versionId) ids.add(template.versionId);
          }
        }
        if (event.type === "prompt-edit" && event.data.newTemplate.versionId) ids.add(event.data.newTemplate.versionId);
      }
    }
    const found: BundleTemplateVersion[] = [];
    for (const id of [...ids].sort()) {
      try {
        const { template, version } = await this.templates.resolve(id);
        found.push({ template, version });
      } catch {
        // A version this database no longer has: the text is in the run's config and events anyway.
      }
    }
    return found;
  }

  private seal(given: BundleContent, subject: BundleManifest["subject"], names: NamesMode): BundleDownload {
    const content = names === "strip" ? withoutNames(given) : given;
    const { bytes, manifest } = encodeBundle(content, subject);
    const refusal = secretRefusal(JSON.stringify(content), this.env);
    if (refusal) throw refusal;
    return { bytes, manifest, fileName: bundleFileName(subject, manifest.contentSha256) };
  }

  /** How a streamed export reads `runIds` (one run at a time) and what they used. */
  private exportSource(runIds: readonly string[], experiment: BundleExperiment | null, taskSets: TaskSetRecord[]): StreamedExportSource {
    return {
      runIds,
      readRun: (runId) => this.bundleRun(runId),
      cacheOf: (run) => this.cacheOf([run]),
      templateVersionsOf: (run) => this.templateVersionsOf([run]),
      experiment,
      taskSets,
      lessons: () => lessonsPlaying(this.lessons, runIds),
    };
  }

  /**
   * Exports a run with all its branches as a format-2 bundle streamed into `out` (lib/bundles/stream-writer.ts):
   * what the routes and the CLI write. `names` as for {@link exportRun}.
   * @throws AppError("not-found"), AppError("conflict") while a branch runs or for a secret; `out` is then destroyed.
   */
  async exportRunTo(out: Writable, runId: string, options: { names?: NamesMode } = {}): Promise<StreamedBundle & { fileName: string }> {
    const run = await this.store.getRun(asRunId(runId));
    if (!run) throw new AppError("not-found", `No run ${runId}.`);
    return writeStreamedBundle(out, { kind: "run", id: run.id, title: run.title }, this.exportSource([run.id], null, []), { names: options.names ?? "keep", env: this.env });
  }

  /**
   * Exports an experiment with every run of its cells as a format-2 bundle streamed into `out`, one run at a time.
   * @throws AppError("not-found"), AppError("conflict") (no runs yet, a running branch, a secret); `out` is then destroyed.
   */
  async exportExperimentTo(out: Writable, experimentId: string, options: { names?: NamesMode } = {}): Promise<StreamedBundle & { fileName: string }> {
    const { experiment, taskSets } = await this.experimentParts(experimentId);
    return writeStreamedBundle(
      out,
      { kind: "experiment", id: experiment.id, title: experiment.definition.name },
      this.exportSource(
        experiment.cells.map((cell) => cell.runId),
        experiment,
        taskSets,
      ),
      { names: options.names ?? "keep", env: this.env },
    );
  }

  /** An experiment's bundle record and its uploaded task set. @throws AppError("not-found"), AppError("conflict") when it has no runs. */
  private async experimentParts(experimentId: string): Promise<{ experiment: BundleExperiment; taskSets: TaskSetRecord[] }> {
    const record = await this.store.experiments.getExperiment(experimentId);
    if (!record) throw new AppError("not-found", `No experiment ${experimentId}.`);
    const links = await this.store.experiments.listExperimentRuns(record.id);
    if (links.length === 0) throw new AppError("conflict", `Experiment ${record.id} has no runs yet: nothing to export.`);
    const taskSets: TaskSetRecord[] = [];
    if (record.definition.taskSet !== "builtin") {
      const set = await this.store.getTaskSet(record.definition.taskSet);
      if (set) taskSets.push(set);
    }
    const experiment: BundleExperiment = {
      id: record.id,
      createdAt: record.createdAt,
      definition: record.definition,
      taskSetName: record.taskSetName,
      provenance: record.provenance,
      cells: links.map((link) => ({ taskId: link.taskId, arm: link.arm, runId: link.runId })),
    };
    return { experiment, taskSets };
  }

  /**
   * Exports a run with all its branches; `names: "strip"` replaces every person (event actors,
   * annotation authors) with a pseudonym (lib/domain/strip-names.ts). @throws AppError("not-found"), AppError("conflict") while a branch runs.
   */
  async exportRun(runId: string, options: { names?: NamesMode } = {}): Promise<BundleDownload> {
    const run = await this.bundleRun(runId);
    const runs = [run];
    return this.seal({ runs, experiments: [], taskSets: [], responseCache: await this.cacheOf(runs), templateVersions: await this.templateVersionsOf(runs) }, { kind: "run", id: run.id, title: run.title }, options.names ?? "keep");
  }

  /** Exports an experiment with every run of its cells and its uploaded task set (`names` as for {@link exportRun}). */
  async exportExperiment(experimentId: string, options: { names?: NamesMode } = {}): Promise<BundleDownload> {
    const { experiment, taskSets } = await this.experimentParts(experimentId);
    const runs: BundleRun[] = [];
    for (const cell of experiment.cells) runs.push(await this.bundleRun(cell.runId));
    return this.seal(
      { runs, experiments: [experiment], taskSets, responseCache: await this.cacheOf(runs), templateVersions: await this.templateVersionsOf(runs) },
      { kind: "experiment", id: experiment.id, title: experiment.definition.name },
      options.names ?? "keep",
    );
  }

  /**
   * Imports a bundle file: decodes and checks it (lib/bundles/codec.ts — a truncated, tampered,
   * malformed or newer-format file is refused with what is wrong), marks every run and experiment
   * read-only with provenance "Imported bundle", and stores it all in one transaction. The same
   * bundle again returns what it brought the first time; the template versions it carries are
   * added to the library afterwards (content-addressed, so nothing is duplicated). A run that is
   * here already (e.g. imported before from its own bundle) is kept as it is and the rest imported;
   * `notes` says, per such run, whether its content is the same (by content hash) or differs.
   * Each run's annotation log is added to this database's (by event id: importing again adds nothing).
   * @throws AppError("invalid-dataset") for a bad file, AppError("too-large") for one that decompresses past the limit.
   */
  async importBundle(bytes: Uint8Array, fileName: string): Promise<BundleImportOutcome> {
    // Whatever it writes beyond the bundle's own records (which keep their actors) is the importer's.
    return runAs(importActor("bundle"), async () => {
      const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      if (isGzip(bytes) && sniffBundleFormat(await bundleHead(Readable.from([buffer]))) === 2) {
        return importStreamed(this.streamedImportDeps(), () => Readable.from([buffer]), fileName);
      }
      return this.importFile(bytes, fileName);
    });
  }

  /**
   * Imports a bundle file on disk as {@link importBundle} does, reading a format-2 file as a stream
   * (twice: first to check it all, then to write it in batches; lib/server/bundle-import.ts), so
   * memory stays flat whatever its size. A format-1 file is read whole, as before (up to `REFLEXION_MAX_INFLATED_MB`).
   * @param fileName the name recorded in provenance (default: the file's own name).
   * @throws AppError("invalid-input") when the file cannot be read; as {@link importBundle} otherwise.
   */
  async importBundleFile(file: string, fileName: string = path.basename(file)): Promise<BundleImportOutcome> {
    try {
      await fs.promises.access(file, fs.constants.R_OK);
    } catch (error) {
      throw new AppError("invalid-input", `Cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`);
    }
    return runAs(importActor("bundle"), async () => {
      const streamed = sniffBundleFormat(await bundleHead(fs.createReadStream(file, { end: 1024 * 1024 - 1 }))) === 2;
      if (streamed) return importStreamed(this.streamedImportDeps(), () => fs.createReadStream(file, { highWaterMark: 1024 * 1024 }), fileName);
      return this.importFile(await fs.promises.readFile(file), fileName);
    });
  }

  /** What a streamed import needs of this service. */
  private streamedImportDeps(): StreamedImportDeps {
    return { store: this.store, bundles: this.bundles(), annotations: this.annotations, workbench: this.workbench, env: this.env, presentNote: (run) => this.presentNote(run), lessons: this.lessons };
  }

  private async importFile(bytes: Uint8Array, fileName: string): Promise<BundleImportOutcome> {
    const file = await decodeBundle(bytes, this.env);
    const { manifest, content } = file;
    const name = fileName.trim() || "upload";
    const runs = content.runs.map((run) => importedRun(run, manifest, name));
    const experiments = content.experiments.map((experiment) => importedExperiment(experiment, manifest, name));
    const present = await this.presentRuns(content.runs);
    const result = await this.bundles().importBundle({
      contentHash: manifest.contentSha256,
      fileName: name,
      manifestJson: JSON.stringify(manifest),
      runs,
      experiments,
      taskSets: content.taskSets,
      cache: content.responseCache,
    });
    // Run ids are kept on import, so the annotation log goes in as it is (skipping events already here, e.g. a second import),
    // except notes whose node this database's copy of a run lacks (a newer branch of a run kept as it is here).
    const annotations = this.annotations;
    const known = annotations ? new Set((await annotations.listEvents(content.runs.map((run) => run.id))).filter((event) => event.type === "annotation-add").map((event) => event.annotationId)) : new Set<string>();
    const fitting = annotations ? await annotationsThatFit(this.store, content.runs, known) : { kept: [], leftOut: 0, runsLeftOut: [] };
    const notesAdded = annotations && fitting.kept.length > 0 ? await annotations.importEvents(fitting.kept) : 0;
    if (content.templateVersions.length > 0) {
      await this.workbench.importFiles({ files: content.templateVersions.map(({ template, version }) => toTemplateFile(template, version)) });
    }
    const notes = result.skippedRunIds.map((runId) => present.get(runId) ?? `Run ${runId} was in this database already and was kept as it is here.`);
    // People's notes merge even into a run that was here already: say how many came in.
    if (notesAdded > 0) notes.push(`${notesAdded} annotation event${notesAdded === 1 ? "" : "s"} (notes, edits, deletions) added from the bundle.`);
    if (fitting.leftOut > 0) {
      notes.push(
        `${fitting.leftOut} note${fitting.leftOut === 1 ? " was" : "s were"} left out: ${fitting.leftOut === 1 ? "it is" : "they are"} on branches of run ${fitting.runsLeftOut.join(", ")} that the copy here does not have. Import the bundle into a database without that run to see ${fitting.leftOut === 1 ? "it" : "them"}.`,
      );
    }
    return { ...result, manifest, notes };
  }

  /**
   * For each run of the bundle that this database has already (same id): what to tell the person
   * about keeping it — the same recorded content (by {@link runContentSha256}), or how it differs.
   */
  private async presentRuns(runs: BundleRun[]): Promise<Map<string, string>> {
    const found = new Map<string, string>();
    for (const run of runs) {
      const note = await this.presentNote(run);
      if (note) found.set(run.id, note);
    }
    return found;
  }

  /** {@link presentRuns} for one run: null when this database does not have it. */
  private async presentNote(run: BundleRun): Promise<string | null> {
    if (!(await this.store.getRun(asRunId(run.id)))) return null;
    const here = await this.readRun(run.id, false);
    const hash = runContentSha256(run);
    if (runContentSha256(here) === hash) {
      return `Run ${run.id} ("${run.title}") is here already with the same content (SHA-256 ${hash.slice(0, 12)}…): the copy here was reused, not imported twice.`;
    }
    const branches = `${here.branches.length} branch${here.branches.length === 1 ? "" : "es"} and ${here.events.length} events here, ${run.branches.length} and ${run.events.length} in the bundle`;
    return `Run ${run.id} ("${run.title}") is here already with other content (${branches}, e.g. continued or forked here): the copy here was kept and the bundle's was not imported.`;
  }

  /** A bundle imported here, by its content hash (`/shared/<hash>`); null when it is not. */
  async getBundle(contentHash: string): Promise<BundleRecord | null> {
    if (!/^[0-9a-f]{64}$/.test(contentHash)) return null;
    return this.bundles().getBundle(contentHash);
  }

  /**
   * What `/shared/<hash>` shows: the bundle's manifest and each of its runs (task, strategy, model,
   * outcome of the recorded root branch) and experiments; null when it was not imported here.
   */
  async sharedView(contentHash: string): Promise<SharedBundleResponse | null> {
    const bundle = await this.getBundle(contentHash);
    if (!bundle) return null;
    const runs: SharedBundleResponse["runs"] = [];
    for (const runId of bundle.runIds) {
      const run = await this.store.getRun(asRunId(runId));
      if (!run) continue;
      const summary = await this.store.getBranchSummary(run.rootBranchId);
      runs.push({
        id: run.id,
        title: run.title,
        environment: run.config.environment,
        strategy: run.config.strategy,
        modelId: run.config.models.actor.modelId,
        createdAt: run.createdAt,
        branches: (await this.store.listBranches(run.id)).length,
        outcome: summary?.outcome ?? null,
        trials: summary?.trialsEnded ?? 0,
      });
    }
    const experiments: SharedBundleResponse["experiments"] = [];
    for (const id of bundle.experimentIds) {
      const record = await this.store.experiments.getExperiment(id);
      if (record) experiments.push({ id: record.id, name: record.definition.name });
    }
    const manifest = bundleManifestSchema.parse(JSON.parse(bundle.manifestJson));
    return { contentSha256: bundle.contentHash, fileName: bundle.fileName, importedAt: bundle.importedAt, manifest, runs, experiments };
  }

  /** Bundles imported here, newest first. */
  async listBundles(limit = 50): Promise<BundleRecord[]> {
    return this.bundles().listBundles(limit);
  }
}

/** The bundle's content with every person pseudonymized, one set of pseudonyms for the whole bundle. */
function withoutNames(content: BundleContent): BundleContent {
  const names = new Pseudonyms();
  return {
    ...content,
    runs: content.runs.map((run) => ({
      ...run,
      events: run.events.map((event) => stripEventNames(event, names)),
      ...(run.annotations ? { annotations: run.annotations.map((event) => stripAnnotationEventNames(event, names)) } : {}),
    })),
  };
}
