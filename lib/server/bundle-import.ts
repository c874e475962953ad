import type { Readable } from "node:stream";
import type { AnnotationStore } from "@/lib/db/annotation-store";
import type { BundleImportPart, BundleImportResult, BundlePartWritten, BundleStore } from "@/lib/db/bundle-store";
import type { RunStore } from "@/lib/db/store";
import type { BundleExperiment, BundleManifest, BundleRun, BundleTemplateVersion } from "@/lib/bundles/format";
import { reject } from "@/lib/bundles/codec";
import { bundleProvenance, withProvenance } from "@/lib/bundles/provenance";
import { readStreamedBundle, type StreamedRecord } from "@/lib/bundles/stream-reader";
import { runConfigSchema } from "@/lib/domain/config";
import { AppError, isAppError } from "@/lib/domain/errors";
import { asBranchId, asRunId } from "@/lib/domain/ids";
import { annotationsThatFit } from "./bundle-annotations";
import type { TemplateWorkbench } from "./template-workbench";
import { toTemplateFile } from "./template-files";
import type { Lesson } from "@/lib/lessons/lesson-schema";

/** The answer of an import: the stored bundle row, whether anything new was written, and the manifest. */
export interface BundleImportOutcome extends BundleImportResult {
  manifest: BundleManifest;
  /** One line per run of the bundle that was here already and was kept as it is (same content, or what differs), for people. */
  notes: string[];
}

/** A run of a bundle as the store writes it: read-only, with provenance "Imported bundle" from `fileName`. @throws AppError("invalid-dataset") when it does not start with run-start. */
export function importedRun(run: BundleRun, manifest: BundleManifest, fileName: string): BundleImportPart["runs"][number] {
  const start = run.events[0];
  if (!start || start.type !== "run-start") throw new AppError("invalid-dataset", `Run ${run.id} in this bundle does not start with run-start. Nothing was imported.`);
  const provenance = bundleProvenance({ manifest, fileName, run, original: start.data.config.provenance });
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
}

/** An experiment of a bundle as the store writes it, with provenance "Imported bundle". */
export function importedExperiment(experiment: BundleExperiment, manifest: BundleManifest, fileName: string): BundleImportPart["experiments"][number] {
  return {
    record: {
      id: experiment.id,
      createdAt: experiment.createdAt,
      definition: experiment.definition,
      taskSetName: experiment.taskSetName,
      provenance: bundleProvenance({ manifest, fileName, run: null, original: experiment.provenance, model: experiment.definition.arms[0]?.modelId ?? "" }),
    },
    cells: experiment.cells,
  };
}

/** What a streamed import needs of the app: its stores, the template library, and the note for a run that is here already. */
export interface StreamedImportDeps {
  store: RunStore;
  bundles: BundleStore;
  annotations: AnnotationStore | null;
  workbench: TemplateWorkbench;
  env: Record<string, string | undefined>;
  /** The sentence for a run of the bundle that this database has already (same id); null when it has not. */
  presentNote: (run: BundleRun) => Promise<string | null>;
  /** Stores a bundled lesson as an authored one (after the runs); none: the bundle's lessons are left out. */
  lessons: BundleLessonPort | null;
}

/** How an import stores the lessons a bundle carries (lib/server/lesson-library.ts `importLesson`). */
export interface BundleLessonPort {
  /** Stores one lesson; `renamedFrom` when its id was taken and it got a free one; `unchanged` when the same lesson is here. */
  importLesson(input: { lesson: Lesson; introduction: string }, options: { file: string }): Promise<{ document: { lesson: Lesson }; renamedFrom?: string; unchanged: boolean }>;
}

/**
 * Stores a bundle's lessons (after its runs) and says what happened to each in words: added, the same
 * one here already, or added under another id because its own was taken.
 */
export async function importBundleLessons(port: BundleLessonPort | null, lessons: ReadonlyArray<{ lesson: Lesson; introduction: string }>, fileName: string): Promise<string[]> {
  if (!port || lessons.length === 0) return [];
  const notes: string[] = [];
  for (const entry of lessons) {
    let result: Awaited<ReturnType<BundleLessonPort["importLesson"]>>;
    try {
      result = await port.importLesson(entry, { file: `${fileName} (lesson ${entry.lesson.id})` });
    } catch (error) {
      // The runs are in already: a lesson that does not fit this database's copy of its run is left out, and said so.
      if (!isAppError(error)) throw error;
      notes.push(`Lesson "${entry.lesson.title}" (${entry.lesson.id}) was left out: ${error.message}`);
      continue;
    }
    const { id, title } = result.document.lesson;
    if (result.unchanged) notes.push(`Lesson "${title}" (${id}) was here already and was kept as it is.`);
    else if (result.renamedFrom) notes.push(`Lesson "${title}" was added as ${id}: a lesson "${result.renamedFrom}" is here already (open /lessons to see both).`);
    else notes.push(`Lesson "${title}" (${id}) was added: it is on /lessons.`);
  }
  return notes;
}

/** Runs per write batch, and events per batch: about 5–10 MB of rows per transaction. */
const BATCH_RUNS = 50;
const BATCH_EVENTS = 4000;
const BATCH_CACHE_ENTRIES = 2000;

function emptyWritten(): BundlePartWritten {
  return { runIds: [], experimentIds: [], taskSetIds: [], cacheKeys: [], presentRunIds: [], presentExperimentIds: [] };
}

function addWritten(total: BundlePartWritten, part: BundlePartWritten): void {
  total.runIds.push(...part.runIds);
  total.experimentIds.push(...part.experimentIds);
  total.taskSetIds.push(...part.taskSetIds);
  total.cacheKeys.push(...part.cacheKeys);
  total.presentRunIds.push(...part.presentRunIds);
  total.presentExperimentIds.push(...part.presentExperimentIds);
}

/**
 * Imports a format-2 bundle in two streamed passes over `open()` (a file: it is opened twice). The
 * first reads and checks all of it — every line's schema, the references, the trailer's hash and
 * counts — and writes nothing, so a bad file leaves nothing behind. The second reads it again and
 * writes as it reads, in batches of about 50 runs, each in one transaction; if anything fails then
 * (the database, or the file changed between the passes), every row it wrote is removed again.
 * A bundle imported before (same content hash) returns its row without reading further.
 * Memory: one batch and one run at a time, whatever the bundle's size.
 * @throws AppError("invalid-dataset") naming what is wrong, AppError("too-large") past the inflated limit; nothing stays stored.
 */
export async function importStreamed(deps: StreamedImportDeps, open: () => Readable, fileName: string): Promise<BundleImportOutcome> {
  const name = fileName.trim() || "upload";
  const checked = await readStreamedBundle(open(), { env: deps.env });
  const existing = await deps.bundles.getBundle(checked.contentSha256);
  if (existing) return { bundle: existing, created: false, alreadyHere: false, skippedRunIds: [], manifest: checked, notes: [] };

  const total = emptyWritten();
  const runIds: string[] = [];
  const experimentIds: string[] = [];
  const notes = new Map<string, string>();
  const annotated: Array<Pick<BundleRun, "id" | "annotations">> = [];
  const templateVersions: BundleTemplateVersion[] = [];
  const lessons: Array<{ lesson: Lesson; introduction: string }> = [];
  let batch: BundleImportPart = { runs: [], experiments: [], taskSets: [], cache: [] };
  let batchEvents = 0;
  const flush = async () => {
    if (batch.runs.length + batch.experiments.length + batch.taskSets.length + batch.cache.length === 0) return;
    const part = batch;
    batch = { runs: [], experiments: [], taskSets: [], cache: [] };
    batchEvents = 0;
    addWritten(total, await deps.bundles.importBundlePart(part));
  };
  const visit = async (record: StreamedRecord) => {
    if (record.kind === "run") {
      const { run } = record;
      const note = await deps.presentNote(run);
      if (note) notes.set(run.id, note);
      batch.runs.push(importedRun(run, checked, name));
      runIds.push(run.id);
      if (run.annotations) annotated.push({ id: run.id, annotations: run.annotations });
      batchEvents += run.events.length;
      if (batch.runs.length >= BATCH_RUNS || batchEvents >= BATCH_EVENTS) await flush();
    } else if (record.kind === "experiment") {
      batch.experiments.push(importedExperiment(record.experiment, checked, name));
      experimentIds.push(record.experiment.id);
    } else if (record.kind === "task-set") batch.taskSets.push(record.taskSet);
    else if (record.kind === "cache") {
      for (const entry of record.entries) batch.cache.push(entry);
      if (batch.cache.length >= BATCH_CACHE_ENTRIES) await flush();
    } else if (record.kind === "lesson") lessons.push({ lesson: record.lesson, introduction: record.introduction });
    else templateVersions.push(record.templateVersion);
  };

  let bundle;
  try {
    const manifest = await readStreamedBundle(open(), { env: deps.env, visit });
    if (manifest.contentSha256 !== checked.contentSha256) reject("This bundle file changed while it was being imported (its content hash differs between two readings). Copy the file again and import the copy.");
    await flush();
    bundle = (await deps.bundles.recordBundle({ contentHash: checked.contentSha256, fileName: name, manifestJson: JSON.stringify(checked), runIds, experimentIds })).bundle;
  } catch (error) {
    try {
      await deps.bundles.removeBundleParts(total);
    } catch (cleanup) {
      throw new AppError("internal", `${error instanceof Error ? error.message : String(error)} Removing what was written failed too (${cleanup instanceof Error ? cleanup.message : String(cleanup)}): check runs ${total.runIds.slice(0, 5).join(", ")}… in this database.`);
    }
    throw error;
  }
  const alreadyHere = total.presentRunIds.length === runIds.length && total.presentExperimentIds.length === experimentIds.length;

  const out: string[] = total.presentRunIds.map((runId) => notes.get(runId) ?? `Run ${runId} was in this database already and was kept as it is here.`);
  const annotations = deps.annotations;
  if (annotations && annotated.length > 0) {
    const known = new Set((await annotations.listEvents(annotated.map((run) => run.id))).filter((event) => event.type === "annotation-add").map((event) => event.annotationId));
    const fitting = await annotationsThatFit(deps.store, annotated, known);
    const added = fitting.kept.length > 0 ? await annotations.importEvents(fitting.kept) : 0;
    if (added > 0) out.push(`${added} annotation event${added === 1 ? "" : "s"} (notes, edits, deletions) added from the bundle.`);
    if (fitting.leftOut > 0) {
      out.push(
        `${fitting.leftOut} note${fitting.leftOut === 1 ? " was" : "s were"} left out: ${fitting.leftOut === 1 ? "it is" : "they are"} on branches of run ${fitting.runsLeftOut.join(", ")} that the copy here does not have. Import the bundle into a database without that run to see ${fitting.leftOut === 1 ? "it" : "them"}.`,
      );
    }
  }
  if (templateVersions.length > 0) {
    await deps.workbench.importFiles({ files: templateVersions.map(({ template, version }) => toTemplateFile(template, version)) });
  }
  out.push(...(await importBundleLessons(deps.lessons, lessons, name)));
  return { bundle, created: !alreadyHere, alreadyHere, skippedRunIds: total.presentRunIds, manifest: checked, notes: out };
}
