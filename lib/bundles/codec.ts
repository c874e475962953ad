import { gzipSync } from "node:zlib";
import { z } from "zod";
import { AppError, isAppError } from "@/lib/domain/errors";
import { gunzipBounded, isGzip } from "@/lib/io/gunzip-bounded";
import packageJson from "@/package.json";
import { contentSha256 } from "./content-hash";
import {
  BUNDLE_FORMAT,
  BUNDLE_FORMAT_V1,
  BUNDLE_FORMAT_VERSION,
  bundleContentSchema,
  bundleFileSchema,
  countsOf,
  type BundleContent,
  type BundleExperiment,
  type BundleFile,
  type BundleManifest,
  type BundleRun,
} from "./format";

/** The app version written into every manifest (package.json). */
export const APP_VERSION: string = packageJson.version;

/** File name suffix of a bundle (gzip'd JSON). */
export const BUNDLE_EXTENSION = ".reflexion.json.gz";

/**
 * Builds a format-1 file in memory (the server and CLI export format 2, lib/bundles/stream-writer.ts): validates `content` against the allow-list schemas (a field outside them is
 * an error, not silently dropped), hashes its canonical JSON and gzips `{ manifest, content }`.
 * @returns the bytes and the manifest written.
 */
export function encodeBundle(content: BundleContent, subject: BundleManifest["subject"], now: Date = new Date()): { bytes: Buffer; manifest: BundleManifest } {
  const checked = bundleContentSchema.parse(content);
  const manifest: BundleManifest = {
    format: BUNDLE_FORMAT,
    formatVersion: BUNDLE_FORMAT_V1,
    appVersion: APP_VERSION,
    createdAt: now.toISOString(),
    subject,
    counts: countsOf(checked),
    contentSha256: contentSha256(checked),
  };
  const bytes = gzipSync(Buffer.from(JSON.stringify({ manifest, content: checked })), { level: 9 });
  return { bytes, manifest };
}

const headSchema = z.object({
  manifest: z.object({ format: z.unknown(), formatVersion: z.unknown(), contentSha256: z.unknown() }).passthrough(),
  content: z.unknown(),
});

/** Refuses a bundle: AppError("invalid-dataset") with `message` and "Nothing was imported.". */
export function reject(message: string): never {
  throw new AppError("invalid-dataset", `${message} Nothing was imported.`);
}

/**
 * Reads a bundle file, in this order, so each fault gets its own message: gunzip (a truncated or
 * non-gzip file; one that decompresses past `REFLEXION_MAX_INFLATED_MB` is refused as soon as it
 * passes it, lib/io/gunzip-bounded.ts), JSON, the format marker, the format version (a newer one is
 * refused by name), the content hash over the canonical content as stored (any changed byte of the
 * content), the full strict schema, the counts, and the internal references (events of the run
 * they say, on its branches, seq 1… per branch).
 * @param env where `REFLEXION_MAX_INFLATED_MB` is read (default `process.env`).
 * @throws AppError("invalid-dataset") naming what is wrong, AppError("too-large") naming the limit; the caller imports nothing.
 */
export async function decodeBundle(bytes: Uint8Array, env: Record<string, string | undefined> = process.env): Promise<BundleFile> {
  if (!isGzip(bytes)) {
    reject("This file is not a readable Reflexion bundle: a bundle is gzip data (a .reflexion.json.gz file from Export bundle), and this file is not. Check that you picked the bundle, or export the run again.");
  }
  let text: string;
  try {
    text = (await gunzipBounded(bytes, { what: "bundle", env })).toString("utf8");
  } catch (error) {
    if (isAppError(error, "too-large")) throw error;
    reject("This file is not a readable Reflexion bundle: its gzip data is damaged or cut short. Export it again and copy the whole file.");
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    reject(`This bundle's JSON is damaged (${error instanceof Error ? error.message : String(error)}). Export it again.`);
  }
  const head = headSchema.safeParse(json);
  if (!head.success || head.data.manifest.format !== BUNDLE_FORMAT) reject("This file is not a Reflexion Playground run bundle (no bundle manifest in it).");
  const version = head.data.manifest.formatVersion;
  if (typeof version !== "number" || !Number.isInteger(version)) reject("This bundle's manifest has no valid format version.");
  if (version > BUNDLE_FORMAT_VERSION) {
    reject(`This bundle was made by a newer version of Reflexion Playground (bundle format ${version}; this app reads up to ${BUNDLE_FORMAT_VERSION}). Update the app, then import it again.`);
  }
  let actual: string;
  try {
    actual = contentSha256(head.data.content);
  } catch {
    reject("This bundle has no content.");
  }
  if (actual !== head.data.manifest.contentSha256) {
    reject(`This bundle was changed after it was exported: its content hash is ${actual.slice(0, 12)}…, the manifest says ${String(head.data.manifest.contentSha256).slice(0, 12)}…. Ask for the original file.`);
  }
  const parsed = bundleFileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    reject(`This bundle does not match the bundle format at ${issue?.path.join(".") || "its top level"}: ${issue?.message ?? "invalid"}.`);
  }
  const file = parsed.data;
  const counts = countsOf(file.content);
  if (JSON.stringify(counts) !== JSON.stringify(file.manifest.counts)) {
    reject(`This bundle's manifest counts (${JSON.stringify(file.manifest.counts)}) do not match its content (${JSON.stringify(counts)}).`);
  }
  checkReferences(file.content);
  return file;
}

function checkReferences(content: BundleContent): void {
  const runIds = new Set(content.runs.map((run) => run.id));
  for (const run of content.runs) checkRunReferences(run);
  for (const experiment of content.experiments) checkExperimentReferences(experiment, runIds);
}

/**
 * A run's internal references: its events and notes are its own, on its branches, seq 1… per branch
 * (from the fork point), run-start first on the root branch, every parent branch present.
 * @throws AppError("invalid-dataset") naming the first fault ("… Nothing was imported.").
 */
export function checkRunReferences(run: BundleRun): void {
  const branches = new Map(run.branches.map((branch) => [branch.id, branch]));
  if (!branches.has(run.rootBranchId)) reject(`Run ${run.id} in this bundle has no root branch ${run.rootBranchId}.`);
  const lastSeq = new Map<string, number>();
  for (const event of run.events) {
    if (event.runId !== run.id) reject(`Event ${event.id} in this bundle belongs to run ${event.runId}, not ${run.id}.`);
    const branch = branches.get(event.branchId);
    if (!branch) reject(`Event ${event.id} in this bundle is on branch ${event.branchId}, which the bundle does not have.`);
    const expected = lastSeq.has(event.branchId) ? (lastSeq.get(event.branchId) ?? 0) + 1 : branch.forkSeq === null ? 1 : branch.forkSeq + 1;
    if (event.seq !== expected) reject(`Branch ${event.branchId} in this bundle skips from seq ${expected - 1} to ${event.seq} (events are missing).`);
    lastSeq.set(event.branchId, event.seq);
  }
  for (const annotation of run.annotations ?? []) {
    const owner = annotation.type === "annotation-add" ? annotation.target.runId : annotation.runId;
    if (owner !== run.id) reject(`Annotation event ${annotation.id} in this bundle belongs to run ${owner}, not ${run.id}.`);
  }
  const first = run.events[0];
  if (!first || first.type !== "run-start" || first.branchId !== run.rootBranchId) reject(`Run ${run.id} in this bundle does not start with its run-start event.`);
  for (const branch of run.branches) {
    if (branch.parentBranchId !== null && !branches.has(branch.parentBranchId)) reject(`Branch ${branch.id} in this bundle forks from ${branch.parentBranchId}, which the bundle does not have.`);
  }
}

/**
 * An experiment's cells name runs of the bundle (`runIds`: the ids of the runs read so far).
 * @throws AppError("invalid-dataset") naming the first run it lacks.
 */
export function checkExperimentReferences(experiment: BundleExperiment, runIds: ReadonlySet<string>): void {
  for (const cell of experiment.cells) {
    if (!runIds.has(cell.runId)) reject(`Experiment ${experiment.id} in this bundle lists run ${cell.runId}, which the bundle does not have.`);
  }
}
