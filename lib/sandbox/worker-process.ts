import { spawn, type ChildProcess } from "node:child_process";
import type { LaunchSpec } from "./launch";
import { treeRssBytes } from "./process-memory";
import type { SandboxEngine, SandboxEvent, SandboxTest, TestResult, TestStatus } from "./types";

/**
 * One sandbox child process and the parent's half of its protocol
 * (lib/sandbox/runner/runner.cjs): start-up, one job at a time, per-test
 * watchdog, memory watchdog, kill.
 */

/** A job as sent to the child. */
export interface WorkerJob {
  /** Random per job; the child echoes it on every message. */
  nonce: string;
  code: string;
  /** The function under test, exempt from the builtin-name rule ("" when unknown). */
  entryPoint: string;
  setup: string;
  tests: SandboxTest[];
  /** Per-test limit inside the child, in ms. */
  timeoutMs: number;
  /** Output kept per test, in bytes. */
  maxOutputBytes: number;
  /** QuickJS heap limit, in bytes. */
  jsHeapLimitBytes: number;
}

/** How a job ended. */
export type JobEnd =
  | { kind: "done"; changed: string[] }
  /**
   * The child stopped mid-job. `next` is the first test without a result; `running`
   * says whether that test was executing (it is then reported with `status` /
   * `message`) or had not started yet (it can simply run again elsewhere).
   */
  | { kind: "aborted"; next: number; running: boolean; status: Exclude<TestStatus, "pass" | "fail">; message: string };

/** Limits and hooks of a worker. */
export interface WorkerOptions {
  /** Time to load the engine, in ms. */
  startupTimeoutMs: number;
  /** Extra time after a test's deadline before the child is killed, in ms. */
  killGraceMs: number;
  /** Resident memory limit of the child's process tree, in bytes. */
  memoryLimitBytes: number;
  onEvent: (event: SandboxEvent) => void;
  /** Python: a Pyodide memory snapshot to start from (sent as the first message). */
  snapshot?: Uint8Array;
  /** Python: receives the snapshot a child made at start-up (only from a child given none, before "ready"). */
  onSnapshot?: (bytes: Uint8Array) => void;
  /** Called once when the child process is gone. */
  onExit: (worker: SandboxWorker) => void;
}

const ACK_TIMEOUT_MS = 5_000;
const END_TIMEOUT_MS = 10_000;
const RSS_POLL_MS = 100;
const STDERR_TAIL_BYTES = 8 * 1024;

interface RunningJob {
  job: WorkerJob;
  acked: boolean;
  /** The child announced it cannot continue (after reporting the test that broke it). */
  fatal: boolean;
  next: number;
  onTest: (index: number, result: TestResult) => void;
  resolve: (end: JobEnd) => void;
}

type ChildMessage =
  | { type: "ready"; loadMs: number; phases?: string; calibrationMs?: number | null }
  | { type: "snapshot"; bytes: Uint8Array }
  | { type: "ack"; nonce: string }
  | { type: "test"; nonce: string; index: number; status: TestStatus; message: string; output: string; durationMs: number }
  | { type: "done"; nonce: string; changed: string[] }
  | { type: "fatal"; message: string };

const STATUSES: ReadonlySet<string> = new Set(["pass", "fail", "error", "timeout"]);

function isChildMessage(value: unknown): value is ChildMessage {
  if (typeof value !== "object" || value === null) return false;
  const message = value as Record<string, unknown>;
  switch (message.type) {
    case "ready":
    case "fatal":
      return true;
    case "snapshot":
      return message.bytes instanceof Uint8Array;
    case "ack":
      return typeof message.nonce === "string";
    case "test":
      return typeof message.nonce === "string" && Number.isInteger(message.index) && STATUSES.has(String(message.status)) && typeof message.output === "string" && typeof message.message === "string";
    case "done":
      return typeof message.nonce === "string" && Array.isArray(message.changed);
    default:
      return false;
  }
}

/** A sandbox child process. */
export class SandboxWorker {
  state: "starting" | "idle" | "busy" | "stopping" | "dead" = "starting";
  /** Jobs completed by this child. */
  jobsRun = 0;
  /** Python: the calibration workload's time in ms, when the child was asked to measure it. */
  calibrationMs: number | null = null;
  /** Resolves when the engine is loaded; rejects if the child dies first. */
  readonly ready: Promise<void>;
  private readonly child: ChildProcess;
  private running: RunningJob | null = null;
  private killReason: { message: string; status: "error" | "timeout" } | null = null;
  private lastFatal = "";
  private readySeen = false;
  private stderrTail = "";
  private watchdog: NodeJS.Timeout | null = null;
  private rssTimer: NodeJS.Timeout | null = null;
  private resolveReady!: () => void;
  private rejectReady!: (error: Error) => void;

  constructor(
    readonly engine: SandboxEngine,
    spec: LaunchSpec,
    private readonly options: WorkerOptions,
  ) {
    this.ready = new Promise<void>((resolve, reject) => {
      this.resolveReady = resolve;
      this.rejectReady = reject;
    });
    this.ready.catch(() => {});
    this.child = spawn(spec.command, spec.args, { env: {} as NodeJS.ProcessEnv, stdio: ["ignore", "pipe", "pipe", "ipc"], serialization: "advanced" });
    this.child.stdout?.on("data", () => {});
    this.child.stderr?.on("data", (chunk: Buffer) => {
      this.stderrTail = (this.stderrTail + chunk.toString("utf8")).slice(-STDERR_TAIL_BYTES);
    });
    this.child.on("message", (message) => this.onMessage(message));
    this.child.on("error", (error) => {
      this.lastFatal = `could not start the sandbox process: ${error.message}`;
      this.finish(null, null);
    });
    this.child.on("exit", (code, signal) => this.finish(code, signal));
    if (options.snapshot) this.child.send({ type: "snapshot", bytes: options.snapshot });
    this.setWatchdog(options.startupTimeoutMs, () => this.kill(`the ${engine} sandbox did not start within ${options.startupTimeoutMs} ms`));
    options.onEvent({ type: "spawn", engine, pid: this.child.pid });
  }

  /** OS pid of the spawned process (the namespace wrapper when OS isolation is on). */
  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Resident memory of the child's process tree, in bytes (0 when unknown). */
  rssBytes(): number {
    return this.child.pid === undefined ? 0 : treeRssBytes(this.child.pid);
  }

  /** Sends a job; results arrive through `onTest`, the end through the promise. */
  run(job: WorkerJob, onTest: (index: number, result: TestResult) => void): Promise<JobEnd> {
    if (this.state !== "idle") return Promise.resolve({ kind: "aborted", next: 0, running: false, status: "error", message: "the sandbox worker was not idle" });
    this.state = "busy";
    return new Promise<JobEnd>((resolve) => {
      this.running = { job, acked: false, fatal: false, next: 0, onTest, resolve };
      try {
        this.child.send({ type: "job", ...job });
      } catch {
        this.kill("the sandbox process could not receive the job");
        return;
      }
      this.setWatchdog(ACK_TIMEOUT_MS, () => this.kill("the sandbox process did not start the job"));
      this.startRssWatch();
    });
  }

  /** Kills the child (SIGKILL). `status` is what the running test is reported as. */
  kill(reason: string, status: "error" | "timeout" = "error"): void {
    if (this.state === "dead") return;
    if (!this.killReason) this.killReason = { message: reason, status };
    this.state = "stopping";
    this.options.onEvent({ type: "kill", engine: this.engine, pid: this.child.pid, detail: reason });
    try {
      this.child.kill("SIGKILL");
    } catch {
      /* already gone */
    }
  }

  private onMessage(message: unknown): void {
    if (!isChildMessage(message)) {
      this.kill("the sandbox process sent a malformed message");
      return;
    }
    if (message.type === "ready") {
      this.clearWatchdog();
      this.readySeen = true;
      if (typeof message.calibrationMs === "number" && Number.isFinite(message.calibrationMs) && message.calibrationMs > 0) this.calibrationMs = message.calibrationMs;
      if (this.state === "starting") this.state = "idle";
      this.options.onEvent({ type: "ready", engine: this.engine, pid: this.child.pid, detail: `engine loaded in ${message.loadMs} ms${typeof message.phases === "string" && message.phases ? ` (${message.phases.slice(0, 200)})` : ""}` });
      this.resolveReady();
      return;
    }
    if (message.type === "snapshot") {
      if (this.readySeen || this.options.snapshot || !this.options.onSnapshot) this.kill("the sandbox process sent an unexpected snapshot");
      else this.options.onSnapshot(message.bytes);
      return;
    }
    if (message.type === "fatal") {
      this.lastFatal = String(message.message).slice(0, 2000);
      if (this.running) this.running.fatal = true;
      return;
    }
    const running = this.running;
    if (!running || message.nonce !== running.job.nonce) {
      this.kill("the sandbox process answered for a job it was not given");
      return;
    }
    const tests = running.job.tests;
    const perTest = running.job.timeoutMs + this.options.killGraceMs;
    if (message.type === "ack") {
      running.acked = true;
      this.setWatchdog(perTest, () => this.kill("time limit exceeded (the sandbox process was stopped)", "timeout"));
      return;
    }
    if (message.type === "test") {
      if (!running.acked || message.index !== running.next || message.index >= tests.length) {
        this.kill("the sandbox process reported tests out of order");
        return;
      }
      running.next += 1;
      running.onTest(message.index, {
        name: tests[message.index]!.name,
        status: message.status,
        message: message.message,
        output: message.output,
        durationMs: Number(message.durationMs) || 0,
      });
      if (running.next < tests.length) this.setWatchdog(perTest, () => this.kill("time limit exceeded (the sandbox process was stopped)", "timeout"));
      else this.setWatchdog(END_TIMEOUT_MS, () => this.kill("the sandbox process did not finish the job"));
      return;
    }
    if (running.next !== tests.length) {
      this.kill("the sandbox process ended a job early");
      return;
    }
    this.clearWatchdog();
    this.stopRssWatch();
    this.running = null;
    this.jobsRun += 1;
    if (this.state === "busy") this.state = "idle";
    running.resolve({ kind: "done", changed: message.changed.map(String) });
  }

  private finish(code: number | null, signal: NodeJS.Signals | null): void {
    if (this.state === "dead") return;
    const wasStarting = !this.readySeen;
    this.state = "dead";
    this.clearWatchdog();
    this.stopRssWatch();
    const how = this.killReason?.message ?? (this.lastFatal || `the sandbox process exited (code ${code ?? "none"}, signal ${signal ?? "none"})`);
    this.options.onEvent({ type: "exit", engine: this.engine, pid: this.child.pid, detail: how });
    if (wasStarting) {
      const tail = this.stderrTail.trim().split("\n").slice(-5).join("\n");
      this.rejectReady(new Error(`${how}${tail ? `\n${tail}` : ""}`));
    }
    const running = this.running;
    this.running = null;
    if (running && running.next >= running.job.tests.length) {
      // Every test had reported: the job's results stand.
      running.resolve({ kind: "done", changed: [`the process stopped after the job: ${how}`] });
    } else if (running) {
      const message = this.killReason ? how : `the sandbox process exited before the test finished (${how})`;
      const wasRunning = running.acked && !running.fatal;
      running.resolve({ kind: "aborted", next: running.next, running: wasRunning, status: this.killReason?.status ?? "error", message });
    }
    this.options.onExit(this);
  }

  private setWatchdog(ms: number, action: () => void): void {
    this.clearWatchdog();
    this.watchdog = setTimeout(action, ms);
  }

  private clearWatchdog(): void {
    if (this.watchdog) clearTimeout(this.watchdog);
    this.watchdog = null;
  }

  private startRssWatch(): void {
    if (process.platform !== "linux" || this.rssTimer) return;
    this.rssTimer = setInterval(() => {
      const rss = this.rssBytes();
      if (rss > this.options.memoryLimitBytes) {
        const mib = (bytes: number) => Math.round(bytes / 2 ** 20);
        this.kill(`memory limit exceeded (resident ${mib(rss)} MiB > ${mib(this.options.memoryLimitBytes)} MiB)`);
      }
    }, RSS_POLL_MS);
  }

  private stopRssWatch(): void {
    if (this.rssTimer) clearInterval(this.rssTimer);
    this.rssTimer = null;
  }
}
