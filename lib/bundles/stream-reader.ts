import { createHash } from "node:crypto";
import type { Readable } from "node:stream";
import { createGunzip } from "node:zlib";
import { AppError, isAppError } from "@/lib/domain/errors";
import { InflatedTooLargeError } from "@/lib/io/gunzip-bounded";
import { LineTooLongError, linesOf } from "@/lib/io/lines";
import { BUNDLE_FORMAT, BUNDLE_FORMAT_VERSION, type BundleCacheEntry, type BundleCounts, type BundleExperiment, type BundleManifest, type BundleRun, type BundleTaskSet, type BundleTemplateVersion } from "./format";
import { checkExperimentReferences, checkRunReferences, reject } from "./codec";
import { MAX_BUNDLE_LINE_BYTES, maxStreamedInflatedBytes } from "./limits";
import type { Lesson } from "@/lib/lessons/lesson-schema";
import { streamManifestLineSchema, streamRecordLineSchema, streamTrailerLineSchema, type StreamRunHeader } from "./stream-format";

/** One record of a format-2 bundle as the reader hands it on: a whole run (header, events, notes), or one other record. */
export type StreamedRecord =
  | { kind: "run"; run: BundleRun }
  | { kind: "experiment"; experiment: BundleExperiment }
  | { kind: "task-set"; taskSet: BundleTaskSet }
  | { kind: "cache"; entries: BundleCacheEntry[] }
  | { kind: "template-version"; templateVersion: BundleTemplateVersion }
  | { kind: "lesson"; lesson: Lesson; introduction: string };

/** Options of {@link readStreamedBundle}. */
export interface StreamReadOptions {
  /** Where `REFLEXION_MAX_BUNDLE_MB` and `REFLEXION_MAX_INFLATED_MB` are read (default `process.env`). */
  env?: Record<string, string | undefined>;
  /** Gets each record once it is checked (a run once all its lines are in); awaited before the next line is read. */
  visit?: (record: StreamedRecord) => Promise<void>;
}

const NOT_GZIP = "This file is not a readable Reflexion bundle: a bundle is gzip data (a .reflexion.json.gz file from Export bundle), and this file is not. Check that you picked the bundle, or export the run again.";
const DAMAGED_GZIP = "This file is not a readable Reflexion bundle: its gzip data is damaged or cut short. Export it again and copy the whole file.";

/** Most inflated bytes per gzip'd byte a bundle may show once past {@link RATIO_FLOOR_BYTES}. */
export const MAX_BUNDLE_RATIO = 100;
/** Inflated bytes read before the ratio is checked (small files may compress better). */
const RATIO_FLOOR_BYTES = 64 * 1024 * 1024;

function parseJson(line: Buffer): unknown {
  return JSON.parse(line.toString("utf8")) as unknown;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Inflated chunks of `source`, counted against `limit`, and against {@link MAX_BUNDLE_RATIO} × the
 * gzip'd bytes read so far once past {@link RATIO_FLOOR_BYTES}: JSON text compresses 3–20×, a bomb
 * of zeros or of one repeated line about 1000×, so a bomb is refused after a few hundred MB of
 * work at most, however high the limit is set.
 * @throws InflatedTooLargeError past `limit`; AppError("too-large") past the ratio.
 */
async function* inflated(source: Readable, limit: number): AsyncGenerator<Buffer> {
  const gunzip = createGunzip({ chunkSize: 64 * 1024 });
  let compressed = 0;
  source.on("data", (chunk: Buffer) => {
    compressed += chunk.length;
  });
  source.on("error", (error) => gunzip.destroy(error));
  source.pipe(gunzip);
  let total = 0;
  try {
    for await (const chunk of gunzip as AsyncIterable<Buffer>) {
      total += chunk.length;
      if (total > limit) throw new InflatedTooLargeError("bundle", limit);
      if (total > RATIO_FLOOR_BYTES && total > MAX_BUNDLE_RATIO * compressed) {
        throw new AppError("too-large", `This bundle decompresses to more than ${MAX_BUNDLE_RATIO} times its size, far more than any bundle does (a decompression bomb, or not a bundle). Nothing was imported.`);
      }
      yield chunk;
    }
  } finally {
    source.unpipe(gunzip);
    source.destroy();
    gunzip.destroy();
  }
}

/** Per-run assembly and the checks that span lines: order, references, counts. */
class RecordAssembler {
  readonly counts: BundleCounts = { runs: 0, branches: 0, events: 0, cacheEntries: 0, experiments: 0, templateVersions: 0 };
  private readonly runIds = new Set<string>();
  private current: { header: StreamRunHeader; events: BundleRun["events"]; annotations: NonNullable<BundleRun["annotations"]> } | null = null;

  /** The run being assembled, checked, once its lines are all in; null when none is open. @throws AppError("invalid-dataset") */
  closeRun(): BundleRun | null {
    const open = this.current;
    if (!open) return null;
    this.current = null;
    const run: BundleRun = { ...open.header, events: open.events, ...(open.annotations.length > 0 ? { annotations: open.annotations } : {}) };
    checkRunReferences(run);
    return run;
  }

  /** Takes one record line; returns the records it completes. @throws AppError("invalid-dataset") */
  take(line: unknown, number: number): StreamedRecord[] {
    const parsed = streamRecordLineSchema.safeParse(line);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      reject(`This bundle does not match the bundle format at line ${number}${issue?.path.length ? `, ${issue.path.join(".")}` : ""}: ${issue?.message ?? "invalid"}.`);
    }
    const record = parsed.data;
    if (record.type === "run") {
      if (this.runIds.has(record.run.id)) reject(`Run ${record.run.id} appears twice in this bundle (line ${number}): it was not written by Export bundle as it is. Export it again, or ask for the original file.`);
      const done = this.closeRun();
      this.runIds.add(record.run.id);
      this.current = { header: record.run, events: [], annotations: [] };
      this.counts.runs += 1;
      this.counts.branches += record.run.branches.length;
      return done ? [{ kind: "run", run: done }] : [];
    }
    if (record.type === "events" || record.type === "annotations") {
      if (!this.current || this.current.header.id !== record.runId) {
        reject(`Line ${number} of this bundle holds ${record.type} of run ${record.runId} outside that run's records${this.current ? ` (after run ${this.current.header.id})` : ""}: it was not written by Export bundle as it is. Export it again, or ask for the original file.`);
      }
      if (record.type === "events") {
        if (this.current.annotations.length > 0) reject(`Line ${number} of this bundle holds events of run ${record.runId} after its notes: it was not written by Export bundle as it is. Export it again, or ask for the original file.`);
        for (const event of record.events) this.current.events.push(event);
        this.counts.events += record.events.length;
      } else {
        for (const event of record.annotations) this.current.annotations.push(event);
      }
      return [];
    }
    const done = this.closeRun();
    const out: StreamedRecord[] = done ? [{ kind: "run", run: done }] : [];
    if (record.type === "experiment") {
      checkExperimentReferences(record.experiment, this.runIds);
      this.counts.experiments += 1;
      out.push({ kind: "experiment", experiment: record.experiment });
    } else if (record.type === "task-set") out.push({ kind: "task-set", taskSet: record.taskSet });
    else if (record.type === "lesson") {
      // A bundle carries only the lessons that play one of its runs (lesson-schema.ts's `stored` kind).
      if (record.lesson.run.kind !== "stored" || !this.runIds.has(record.lesson.run.runId)) {
        reject(`Line ${number} of this bundle holds lesson "${record.lesson.id}", which does not play a run of this bundle: it was not written by Export bundle as it is. Export it again, or ask for the original file.`);
      }
      out.push({ kind: "lesson", lesson: record.lesson, introduction: record.introduction });
    } else if (record.type === "cache") {
      this.counts.cacheEntries += record.entries.length;
      out.push({ kind: "cache", entries: record.entries });
    } else if (record.type === "template-version") out.push({ kind: "template-version", templateVersion: record.templateVersion });
    if (record.type === "template-version") this.counts.templateVersions += 1;
    return out;
  }
}

/**
 * Reads a format-2 bundle (lib/bundles/stream-format.ts) from `source` (its gzip'd bytes) one line at
 * a time, with the same checks and messages as the format-1 reader (lib/bundles/codec.ts
 * `decodeBundle`): gzip (a damaged or cut-short file), the manifest (not a bundle; a newer version,
 * by name), each line's JSON and strict schema, the references (events of the run they say, on its
 * branches, seq 1… per branch; experiment cells naming runs of the bundle), the trailer's content
 * hash over the record lines (a changed byte) and its counts. A record is passed to `visit` once
 * checked; after the first fault no more are, but the reader reads on to the trailer so that a
 * changed byte is reported as one ("changed after it was exported") rather than as the fault it made.
 * Memory: one run's records, a 64 KiB inflate window and one line (at most 64 MiB).
 * @returns the manifest as the bundle states it (format version, subject, the trailer's counts and hash).
 * @throws AppError("invalid-dataset") naming what is wrong ("… Nothing was imported."); InflatedTooLargeError
 *   (`too-large`) past {@link maxStreamedInflatedBytes}; whatever `visit` throws, as it is.
 */
export async function readStreamedBundle(source: Readable, options: StreamReadOptions = {}): Promise<BundleManifest> {
  const limit = maxStreamedInflatedBytes(options.env);
  const hash = createHash("sha256");
  const assembler = new RecordAssembler();
  let manifest: BundleManifest | null = null;
  let trailer: { counts: BundleCounts; contentSha256: string } | null = null;
  let fault: AppError | null = null;
  let number = 0;
  const deliver = async (records: StreamedRecord[]) => {
    if (fault || !options.visit) return;
    for (const record of records) await options.visit(record);
  };
  try {
    for await (const line of linesOf(inflated(source, limit), MAX_BUNDLE_LINE_BYTES)) {
      number += 1;
      if (number === 1) {
        manifest = manifestOf(line);
        continue;
      }
      if (trailer) reject(`This bundle has more lines after its trailer (line ${number}): it was changed after it was exported. Ask for the original file.`);
      let json: unknown;
      try {
        json = parseJson(line);
      } catch (error) {
        hash.update(line);
        hash.update("\n");
        fault ??= new AppError("invalid-dataset", `This bundle's JSON is damaged at line ${number} (${messageOf(error)}). Export it again. Nothing was imported.`);
        continue;
      }
      const isTrailer = typeof json === "object" && json !== null && (json as { type?: unknown }).type === "trailer";
      if (isTrailer) {
        const parsed = streamTrailerLineSchema.safeParse(json);
        if (!parsed.success) reject(`This bundle's trailer (line ${number}) is not valid: ${parsed.error.issues[0]?.message ?? "invalid"}. Export it again, or ask for the original file.`);
        trailer = parsed.data;
        continue;
      }
      hash.update(line);
      hash.update("\n");
      if (fault) continue;
      let completed: StreamedRecord[] = [];
      try {
        completed = assembler.take(json, number);
      } catch (error) {
        if (!isAppError(error, "invalid-dataset")) throw error;
        fault = error;
        continue;
      }
      await deliver(completed);
    }
  } catch (error) {
    if (error instanceof InflatedTooLargeError || isAppError(error)) throw error;
    if (error instanceof LineTooLongError) reject(`Line ${error.line} of this bundle is longer than ${error.limitBytes} bytes, more than any bundle writes; the file is damaged or not a bundle.`);
    if (number === 0 && error instanceof Error && /incorrect header check|unknown compression method/i.test(error.message)) reject(NOT_GZIP);
    if (error instanceof Error && "code" in error && String((error as { code?: unknown }).code).startsWith("Z_")) reject(DAMAGED_GZIP);
    throw error;
  }
  if (!manifest) reject("This file is not a Reflexion Playground run bundle (no bundle manifest in it).");
  if (!trailer) {
    if (fault) throw fault;
    reject(`This bundle is cut short: it ends after line ${number}, before its trailer. Export it again and copy the whole file.`);
  }
  const actual = hash.digest("hex");
  if (actual !== trailer.contentSha256) {
    reject(`This bundle was changed after it was exported: its content hash is ${actual.slice(0, 12)}…, its trailer says ${trailer.contentSha256.slice(0, 12)}…. Ask for the original file.`);
  }
  if (fault) throw fault;
  const run = assembler.closeRun();
  if (run) await deliver([{ kind: "run", run }]);
  if (assembler.counts.runs === 0) reject("This bundle holds no run: export a run or an experiment with runs, then import that file.");
  if (JSON.stringify(assembler.counts) !== JSON.stringify(trailer.counts)) {
    reject(`This bundle's trailer counts (${JSON.stringify(trailer.counts)}) do not match its content (${JSON.stringify(assembler.counts)}).`);
  }
  return { ...manifest, counts: trailer.counts, contentSha256: trailer.contentSha256 };
}

/** The manifest line, checked in the format-1 order: a bundle at all, the version, then the strict schema. */
function manifestOf(line: Buffer): BundleManifest {
  let json: unknown;
  try {
    json = parseJson(line);
  } catch {
    reject("This file is not a Reflexion Playground run bundle (no bundle manifest in it).");
  }
  const head = json as { type?: unknown; format?: unknown; formatVersion?: unknown } | null;
  if (typeof head !== "object" || head === null || head.type !== "manifest" || head.format !== BUNDLE_FORMAT) reject("This file is not a Reflexion Playground run bundle (no bundle manifest in it).");
  const version = head.formatVersion;
  if (typeof version !== "number" || !Number.isInteger(version)) reject("This bundle's manifest has no valid format version.");
  if (version > BUNDLE_FORMAT_VERSION) {
    reject(`This bundle was made by a newer version of Reflexion Playground (bundle format ${version}; this app reads up to ${BUNDLE_FORMAT_VERSION}). Update the app, then import it again.`);
  }
  const parsed = streamManifestLineSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    reject(`This bundle's manifest does not match the bundle format at ${issue?.path.join(".") || "its top level"}: ${issue?.message ?? "invalid"}.`);
  }
  const { type: _type, ...rest } = parsed.data;
  // Counts and hash come from the trailer; placeholders until then.
  return { ...rest, counts: { runs: 0, branches: 0, events: 0, cacheEntries: 0, experiments: 0, templateVersions: 0 }, contentSha256: "0".repeat(64) };
}

/**
 * Which bundle format the first inflated bytes of a file show: 2 when its first line is a JSON
 * manifest line (`"type":"manifest"`), else 1 (one JSON document, or not a bundle at all — the
 * format-1 reader then says what is wrong).
 * @param head the first inflated bytes (64 KiB is plenty; fewer when the file is shorter).
 */
export function sniffBundleFormat(head: Buffer): 1 | 2 {
  const end = head.indexOf(0x0a);
  if (end === -1) return 1;
  try {
    const json = parseJson(head.subarray(0, end)) as { type?: unknown } | null;
    return typeof json === "object" && json !== null && json.type === "manifest" ? 2 : 1;
  } catch {
    return 1;
  }
}

/** Bytes of the inflated head {@link bundleHead} reads. */
const HEAD_BYTES = 64 * 1024;

/**
 * The first inflated bytes of a gzip'd file (at most 64 KiB), for {@link sniffBundleFormat}; reads
 * no further than that and destroys `source`. Data that is not gzip, or is cut short, gives what
 * inflated before the fault (possibly nothing): the full reader reports the fault.
 */
export function bundleHead(source: Readable): Promise<Buffer> {
  return new Promise((resolve) => {
    const gunzip = createGunzip();
    const chunks: Buffer[] = [];
    let total = 0;
    let settled = false;
    const done = () => {
      if (settled) return;
      settled = true;
      source.unpipe(gunzip);
      source.destroy();
      gunzip.destroy();
      resolve(Buffer.concat(chunks, total).subarray(0, HEAD_BYTES));
    };
    gunzip.on("data", (chunk: Buffer) => {
      chunks.push(chunk);
      total += chunk.length;
      if (total >= HEAD_BYTES) done();
    });
    gunzip.on("end", done);
    gunzip.on("error", done);
    source.on("error", done);
    source.pipe(gunzip);
  });
}
