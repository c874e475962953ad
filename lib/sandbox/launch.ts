import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { SandboxEngine, SandboxIsolationInfo, SandboxPoolOptions } from "./types";

/**
 * How a sandbox child is started: the command line (Node permission model, empty
 * environment, no code generation from strings, optional OS namespaces) and the
 * files it may read. Detection results are cached per process.
 */

/** Absolute paths a child needs (all real paths, no symlinks). */
export interface SandboxPaths {
  runnerDir: string;
  pyodideDir: string;
  quickjsCore: string;
  quickjsVariant: string;
  /** Folders a QuickJS child may read (quickjs-emscripten-core and @jitl). */
  quickjsReadDirs: string[];
}

/** A ready-to-spawn command line. */
export interface LaunchSpec {
  command: string;
  args: string[];
}

const NOBODY = "65534";

function realDir(candidate: string): string | null {
  try {
    return fs.realpathSync(candidate);
  } catch {
    return null;
  }
}

/** Finds the runner folder and the engine packages; throws with a clear message when missing. */
export function resolveSandboxPaths(options: SandboxPoolOptions["paths"] = {}): SandboxPaths {
  const here = (() => {
    try {
      return path.join(path.dirname(fileURLToPath(import.meta.url)), "runner");
    } catch {
      return null;
    }
  })();
  const runnerCandidates = [options.runnerDir, here, path.join(/* turbopackIgnore: true */ process.cwd(), "lib/sandbox/runner")];
  const runnerDir = runnerCandidates
    .filter((dir): dir is string => typeof dir === "string")
    .map(realDir)
    .find((dir) => dir !== null && fs.existsSync(path.join(dir, "runner.cjs")));
  if (!runnerDir) throw new Error(`sandbox runner not found (looked in ${runnerCandidates.filter(Boolean).join(", ")})`);
  const nodeModules = realDir(options.nodeModulesDir ?? path.join(/* turbopackIgnore: true */ process.cwd(), "node_modules"));
  if (!nodeModules) throw new Error("sandbox: node_modules not found (set paths.nodeModulesDir)");
  const need = (relative: string): string => {
    const full = realDir(path.join(/* turbopackIgnore: true */ nodeModules, relative));
    if (!full) throw new Error(`sandbox: missing ${relative} in ${nodeModules}`);
    return full;
  };
  const pyodideDir = path.dirname(need("pyodide/pyodide.js"));
  const quickjsCore = need("quickjs-emscripten-core/dist/index.js");
  const quickjsVariant = need("@jitl/quickjs-wasmfile-release-sync/dist/index.js");
  const jitl = path.dirname(path.dirname(path.dirname(quickjsVariant)));
  return { runnerDir, pyodideDir, quickjsCore, quickjsVariant, quickjsReadDirs: [path.dirname(path.dirname(quickjsCore)), jitl] };
}

/** `--permission` on Node versions that have it (22.13+), `--experimental-permission` before. */
export function permissionFlag(): string {
  return process.allowedNodeEnvironmentFlags.has("--permission") ? "--permission" : "--experimental-permission";
}

/** How a child is isolated by the OS: user namespaces as root or rootless, or `unisolated` (only Node's permission model). */
type OsMode = "root" | "rootless" | "unisolated";
const osProbes = new Map<string, { mode: OsMode; detail: string }>();

function wrapperArgs(mode: OsMode): { command: string; prefix: string[] } {
  const namespaces = ["--net", "--pid", "--fork", "--kill-child", "--mount-proc", "--ipc", "--uts"];
  if (mode === "root") {
    // Outer setpriv: die with the app. unshare: fresh namespaces. Inner setpriv: drop to nobody,
    // no new privileges, and die with unshare (a uid change clears the parent-death signal).
    return {
      command: "setpriv",
      prefix: ["--pdeathsig", "KILL", "--", "unshare", ...namespaces, "setpriv", `--reuid=${NOBODY}`, `--regid=${NOBODY}`, "--clear-groups", "--no-new-privs", "--pdeathsig", "KILL", "--"],
    };
  }
  return { command: "setpriv", prefix: ["--pdeathsig", "KILL", "--", "unshare", "--user", "--map-root-user", ...namespaces, "setpriv", "--no-new-privs", "--pdeathsig", "KILL", "--"] };
}

/**
 * Checks once whether children can run in fresh namespaces (as root: `unshare` +
 * drop to `nobody`; otherwise an unprivileged user namespace) and whether the
 * dropped user can read `readable` (node, runner, engine packages).
 */
export function detectOsIsolation(readable: string[]): { mode: OsMode; detail: string } {
  const key = readable.join("\0");
  const cached = osProbes.get(key);
  if (cached) return cached;
  const remember = (probe: { mode: OsMode; detail: string }) => {
    osProbes.set(key, probe);
    return probe;
  };
  if (process.platform !== "linux") return remember({ mode: "unisolated", detail: `OS isolation needs Linux namespaces (platform is ${process.platform})` });
  const tryMode = (mode: OsMode): string | null => {
    const { command, prefix } = wrapperArgs(mode);
    const checks = [process.execPath, ...readable].map((file) => `test -r '${file.replace(/'/g, "'\\''")}'`).join(" && ");
    const result = spawnSync(/* turbopackIgnore: true */ command, [...prefix, "/bin/sh", "-c", checks], { env: {} as NodeJS.ProcessEnv, timeout: 10_000, encoding: "utf8" });
    if (result.error) return String(result.error.message);
    if (result.status !== 0) return (result.stderr || `exit status ${result.status}`).trim().split("\n").slice(-1)[0] ?? "failed";
    return null;
  };
  const uid = typeof process.getuid === "function" ? process.getuid() : -1;
  const order: OsMode[] = uid === 0 ? ["root", "rootless"] : ["rootless"];
  const failures: string[] = [];
  for (const mode of order) {
    const failure = tryMode(mode);
    if (failure === null) {
      return remember({
        mode,
        detail: mode === "root"
          ? "children run in fresh network, PID, mount, IPC and UTS namespaces (unshare) as user nobody (setpriv)"
          : "children run in a fresh user namespace with fresh network, PID, mount, IPC and UTS namespaces (unshare --user)",
      });
    }
    failures.push(`${mode}: ${failure}`);
  }
  return remember({ mode: "unisolated", detail: `OS isolation unavailable (${failures.join("; ")})` });
}

/** Describes the isolation a pool with these options gets; throws when `required` is not available. */
export function resolveIsolation(mode: SandboxPoolOptions["osIsolation"], paths: SandboxPaths): { info: SandboxIsolationInfo; os: OsMode } {
  const flag = permissionFlag();
  if (mode === "off") return { os: "unisolated", info: { os: false, detail: "OS isolation turned off (osIsolation: 'off')", permissionFlag: flag } };
  const probe = detectOsIsolation([path.join(paths.runnerDir, "runner.cjs"), path.join(paths.pyodideDir, "pyodide.asm.wasm"), paths.quickjsCore, paths.quickjsVariant]);
  if (probe.mode === "unisolated" && mode === "required") throw new Error(`sandbox: ${probe.detail}`);
  return { os: probe.mode, info: { os: probe.mode !== "unisolated", detail: probe.detail, permissionFlag: flag } };
}

/**
 * Builds the command line of one child (`expectSnapshot`: a Python child that will
 * receive a memory snapshot; `calibrate`: Python source whose `_calibrate()` the child
 * runs once at start-up, see calibration.ts).
 */
export function buildLaunch(engine: SandboxEngine, paths: SandboxPaths, os: OsMode, v8HeapLimitMb: number, expectSnapshot = false, calibrate?: string): LaunchSpec {
  const readDirs = engine === "python" ? [paths.pyodideDir, paths.runnerDir] : [...paths.quickjsReadDirs, paths.runnerDir];
  const config = engine === "python" ? { engine, pyodideDir: paths.pyodideDir, expectSnapshot, ...(calibrate ? { calibrate } : {}) } : { engine, quickjsCore: paths.quickjsCore, quickjsVariant: paths.quickjsVariant };
  const nodeArgs = [
    "--disallow-code-generation-from-strings",
    `--max-old-space-size=${v8HeapLimitMb}`,
    "--no-warnings",
    permissionFlag(),
    ...readDirs.map((dir) => `--allow-fs-read=${dir}/*`),
    // Python's per-test interrupt timer is a worker thread inside the child.
    ...(engine === "python" ? ["--allow-worker"] : []),
    path.join(paths.runnerDir, "runner.cjs"),
    JSON.stringify(config),
  ];
  if (os === "unisolated") return { command: process.execPath, args: nodeArgs };
  const { command, prefix } = wrapperArgs(os);
  return { command, args: [...prefix, process.execPath, ...nodeArgs] };
}
