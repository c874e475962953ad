import type { Writable } from "node:stream";
import type { BundleCacheEntry, BundleExperiment, BundleManifest, BundleRun, BundleTaskSet, BundleTemplateVersion } from "@/lib/bundles/format";
import { findSecrets } from "@/lib/bundles/secret-scan";
import { BundleStreamWriter, type StreamedBundle } from "@/lib/bundles/stream-writer";
import { AppError } from "@/lib/domain/errors";
import type { Lesson } from "@/lib/lessons/lesson-schema";
import { Pseudonyms, stripAnnotationEventNames, stripEventNames, type NamesMode } from "@/lib/domain/strip-names";

/** Where a streamed export reads from: the runs one at a time, and what they used. */
export interface StreamedExportSource {
  /** The runs to export, in order. */
  runIds: readonly string[];
  /** One run as a bundle holds it. @throws AppError("not-found"), AppError("conflict") while a branch runs. */
  readRun: (runId: string) => Promise<BundleRun>;
  /** The response-cache entries one run's model calls used. */
  cacheOf: (run: BundleRun) => Promise<BundleCacheEntry[]>;
  /** The template library versions one run recorded. */
  templateVersionsOf: (run: BundleRun) => Promise<BundleTemplateVersion[]>;
  /** The experiment (after its runs), or none for a run's bundle. */
  experiment: BundleExperiment | null;
  taskSets: readonly BundleTaskSet[];
  /** The lessons written in the app that play one of `runIds` (written last); none when absent. */
  lessons?: () => Promise<Array<{ lesson: Lesson; introduction: string }>>;
}

/** The refusal of an export whose text holds a secret (which variable's value, never the value). */
export function secretRefusal(text: string, env: Record<string, string | undefined>): AppError | null {
  const findings = findSecrets(text, env);
  if (findings.length === 0) return null;
  return new AppError(
    "conflict",
    `Export refused: the run's recorded text contains ${findings.map((finding) => (finding.kind === "env-value" ? `the value of ${finding.what}` : finding.what)).join(" and ")}. Nothing was written; remove it from the task or prompts and run again.`,
  );
}

/** `run-<title>-<hash12>.reflexion.json.gz`: a bundle's file name. */
export function bundleFileName(subject: BundleManifest["subject"], contentSha256: string): string {
  const slug =
    subject.title
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 40) || "bundle";
  return `${subject.kind}-${slug}-${contentSha256.slice(0, 12)}.reflexion.json.gz`;
}

/**
 * Writes a format-2 bundle of `source` into `out`, reading one run at a time: each run (names
 * replaced by pseudonyms with `names: "strip"`, one set for the whole bundle), then the cache
 * entries it used (each key once), then the experiment, task sets, template versions and the
 * authored lessons that play its runs. Every
 * line is searched for secrets (lib/bundles/secret-scan.ts) before it is written; a hit, or a run
 * that cannot be read, stops the export and destroys `out` (the caller deletes the partial file).
 * @returns the manifest (with counts and content hash), the bytes written and a file name.
 * @throws AppError("conflict") for a secret or a running branch; AppError("not-found") for a missing run.
 */
export async function writeStreamedBundle(
  out: Writable,
  subject: BundleManifest["subject"],
  source: StreamedExportSource,
  options: { names: NamesMode; env: Record<string, string | undefined> },
): Promise<StreamedBundle & { fileName: string }> {
  const writer = new BundleStreamWriter(out, subject, {
    inspect: (line) => {
      const refusal = secretRefusal(line, options.env);
      if (refusal) throw refusal;
    },
  });
  const names = options.names === "strip" ? new Pseudonyms() : null;
  try {
    const cacheKeys = new Set<string>();
    const versions = new Map<string, BundleTemplateVersion>();
    for (const runId of source.runIds) {
      const read = await source.readRun(runId);
      const run: BundleRun = names
        ? {
            ...read,
            events: read.events.map((event) => stripEventNames(event, names)),
            ...(read.annotations ? { annotations: read.annotations.map((event) => stripAnnotationEventNames(event, names)) } : {}),
          }
        : read;
      await writer.addRun(run);
      const entries = (await source.cacheOf(run)).filter((entry) => !cacheKeys.has(entry.key));
      for (const entry of entries) cacheKeys.add(entry.key);
      await writer.addCacheEntries(entries);
      for (const version of await source.templateVersionsOf(run)) versions.set(version.version.id, version);
    }
    if (source.experiment) await writer.addExperiment(source.experiment);
    for (const taskSet of source.taskSets) await writer.addTaskSet(taskSet);
    for (const id of [...versions.keys()].sort()) {
      const version = versions.get(id);
      if (version) await writer.addTemplateVersion(version);
    }
    for (const { lesson, introduction } of (await source.lessons?.()) ?? []) await writer.addLesson(lesson, introduction);
    const written = await writer.finish();
    return { ...written, fileName: bundleFileName(subject, written.manifest.contentSha256) };
  } catch (error) {
    writer.abort(error instanceof Error ? error : new Error(String(error)));
    throw error;
  }
}
