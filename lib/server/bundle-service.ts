import type { AnnotationStore } from "@/lib/db/annotation-store";
import type { BundleRecord, BundleImportResult, BundleStore } from "@/lib/db/bundle-store";
import type { RunStore, TaskSetRecord } from "@/lib/db/store";
import { annotationsThatFit } from "./bundle-annotations";
import { decodeBundle, encodeBundle } from "@/lib/bundles/codec";
import type { SharedBundleResponse } from "@/lib/bundles/api";
import { bundleManifestSchema } from "@/lib/bundles/format";
import type { BundleContent, BundleExperiment, BundleManifest, BundleRun, BundleTemplateVersion } from "@/lib/bundles/format";
import { bundleProvenance, withProvenance } from "@/lib/bundles/provenance";
import { runContentSha256 } from "@/lib/bundles/run-identity";
import { findSecrets } from "@/lib/bundles/secret-scan";
import { runConfigSchema } from "@/lib/domain/config";
import { AppError } from "@/lib/domain/errors";
import { runEventSchema, type RunEvent } from "@/lib/domain/events";
import { asBranchId, asRunId } from "@/lib/domain/ids";
import { runAs } from "@/lib/actors/actor-context";
import { importActor } from "@/lib/auth/system-actors";
import { Pseudonyms, stripAnnotationEventNames, stripEventNames, type NamesMode } from "@/lib/domain/strip-names";
import type { TemplateService } from "./template-service";
import type { TemplateWorkbench } from "./template-workbench";
import { toTemplateFile } from "./template-files";

/** A bundle file ready to download. */
export interface BundleDownload {
  bytes: Buffer;
  manifest: BundleManifest;
  /** A file name for it, e.g. `run-<title>-<hash12>.reflexion.json.gz`. */
  fileName: string;
}

/** The answer of an import: the stored bundle row, whether anything new was written, and the manifest. */
export interface BundleImportOutcome extends BundleImportResult {
  manifest: BundleManifest;
  /** One line per run of the bundle that was here already and was kept as it is (same content, or what differs), for people. */
  notes: string[];
}

function slug(text: string): string {
  return (
    text
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 40) || "bundle"
  );
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

  private bundles(): BundleStore {
    if (!this.store.bundles) throw new AppError("internal", "This database cannot hold bundles (the in-memory store). Use the SQLite database.");
    return this.store.bundles;
  }

  /** A run as bundled: its branches (oldest first) and each branch's own events, checked against the event schemas. */
  private async bundleRun(runId: string): Promise<BundleRun> {
    return this.readRun(runId, true);
  }

  /** The run as a bundle holds it; with `ended`, refuses a run with a branch still running. @throws AppError("not-found") */
  private async readRun(runId: string, ended: boolean): Promise<BundleRun> {
    const run = await this.store.getRun(asRunId(runId));
    if (!run) throw new AppError("not-found", `No run ${runId}.`);
    const branches = await this.store.listBranches(run.id);
    const events: RunEvent[] = [];
    for (const branch of branches) {
      const summary = ended ? await this.store.getBranchSummary(branch.id) : null;
      if (summary?.status === "running") {
        throw new AppError("conflict", `Run ${run.id} has a branch that is still running (${branch.id}). Export it when it has ended or is paused.`);
      }
      const path = await this.store.list(run.id, branch.id);
      for (const event of path) if (event.branchId === branch.id) events.push(runEventSchema.parse(event));
    }
    const annotations = this.annotations ? await this.annotations.listForRun(run.id) : [];
    return {
      id: run.id,
      createdAt: run.createdAt,
      title: run.title,
      rootBranchId: run.rootBranchId,
      branches: branches.map((branch) => ({ id: branch.id, parentBranchId: branch.parentBranchId, forkSeq: branch.forkSeq, createdAt: branch.createdAt })),
      events,
      ...(annotations.length > 0 ? { annotations } : {}),
    };
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
    const text = JSON.stringify(content);
    const findings = findSecrets(text, this.env);
    if (findings.length > 0) {
      throw new AppError(
        "conflict",
        `Export refused: the run's recorded text contains ${findings.map((finding) => (finding.kind === "env-value" ? `the value of ${finding.what}` : finding.what)).join(" and ")}. Nothing was written; remove it from the task or prompts and run again.`,
      );
    }
    return { bytes, manifest, fileName: `${subject.kind}-${slug(subject.title)}-${manifest.contentSha256.slice(0, 12)}.reflexion.json.gz` };
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
    const record = await this.store.experiments.getExperiment(experimentId);
    if (!record) throw new AppError("not-found", `No experiment ${experimentId}.`);
    const links = await this.store.experiments.listExperimentRuns(record.id);
    if (links.length === 0) throw new AppError("conflict", `Experiment ${record.id} has no runs yet: nothing to export.`);
    const runs: BundleRun[] = [];
    for (const link of links) runs.push(await this.bundleRun(link.runId));
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
    return this.seal(
      { runs, experiments: [experiment], taskSets, responseCache: await this.cacheOf(runs), templateVersions: await this.templateVersionsOf(runs) },
      { kind: "experiment", id: record.id, title: record.definition.name },
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
    return runAs(importActor("bundle"), () => this.importFile(bytes, fileName));
  }

  private async importFile(bytes: Uint8Array, fileName: string): Promise<BundleImportOutcome> {
    const file = await decodeBundle(bytes, this.env);
    const { manifest, content } = file;
    const name = fileName.trim() || "upload";
    const runs = content.runs.map((run) => {
      const start = run.events[0];
      if (!start || start.type !== "run-start") throw new AppError("invalid-dataset", `Run ${run.id} in this bundle does not start with run-start. Nothing was imported.`);
      const provenance = bundleProvenance({ manifest, fileName: name, run, original: start.data.config.provenance });
      const config = runConfigSchema.parse({ ...start.data.config, provenance });
      return {
        record: { id: asRunId(run.id), createdAt: run.createdAt, rootBranchId: asBranchId(run.rootBranchId), title: run.title, config },
        branches: run.branches.map((branch) => ({
          id: asBranchId(branch.id),
          runId: asRunId(run.id),
          parentBranchId: branch.parentBranchId === null ? null : asBranchId(branch.parentBranchId),
          forkSeq: branch.forkSeq,
          createdAt: branch.createdAt,
        })),
        events: withProvenance(run.events, config),
      };
    });
    const experiments = content.experiments.map((experiment) => ({
      record: {
        id: experiment.id,
        createdAt: experiment.createdAt,
        definition: experiment.definition,
        taskSetName: experiment.taskSetName,
        provenance: bundleProvenance({ manifest, fileName: name, run: null, original: experiment.provenance, model: experiment.definition.arms[0]?.modelId ?? "" }),
      },
      cells: experiment.cells,
    }));
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
      if (!(await this.store.getRun(asRunId(run.id)))) continue;
      const here = await this.readRun(run.id, false);
      const hash = runContentSha256(run);
      if (runContentSha256(here) === hash) {
        found.set(run.id, `Run ${run.id} ("${run.title}") is here already with the same content (SHA-256 ${hash.slice(0, 12)}…): the copy here was reused, not imported twice.`);
      } else {
        const branches = `${here.branches.length} branch${here.branches.length === 1 ? "" : "es"} and ${here.events.length} events here, ${run.branches.length} and ${run.events.length} in the bundle`;
        found.set(run.id, `Run ${run.id} ("${run.title}") is here already with other content (${branches}, e.g. continued or forked here): the copy here was kept and the bundle's was not imported.`);
      }
    }
    return found;
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
