import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

/**
 * Persisted Pyodide memory snapshot (decision 0019 "Fast start"). The first Python
 * child of a pool makes a snapshot right after loading Pyodide and the preloaded
 * stdlib modules, before any harness or untrusted code (decision 0006 "Start-up").
 * The pool writes it here; the next process loads it instead of booting Pyodide
 * (~0.3 s per interpreter instead of ~3–7 s).
 *
 * Files, in `dir`: `pyodide-<key>.snapshot` (the bytes) and `pyodide-<key>.json`
 * ({@link SnapshotManifest}). `key` hashes everything that shapes the snapshot: the
 * Pyodide version and wasm/stdlib file identities, the runner sources (the preload
 * list lives in python-engine.cjs), Node's version and the architecture. A file is
 * only loaded when its SHA-256 and length equal the manifest's; otherwise both
 * files are deleted and the pool makes a fresh snapshot.
 */

/** The manifest stored next to a snapshot file. */
export interface SnapshotManifest {
  /** {@link snapshotCacheKey} of the build that made it. */
  key: string;
  /** SHA-256 (hex) of the snapshot bytes. */
  sha256: string;
  /** Length of the snapshot in bytes. */
  bytes: number;
  /** ISO time the snapshot was written. */
  createdAt: string;
}

/** Where the cache lives and what it is keyed by. */
export interface SnapshotCacheLocation {
  dir: string;
  key: string;
}

/** What {@link readSnapshotCache} found. */
export type SnapshotCacheRead =
  | { kind: "hit"; bytes: Uint8Array }
  | { kind: "miss" }
  /** A file was there but did not verify; it was deleted (`reason` says why). */
  | { kind: "rejected"; reason: string };

const RUNNER_FILES = ["runner.cjs", "python-engine.cjs", "harden.cjs", "output-sink.cjs", "py_codec.py", "py_refs.py", "py_harness.py", "py_guard.py"];

function fileIdentity(file: string): string {
  try {
    const stat = fs.statSync(file);
    return `${path.basename(file)}:${stat.size}:${stat.mtimeMs}`;
  } catch {
    return `${path.basename(file)}:missing`;
  }
}

/**
 * The cache key: SHA-256 over the Pyodide package version, the identity (size,
 * mtime) of `pyodide.asm.wasm` / `python_stdlib.zip`, the contents of the runner
 * files, `process.version` and `process.arch`. Any change gives a new key.
 */
export function snapshotCacheKey(pyodideDir: string, runnerDir: string): string {
  const hash = createHash("sha256");
  let version = "unknown";
  try {
    version = String((JSON.parse(fs.readFileSync(path.join(pyodideDir, "package.json"), "utf8")) as { version?: unknown }).version);
  } catch {
    /* a missing package.json only weakens the key; the file identities below still count */
  }
  hash.update(`pyodide ${version}\n`);
  for (const file of ["pyodide.asm.wasm", "python_stdlib.zip", "pyodide.asm.mjs"]) hash.update(`${fileIdentity(path.join(/* turbopackIgnore: true */ pyodideDir, file))}\n`);
  for (const file of RUNNER_FILES) {
    hash.update(`${file}\n`);
    try {
      hash.update(fs.readFileSync(/* turbopackIgnore: true */ path.join(/* turbopackIgnore: true */ runnerDir, file)));
    } catch {
      hash.update("missing");
    }
  }
  hash.update(`${process.version} ${process.arch}\n`);
  return hash.digest("hex").slice(0, 32);
}

/**
 * The default cache folder: `$REFLEXION_SANDBOX_CACHE` when set, else
 * `<node_modules>/.cache/reflexion-playground` (next to the Pyodide package).
 */
export function defaultSnapshotCacheDir(nodeModulesDir: string): string {
  return process.env.REFLEXION_SANDBOX_CACHE || path.join(nodeModulesDir, ".cache", "reflexion-playground");
}

function files(location: SnapshotCacheLocation): { data: string; manifest: string } {
  return { data: path.join(location.dir, `pyodide-${location.key}.snapshot`), manifest: path.join(location.dir, `pyodide-${location.key}.json`) };
}

function sha256(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

function remove(location: SnapshotCacheLocation): void {
  const { data, manifest } = files(location);
  for (const file of [data, manifest]) fs.rmSync(file, { force: true });
}

/** Reads and verifies the cached snapshot; a file that does not verify is deleted, never returned. */
export function readSnapshotCache(location: SnapshotCacheLocation): SnapshotCacheRead {
  const { data, manifest } = files(location);
  if (!fs.existsSync(/* turbopackIgnore: true */ manifest) && !fs.existsSync(/* turbopackIgnore: true */ data)) return { kind: "miss" };
  let reason = "";
  try {
    const meta = JSON.parse(fs.readFileSync(/* turbopackIgnore: true */ manifest, "utf8")) as Partial<SnapshotManifest>;
    const bytes = new Uint8Array(fs.readFileSync(/* turbopackIgnore: true */ data));
    if (meta.key !== location.key) reason = "made by another build (key mismatch)";
    else if (meta.bytes !== bytes.length) reason = `length ${bytes.length} instead of ${meta.bytes}`;
    else if (meta.sha256 !== sha256(bytes)) reason = "SHA-256 mismatch (corrupted)";
    else return { kind: "hit", bytes };
  } catch (error) {
    reason = `unreadable (${error instanceof Error ? error.message : String(error)})`;
  }
  remove(location);
  return { kind: "rejected", reason };
}

/** Writes the snapshot and its manifest atomically (temporary files + rename). Errors are returned, not thrown. */
export function writeSnapshotCache(location: SnapshotCacheLocation, bytes: Uint8Array): string | null {
  const { data, manifest } = files(location);
  try {
    fs.mkdirSync(location.dir, { recursive: true });
    const suffix = `.${process.pid}.${Date.now()}.tmp`;
    fs.writeFileSync(data + suffix, bytes);
    const meta: SnapshotManifest = { key: location.key, sha256: sha256(bytes), bytes: bytes.length, createdAt: new Date().toISOString() };
    fs.writeFileSync(manifest + suffix, JSON.stringify(meta));
    fs.renameSync(data + suffix, data);
    fs.renameSync(manifest + suffix, manifest);
    // Older builds' snapshots are dead weight (30 MB each).
    for (const name of fs.readdirSync(location.dir)) {
      if (/^pyodide-[0-9a-f]{32}\.(snapshot|json)$/.test(name) && !name.includes(location.key)) fs.rmSync(path.join(location.dir, name), { force: true });
    }
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** Deletes the cached snapshot (used when a child could not start from it). */
export function discardSnapshotCache(location: SnapshotCacheLocation): void {
  try {
    remove(location);
  } catch {
    /* nothing to do */
  }
}
