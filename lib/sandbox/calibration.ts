import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";

const execFileAsync = promisify(execFile);

/**
 * Time-limit calibration (decision 0019 "Time limits"). Per-test limits are written
 * for CPython (the official harnesses give 3 s); Pyodide runs the same pure-Python
 * code a few times slower. The pool multiplies every Python limit by
 * `factor = Pyodide time / CPython time` of one fixed workload ({@link CALIBRATION_SOURCE}),
 * measured once per build: inside a sandbox child (trusted code, before any job)
 * and with the machine's `python3`. The figures are kept next to the snapshot
 * cache; timeout messages name the limit used.
 */

/** A mixed pure-Python workload (dict updates, sorting strings, recursion); `_calibrate()` returns its best time of 3 in ms. */
export const CALIBRATION_SOURCE = `
def _calibrate():
    import time
    def fib(n):
        return n if n < 2 else fib(n - 1) + fib(n - 2)
    best = None
    for _ in range(3):
        t = time.perf_counter()
        d = {}
        for i in range(120000):
            d[i % 977] = d.get(i % 977, 0) + i
        s = sorted(str(i * 7919 % 10007) for i in range(24000))
        fib(19)
        elapsed = (time.perf_counter() - t) * 1000
        best = elapsed if best is None or elapsed < best else best
    return best
`;

/** Factors outside this range are clamped (a machine under heavy load can mis-measure). */
export const FACTOR_RANGE = { min: 1, max: 8 } as const;
/** Used when no CPython is available to measure against: Pyodide vs CPython 3.11 on the reference machine. */
export const DEFAULT_FACTOR = 2;

/** Stored figures of one calibration. */
export interface Calibration {
  key: string;
  /** Workload time inside the sandbox (Pyodide), ms. */
  pyodideMs: number;
  /** Workload time under python3, ms (null: no python3; the default factor applies). */
  cpythonMs: number | null;
  /** The limit multiplier, clamped to {@link FACTOR_RANGE}. */
  factor: number;
  measuredAt: string;
}

/** `pyodideMs / cpythonMs` rounded to 0.1 and clamped, or {@link DEFAULT_FACTOR} without CPython. */
export function calibrationFactor(pyodideMs: number, cpythonMs: number | null): number {
  if (cpythonMs === null || !(cpythonMs > 0) || !(pyodideMs > 0)) return DEFAULT_FACTOR;
  return Math.min(FACTOR_RANGE.max, Math.max(FACTOR_RANGE.min, Math.round((pyodideMs / cpythonMs) * 10) / 10));
}

/** Runs the workload under `python3`; resolves to its time in ms, or null when there is no usable python3. */
export async function measureCpythonMs(command = process.env.PARITY_PYTHON || "python3"): Promise<number | null> {
  try {
    const { stdout } = await execFileAsync(command, ["-c", `${CALIBRATION_SOURCE}\nprint(_calibrate())`], { timeout: 20_000, encoding: "utf8", env: { NODE_ENV: process.env.NODE_ENV, PATH: process.env.PATH ?? "" } });
    const value = Number(String(stdout).trim());
    return Number.isFinite(value) && value > 0 ? value : null;
  } catch {
    return null;
  }
}

function file(dir: string, key: string): string {
  return path.join(dir, `calibration-${key}.json`);
}

/** The stored calibration for this build, or null. */
export function readCalibration(dir: string, key: string): Calibration | null {
  try {
    const value = JSON.parse(fs.readFileSync(file(dir, key), "utf8")) as Partial<Calibration>;
    if (value.key !== key || typeof value.factor !== "number" || !(value.factor >= FACTOR_RANGE.min && value.factor <= FACTOR_RANGE.max)) return null;
    return value as Calibration;
  } catch {
    return null;
  }
}

/** Stores a calibration; errors are ignored (the next process measures again). */
export function writeCalibration(dir: string, calibration: Calibration): void {
  try {
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(file(dir, calibration.key), JSON.stringify(calibration));
    for (const name of fs.readdirSync(dir)) {
      if (/^calibration-[0-9a-f]{32}\.json$/.test(name) && !name.includes(calibration.key)) fs.rmSync(path.join(dir, name), { force: true });
    }
  } catch {
    /* a read-only cache only costs a new measurement */
  }
}

/** The words a timeout message ends with, e.g. `limit 6000 ms = 3000 ms × 2.0 (Pyodide/CPython speed, measured)`. */
export function describeLimit(baseMs: number, factor: number, measured: boolean): string {
  if (factor === 1) return `limit ${baseMs} ms`;
  return `limit ${Math.round(baseMs * factor)} ms = ${baseMs} ms × ${factor.toFixed(1)} (Pyodide/CPython speed, ${measured ? "measured" : "default"})`;
}
