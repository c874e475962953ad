/**
 * `tsx lib/sandbox/prepare-snapshot.ts` (run by scripts/setup.sh): makes sure the persisted
 * Pyodide memory snapshot of this build exists (decision 0019 "Fast start"), so the first
 * Python request after install is served in under a second. With a verified snapshot present it
 * only checks the file (SHA-256, key) and exits; otherwise it starts one Python child, which
 * makes and stores the snapshot (and the time-limit calibration), and waits for the file.
 * Prints one line; exit status 0 even when the sandbox cannot start (nothing is lost: the first
 * use makes the snapshot instead), 1 only on an unexpected error.
 */
import path from "node:path";
import { resolveSandboxPaths } from "./launch";
import { createSandboxPool } from "./pool";
import { defaultSnapshotCacheDir, readSnapshotCache, snapshotCacheKey } from "./snapshot-cache";

async function main(): Promise<void> {
  const paths = resolveSandboxPaths();
  const location = { dir: defaultSnapshotCacheDir(path.dirname(paths.pyodideDir)), key: snapshotCacheKey(paths.pyodideDir, paths.runnerDir) };
  const read = readSnapshotCache(location);
  if (read.kind === "hit") {
    console.log(`Python sandbox snapshot is current (${location.dir})`);
    return;
  }
  const started = Date.now();
  const pool = createSandboxPool({ size: 1, warm: ["python"] });
  try {
    await pool.warmup("python");
    for (let waited = 0; waited < 20_000 && readSnapshotCache(location).kind !== "hit"; waited += 200) {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const done = readSnapshotCache(location).kind === "hit";
    console.log(done ? `Python sandbox snapshot built in ${Math.round((Date.now() - started) / 100) / 10} s (${location.dir})` : "Python sandbox snapshot not written; the first Python request will make it");
  } catch (error) {
    console.log(`Python sandbox snapshot skipped: ${error instanceof Error ? error.message : String(error)}; the first Python request will make it`);
  } finally {
    await pool.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
