// Over 400 lines on purpose: the pool's scheduling, worker replacement, snapshot cache and calibration share one state machine; split, each part would need the others' internals.
import { randomBytes } from "node:crypto";
import path from "node:path";
import { AppError } from "@/lib/domain/errors";
import { buildLaunch, resolveIsolation, resolveSandboxPaths, type SandboxPaths } from "./launch";
import { MAX_TIMEOUT_MS, normalizeRequest, type NormalizedRequest } from "./request";
import type { RunTestsRequest, RunTestsResult, SandboxEngine, SandboxEvent, SandboxPool, SandboxPoolOptions, TestResult } from "./types";
import { CALIBRATION_SOURCE, DEFAULT_FACTOR, calibrationFactor, describeLimit, measureCpythonMs, readCalibration, writeCalibration } from "./calibration";
import { defaultSnapshotCacheDir, discardSnapshotCache, readSnapshotCache, snapshotCacheKey, writeSnapshotCache, type SnapshotCacheLocation } from "./snapshot-cache";
import { SandboxWorker, type JobEnd } from "./worker-process";

/**
 * A pool of pre-warmed sandbox child processes (see docs/decisions/0006-code-sandbox.md).
 * Requests queue per engine; each idle worker takes the next job. A child that
 * times out, crashes, exits or exceeds its memory limit is killed and replaced,
 * and the request's remaining tests continue on another worker.
 */

const DEFAULTS = {
  size: 2,
  timeoutMs: 3_000,
  killGraceMs: 1_500,
  maxOutputBytes: 64 * 1024,
  jsHeapLimitBytes: 64 * 2 ** 20,
  v8HeapLimitMb: 256,
  maxJobsPerWorker: 500,
  startupTimeoutMs: 60_000,
  memoryLimitBytes: { python: 1024 * 2 ** 20, javascript: 512 * 2 ** 20 } as Record<SandboxEngine, number>,
};
/** A request whose program stopped the sandbox this often gets its remaining tests marked as not run. */
const MAX_ABORTS_PER_REQUEST = 2;
/** Consecutive start-up failures after which queued requests of that engine are rejected. */
const MAX_STARTUP_FAILURES = 3;
const ENGINES: SandboxEngine[] = ["python", "javascript"];

interface PendingRun {
  request: NormalizedRequest;
  results: Array<TestResult | undefined>;
  aborts: number;
  startedAt: number;
  resolve: (result: RunTestsResult) => void;
  reject: (error: Error) => void;
}

interface Segment {
  run: PendingRun;
  /** Index of the first test this job covers. */
  from: number;
}

class Pool implements SandboxPool {
  private readonly options: Required<Omit<SandboxPoolOptions, "paths" | "onEvent" | "warm" | "memoryLimitBytes" | "osIsolation" | "snapshotCache" | "timeScale">> & {
    memoryLimitBytes: Record<SandboxEngine, number>;
  };
  private readonly paths: SandboxPaths;
  private readonly isolation: ReturnType<typeof resolveIsolation>;
  private readonly workers: Record<SandboxEngine, SandboxWorker[]> = { python: [], javascript: [] };
  private readonly queues: Record<SandboxEngine, Segment[]> = { python: [], javascript: [] };
  private readonly startupFailures: Record<SandboxEngine, number> = { python: 0, javascript: 0 };
  private readonly lastStartupError: Record<SandboxEngine, string> = { python: "", javascript: "" };
  private readonly started = new Set<SandboxEngine>();
  /** Pyodide memory snapshot from the first Python child's start-up: later children load in ~1 s instead of ~5 s. */
  private pythonSnapshot: Uint8Array | null = null;
  /** The first Python child came up without a snapshot: start the others the slow way. */
  private snapshotUnavailable = false;
  /** Where the persisted snapshot lives (null: `snapshotCache: false`). */
  private readonly snapshotCache: SnapshotCacheLocation | null;
  private cacheRead = false;
  /** A Python child has been ready at least once (until then only one starts). */
  private pythonServed = false;
  /** The snapshot read from the cache file (a child that fails on it discards the file). */
  private cachedSnapshot: Uint8Array | null = null;
  /** Python time limits are multiplied by this (calibration.ts); `timeFactorSource` says where it came from. */
  private timeFactor = DEFAULT_FACTOR;
  private timeFactorSource: "measured" | "default" | "fixed" = "default";
  /** Set while a calibration is wanted: the CPython half, started with the first Python child. */
  private cpythonCalibration: Promise<number | null> | null = null;
  private calibrationRequested = false;
  private closed = false;

  constructor(
    options: SandboxPoolOptions,
    private readonly emit: (event: SandboxEvent) => void,
  ) {
    this.options = {
      size: Math.max(1, Math.floor(options.size ?? DEFAULTS.size)),
      timeoutMs: options.timeoutMs ?? DEFAULTS.timeoutMs,
      killGraceMs: options.killGraceMs ?? DEFAULTS.killGraceMs,
      maxOutputBytes: options.maxOutputBytes ?? DEFAULTS.maxOutputBytes,
      jsHeapLimitBytes: options.jsHeapLimitBytes ?? DEFAULTS.jsHeapLimitBytes,
      v8HeapLimitMb: options.v8HeapLimitMb ?? DEFAULTS.v8HeapLimitMb,
      maxJobsPerWorker: options.maxJobsPerWorker ?? DEFAULTS.maxJobsPerWorker,
      startupTimeoutMs: options.startupTimeoutMs ?? DEFAULTS.startupTimeoutMs,
      memoryLimitBytes: { ...DEFAULTS.memoryLimitBytes, ...options.memoryLimitBytes },
    };
    this.paths = resolveSandboxPaths(options.paths);
    this.isolation = resolveIsolation(options.osIsolation ?? "auto", this.paths);
    const cacheOption = options.snapshotCache ?? true;
    this.snapshotCache =
      cacheOption === false
        ? null
        : { dir: typeof cacheOption === "string" ? cacheOption : defaultSnapshotCacheDir(path.dirname(this.paths.pyodideDir)), key: snapshotCacheKey(this.paths.pyodideDir, this.paths.runnerDir) };
    this.emit({ type: "isolation", detail: this.isolation.info.detail });
    const scale = options.timeScale ?? "auto";
    if (typeof scale === "number") {
      if (!(scale >= 1 && scale <= 100)) throw new AppError("invalid-input", `timeScale must be "auto" or a number from 1 to 100 (got ${scale})`);
      this.timeFactor = scale;
      this.timeFactorSource = "fixed";
    } else {
      const stored = this.snapshotCache ? readCalibration(this.snapshotCache.dir, this.snapshotCache.key) : null;
      if (stored) {
        this.timeFactor = stored.factor;
        this.timeFactorSource = "measured";
      }
    }
    for (const engine of options.warm ?? ENGINES) this.ensureStarted(engine);
  }

  /** The multiplier applied to Python time limits and where it came from. */
  timeLimitFactor(): { factor: number; source: "measured" | "default" | "fixed" } {
    return { factor: this.timeFactor, source: this.timeFactorSource };
  }

  async runTests(request: RunTestsRequest): Promise<RunTestsResult> {
    if (this.closed) throw new AppError("internal", "the sandbox pool is closed");
    const startedAt = Date.now();
    const normalized = await normalizeRequest(request, this.options.timeoutMs);
    if (normalized.immediate) return { verdict: "fail", tests: normalized.immediate, durationMs: Date.now() - startedAt };
    const engine = normalized.engine;
    this.ensureStarted(engine);
    return new Promise<RunTestsResult>((resolve, reject) => {
      const run: PendingRun = { request: normalized, results: new Array(normalized.tests.length).fill(undefined), aborts: 0, startedAt, resolve, reject };
      this.queues[engine].push({ run, from: 0 });
      this.dispatch(engine);
    });
  }

  async warmup(engine?: SandboxEngine): Promise<void> {
    const engines = engine ? [engine] : [...this.started];
    await Promise.all(
      engines.map(async (name) => {
        this.ensureStarted(name);
        const pending = this.workers[name].map((worker) => worker.ready);
        if (pending.length === 0) throw new AppError("internal", `the ${name} sandbox could not start: ${this.lastStartupError[name]}`);
        await Promise.any(pending).catch(() => {
          throw new AppError("internal", `the ${name} sandbox could not start: ${this.lastStartupError[name]}`);
        });
      }),
    );
  }

  info() {
    return {
      isolation: this.isolation.info,
      workers: { python: this.workers.python.length, javascript: this.workers.javascript.length },
      queued: this.queues.python.length + this.queues.javascript.length,
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const engine of ENGINES) {
      for (const segment of this.queues[engine].splice(0)) segment.run.reject(new AppError("internal", "the sandbox pool was closed"));
      const exits = this.workers[engine].map((worker) => new Promise<void>((resolve) => {
        if (worker.state === "dead") return resolve();
        const timer = setInterval(() => {
          if (worker.state === "dead") {
            clearInterval(timer);
            resolve();
          }
        }, 20);
        worker.kill("the sandbox pool was closed");
      }));
      await Promise.all(exits);
    }
  }

  /** Loads the persisted snapshot once per pool, before the first Python child starts. */
  private readCachedSnapshot(): void {
    if (this.cacheRead || !this.snapshotCache || this.pythonSnapshot) return;
    this.cacheRead = true;
    const read = readSnapshotCache(this.snapshotCache);
    if (read.kind === "hit") {
      this.pythonSnapshot = read.bytes;
      this.cachedSnapshot = read.bytes;
      this.emit({ type: "snapshot", engine: "python", detail: `loaded ${read.bytes.length} bytes from the cache (SHA-256 verified)` });
    } else if (read.kind === "rejected") {
      this.emit({ type: "snapshot", engine: "python", detail: `cache rejected and deleted: ${read.reason}` });
    }
  }

  private ensureStarted(engine: SandboxEngine): void {
    this.started.add(engine);
    if (engine === "python") this.readCachedSnapshot();
    if (engine === "python" && !this.pythonSnapshot && !this.snapshotUnavailable && this.workers.python.length > 0) return;
    // Lazily grown: the first Python child starts alone (all cores for it) and serves while the others start.
    if (engine === "python" && !this.pythonServed && this.workers.python.length > 0) return;
    while (!this.closed && this.workers[engine].length < this.options.size) {
      this.spawn(engine);
      if (engine === "python" && !this.pythonServed) return;
      // The first Python child makes the snapshot; the rest start once it has arrived.
      if (engine === "python" && !this.pythonSnapshot && !this.snapshotUnavailable) return;
    }
  }

  private spawn(engine: SandboxEngine): void {
    const snapshot = engine === "python" ? (this.pythonSnapshot ?? undefined) : undefined;
    // The first Python child of a build without a stored calibration measures the workload.
    const calibrate = engine === "python" && this.timeFactorSource === "default" && !this.calibrationRequested;
    if (calibrate) {
      this.calibrationRequested = true;
      this.cpythonCalibration = measureCpythonMs();
    }
    const launch = buildLaunch(engine, this.paths, this.isolation.os, this.options.v8HeapLimitMb, snapshot !== undefined, calibrate ? CALIBRATION_SOURCE : undefined);
    const worker = new SandboxWorker(engine, launch, {
      snapshot,
      onSnapshot:
        engine === "python"
          ? (bytes) => {
              if (!this.pythonSnapshot) {
                this.pythonSnapshot = bytes;
                this.persistSnapshot(bytes);
              }
              this.ensureStarted("python");
            }
          : undefined,
      startupTimeoutMs: this.options.startupTimeoutMs,
      killGraceMs: this.options.killGraceMs,
      memoryLimitBytes: this.options.memoryLimitBytes[engine],
      onEvent: this.emit,
      onExit: (gone) => this.onWorkerExit(gone),
    });
    this.workers[engine].push(worker);
    worker.ready.then(
      () => {
        this.startupFailures[engine] = 0;
        if (worker.calibrationMs !== null) void this.finishCalibration(worker.calibrationMs);
        if (engine === "python" && !this.pythonServed) {
          this.pythonServed = true;
          this.ensureStarted("python");
        }
        if (engine === "python" && !this.pythonSnapshot && !this.snapshotUnavailable) {
          this.snapshotUnavailable = true;
          this.ensureStarted("python");
        }
        this.dispatch(engine);
      },
      (error: Error) => {
        if (this.closed) {
          // Stopped by close(): says nothing about the snapshot.
        } else if (snapshot && snapshot === this.cachedSnapshot) {
          // A cached snapshot that did not work is deleted; the next child makes a fresh one.
          if (this.pythonSnapshot === snapshot) {
            this.pythonSnapshot = null;
            if (this.snapshotCache) discardSnapshotCache(this.snapshotCache);
            this.emit({ type: "snapshot", engine, detail: `a child could not start from the cached snapshot; cache deleted (${error.message})` });
          }
        } else if (snapshot) {
          // Never trust a snapshot that did not work: later children load the slow way.
          this.pythonSnapshot = null;
          this.snapshotUnavailable = true;
        }
        this.startupFailures[engine] += 1;
        this.lastStartupError[engine] = error.message;
        this.emit({ type: "startup-failed", engine, detail: error.message });
        if (this.startupFailures[engine] >= MAX_STARTUP_FAILURES) {
          for (const segment of this.queues[engine].splice(0)) {
            segment.run.reject(new AppError("internal", `the ${engine} sandbox could not start: ${error.message}`));
          }
        }
      },
    );
  }

  /** Sets the time-limit factor from the child's and CPython's workload times and stores it. */
  private async finishCalibration(pyodideMs: number): Promise<void> {
    const cpythonMs = await (this.cpythonCalibration ?? Promise.resolve(null));
    if (this.timeFactorSource !== "default") return;
    const factor = calibrationFactor(pyodideMs, cpythonMs);
    if (cpythonMs === null) {
      this.emit({ type: "calibration", engine: "python", detail: `no python3 to measure against: Python time limits × ${DEFAULT_FACTOR} (default)` });
      return;
    }
    this.timeFactor = factor;
    this.timeFactorSource = "measured";
    if (this.snapshotCache) writeCalibration(this.snapshotCache.dir, { key: this.snapshotCache.key, pyodideMs, cpythonMs, factor, measuredAt: new Date().toISOString() });
    this.emit({ type: "calibration", engine: "python", detail: `workload ${Math.round(pyodideMs)} ms in Pyodide, ${Math.round(cpythonMs)} ms in CPython: Python time limits × ${factor}` });
  }

  /** Writes a snapshot a child made to the cache, off the current tick (30 MB). */
  private persistSnapshot(bytes: Uint8Array): void {
    const location = this.snapshotCache;
    if (!location) return;
    setImmediate(() => {
      const failure = writeSnapshotCache(location, bytes);
      this.emit({ type: "snapshot", engine: "python", detail: failure ? `could not write the cache: ${failure}` : `wrote ${bytes.length} bytes to the cache` });
    });
  }

  private onWorkerExit(worker: SandboxWorker): void {
    const list = this.workers[worker.engine];
    const at = list.indexOf(worker);
    if (at >= 0) list.splice(at, 1);
    // Replace it, unless the engine keeps failing to start (the next request retries).
    if (!this.closed && this.startupFailures[worker.engine] < MAX_STARTUP_FAILURES) this.ensureStarted(worker.engine);
  }

  private dispatch(engine: SandboxEngine): void {
    for (const worker of this.workers[engine]) {
      if (worker.state !== "idle") continue;
      const segment = this.queues[engine].shift();
      if (!segment) return;
      void this.runSegment(worker, segment);
    }
  }

  private async runSegment(worker: SandboxWorker, segment: Segment): Promise<void> {
    const { run, from } = segment;
    const request = run.request;
    const end: JobEnd = await worker.run(
      {
        nonce: randomBytes(16).toString("hex"),
        code: request.code,
        entryPoint: request.entryPoint,
        setup: request.setup,
        tests: request.tests.slice(from),
        timeoutMs: this.scaledTimeout(worker.engine, request.timeoutMs),
        maxOutputBytes: this.options.maxOutputBytes,
        jsHeapLimitBytes: this.options.jsHeapLimitBytes,
      },
      (index, result) => {
        run.results[from + index] = result.status === "timeout" ? { ...result, message: this.withLimit(worker.engine, result.message, request.timeoutMs) } : result;
      },
    );
    if (end.kind === "done") {
      this.maybeRecycle(worker, end.changed);
    } else if (this.closed) {
      run.reject(new AppError("internal", "the sandbox pool was closed"));
      return;
    } else {
      let next = from + end.next;
      if (end.running) {
        const message = end.status === "timeout" ? this.withLimit(worker.engine, end.message, request.timeoutMs) : end.message;
        run.results[next] = { name: request.tests[next]!.name, status: end.status, message, output: "", durationMs: 0 };
        next += 1;
      }
      run.aborts += 1;
      if (next < request.tests.length) {
        if (run.aborts >= MAX_ABORTS_PER_REQUEST) this.fillRemaining(run, next, `not run: this program stopped the sandbox process ${run.aborts} times (last: ${end.message})`);
        else this.queues[worker.engine].unshift({ run, from: next });
      }
    }
    this.complete(run);
    this.dispatch(worker.engine);
  }

  /** The limit a Python test really gets: the request's × the calibration factor (JavaScript: as requested). */
  private scaledTimeout(engine: SandboxEngine, timeoutMs: number): number {
    return engine === "python" ? Math.min(MAX_TIMEOUT_MS, Math.round(timeoutMs * this.timeFactor)) : timeoutMs;
  }

  /** A timeout message naming the limit used, e.g. `time limit exceeded (limit 6000 ms = 3000 ms × 2.0 (…))`. */
  private withLimit(engine: SandboxEngine, message: string, timeoutMs: number): string {
    const limit = engine === "python" ? describeLimit(timeoutMs, this.timeFactor, this.timeFactorSource === "measured") : `limit ${timeoutMs} ms`;
    return `${message || "time limit exceeded"} (${limit})`;
  }

  /** Replaces a worker that user code left in a changed state, that ran many jobs or that grew large. */
  private maybeRecycle(worker: SandboxWorker, changed: string[]): void {
    const limit = this.options.memoryLimitBytes[worker.engine];
    let reason = "";
    if (changed.length > 0) reason = `user code changed interpreter state (${changed.slice(0, 3).join("; ")})`;
    else if (worker.jobsRun >= this.options.maxJobsPerWorker) reason = `ran ${worker.jobsRun} jobs`;
    else if (worker.rssBytes() > limit * 0.75) reason = "resident memory above 75% of the limit";
    if (!reason || worker.state === "dead") return;
    this.emit({ type: "recycle", engine: worker.engine, pid: worker.pid, detail: reason });
    worker.kill(`recycled: ${reason}`);
  }

  private fillRemaining(run: PendingRun, from: number, message: string): void {
    for (let index = from; index < run.request.tests.length; index += 1) {
      run.results[index] ??= { name: run.request.tests[index]!.name, status: "error", message, output: "", durationMs: 0 };
    }
  }

  private complete(run: PendingRun): void {
    if (run.results.some((result) => result === undefined)) return;
    const tests = run.results as TestResult[];
    run.resolve({
      verdict: tests.length > 0 && tests.every((test) => test.status === "pass") ? "pass" : "fail",
      tests,
      durationMs: Date.now() - run.startedAt,
    });
  }
}

/**
 * Creates a sandbox pool and starts its warm engines in the background (Python
 * children take ~5 s to load two Pyodide interpreters; JavaScript ~0.1 s).
 * Await {@link SandboxPool.warmup} to wait for them.
 *
 * @throws Error when the runner or engine packages are missing, or when
 *   `osIsolation: "required"` and namespaces are unavailable.
 */
export function createSandboxPool(options: SandboxPoolOptions = {}): SandboxPool {
  let warned = false;
  const emit = (event: SandboxEvent) => {
    if (event.type === "isolation" && (options.osIsolation ?? "auto") === "auto" && !warned && /unavailable/.test(event.detail ?? "")) {
      warned = true;
      console.warn(`[sandbox] ${event.detail}. Falling back to Node's permission model with in-process network blocking; untrusted code has no network namespace.`);
    }
    options.onEvent?.(event);
  };
  return new Pool(options, emit);
}
