import { createHash, type Hash } from "node:crypto";
import { once } from "node:events";
import { Transform, type Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGzip, type Gzip } from "node:zlib";
import { runEventSchema } from "@/lib/domain/events";
import { annotationEventSchema } from "@/lib/domain/annotations";
import { APP_VERSION } from "./codec";
import {
  BUNDLE_FORMAT,
  bundleCacheEntrySchema,
  bundleExperimentSchema,
  bundleTaskSetSchema,
  bundleTemplateVersionSchema,
  type BundleCacheEntry,
  type BundleCounts,
  type BundleExperiment,
  type BundleManifest,
  type BundleRun,
  type BundleTaskSet,
  type BundleTemplateVersion,
} from "./format";
import { STREAMED_BUNDLE_FORMAT_VERSION, TARGET_LINE_BYTES, bundleLessonIntroductionSchema, streamRunHeaderSchema, type StreamManifestLine } from "./stream-format";
import { lessonSchema, type Lesson } from "@/lib/lessons/lesson-schema";

/** Options of {@link BundleStreamWriter}. */
export interface BundleStreamWriterOptions {
  /**
   * Sees every line (the JSON text, without `\n`) before it is written, e.g. the secret scan; throwing
   * stops the export (the caller discards the partial file).
   */
  inspect?: (line: string) => void;
  /** The manifest's time; default now. */
  now?: Date;
  /** gzip level 1–9; default 6 (9 took twice as long for 2 % less on a 100 MB bundle). */
  level?: number;
}

/** What {@link BundleStreamWriter.finish} wrote. */
export interface StreamedBundle {
  /** The manifest as a format-1 manifest states it (format version 2, the trailer's counts and hash): what an import stores. */
  manifest: BundleManifest;
  /** Bytes written to the output (gzip'd). */
  bytes: number;
}

/**
 * Writes a format-2 bundle (lib/bundles/stream-format.ts) record by record: each record is checked
 * against its strict allow-list schema (a field outside it is an error, not dropped), shown to
 * `inspect`, hashed and gzip'd into `out` with back-pressure, so memory holds one record at a time.
 * Call {@link addRun} for every run first, then the other records, then {@link finish}.
 */
export class BundleStreamWriter {
  private readonly gzip: Gzip;
  private readonly hash: Hash = createHash("sha256");
  private readonly done: Promise<void>;
  private readonly counts: BundleCounts = { runs: 0, branches: 0, events: 0, cacheEntries: 0, experiments: 0, templateVersions: 0 };
  private readonly manifestLine: StreamManifestLine;
  private written = 0;
  private started = false;

  /** @param out where the gzip'd bytes go (a file, a response body); ended by {@link finish}. */
  constructor(
    out: Writable,
    subject: BundleManifest["subject"],
    private readonly options: BundleStreamWriterOptions = {},
  ) {
    this.gzip = createGzip({ level: options.level ?? 6 });
    const counter = new Transform({
      transform: (chunk: Buffer, _encoding, callback) => {
        this.written += chunk.length;
        callback(null, chunk);
      },
    });
    this.done = pipeline(this.gzip, counter, out);
    // A failure of `out` surfaces from the next write or from finish(); never as an unhandled rejection.
    this.done.catch(() => undefined);
    this.manifestLine = {
      type: "manifest",
      format: BUNDLE_FORMAT,
      formatVersion: STREAMED_BUNDLE_FORMAT_VERSION,
      appVersion: APP_VERSION,
      createdAt: (options.now ?? new Date()).toISOString(),
      subject,
    };
  }

  private async line(text: string, hashed: boolean): Promise<void> {
    this.options.inspect?.(text);
    const bytes = Buffer.from(`${text}\n`, "utf8");
    if (hashed) this.hash.update(bytes);
    if (!this.gzip.write(bytes)) await Promise.race([once(this.gzip, "drain"), this.done.then(() => undefined)]);
  }

  private async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    await this.line(JSON.stringify(this.manifestLine), false);
  }

  /** Writes lines of `[prefix, item, item, …, suffix]`, closing one once past {@link TARGET_LINE_BYTES}. */
  private async chunked(prefix: string, items: string[]): Promise<void> {
    let parts: string[] = [];
    let size = 0;
    for (const item of items) {
      parts.push(item);
      size += item.length;
      if (size >= TARGET_LINE_BYTES) {
        await this.line(`${prefix}${parts.join(",")}]}`, true);
        parts = [];
        size = 0;
      }
    }
    if (parts.length > 0) await this.line(`${prefix}${parts.join(",")}]}`, true);
  }

  /**
   * A run: its header line, its events in chunks of about 1 MiB (seq order per branch, as given),
   * its notes. @throws ZodError for a field outside the allow-list.
   */
  async addRun(run: BundleRun): Promise<void> {
    await this.start();
    const header = streamRunHeaderSchema.parse({ id: run.id, createdAt: run.createdAt, title: run.title, rootBranchId: run.rootBranchId, branches: run.branches });
    await this.line(JSON.stringify({ type: "run", run: header }), true);
    const runId = JSON.stringify(run.id);
    await this.chunked(
      `{"type":"events","runId":${runId},"events":[`,
      run.events.map((event) => JSON.stringify(runEventSchema.parse(event))),
    );
    if (run.annotations && run.annotations.length > 0) {
      await this.chunked(
        `{"type":"annotations","runId":${runId},"annotations":[`,
        run.annotations.map((event) => JSON.stringify(annotationEventSchema.parse(event))),
      );
    }
    this.counts.runs += 1;
    this.counts.branches += run.branches.length;
    this.counts.events += run.events.length;
  }

  /** An experiment (after every run its cells name). */
  async addExperiment(experiment: BundleExperiment): Promise<void> {
    await this.start();
    await this.line(JSON.stringify({ type: "experiment", experiment: bundleExperimentSchema.parse(experiment) }), true);
    this.counts.experiments += 1;
  }

  /** An uploaded task set an experiment points at. */
  async addTaskSet(taskSet: BundleTaskSet): Promise<void> {
    await this.start();
    await this.line(JSON.stringify({ type: "task-set", taskSet: bundleTaskSetSchema.parse(taskSet) }), true);
  }

  /** Response-cache entries, in lines of about 1 MiB. */
  async addCacheEntries(entries: readonly BundleCacheEntry[]): Promise<void> {
    if (entries.length === 0) return;
    await this.start();
    await this.chunked(
      `{"type":"cache","entries":[`,
      entries.map((entry) => JSON.stringify(bundleCacheEntrySchema.parse(entry))),
    );
    this.counts.cacheEntries += entries.length;
  }

  /** A template library version a run recorded. */
  async addTemplateVersion(templateVersion: BundleTemplateVersion): Promise<void> {
    await this.start();
    await this.line(JSON.stringify({ type: "template-version", templateVersion: bundleTemplateVersionSchema.parse(templateVersion) }), true);
    this.counts.templateVersions += 1;
  }

  /** A lesson written in the app that plays a run of this bundle (after the runs). @throws ZodError when it is not a valid lesson. */
  async addLesson(lesson: Lesson, introduction: string): Promise<void> {
    await this.start();
    await this.line(JSON.stringify({ type: "lesson", lesson: lessonSchema.parse(lesson), introduction: bundleLessonIntroductionSchema.parse(introduction) }), true);
  }

  /**
   * Writes the trailer (counts and content hash), ends the gzip stream and waits until `out` has it all.
   * @throws the output's error (e.g. a full disk).
   */
  async finish(): Promise<StreamedBundle> {
    await this.start();
    const contentSha256 = this.hash.digest("hex");
    await this.line(JSON.stringify({ type: "trailer", counts: this.counts, contentSha256 }), false);
    this.gzip.end();
    await this.done;
    const { type: _type, ...head } = this.manifestLine;
    return { manifest: { ...head, counts: { ...this.counts }, contentSha256 }, bytes: this.written };
  }

  /** Stops writing (an export that was refused): `out` is destroyed with `error`, and the caller discards it. */
  abort(error: Error): void {
    this.gzip.destroy(error);
  }
}
