import fs from "node:fs";
import path from "node:path";
import type { ImportableFile } from "@/lib/domain/paper-import";
import { describeLogPath, notImportedReason } from "./log-catalog";

/**
 * Finding the authors' logs on disk: the shared data root, and the importable
 * logs under a folder (an ALFWorld run folder counts as one log).
 */

/** The HotpotQA sample the QA logs are matched to, relative to the data root. */
export const HOTPOTQA_SAMPLE_PATH = "hotpotqa/hotpotqa-distractor-reflexion-sample100.json";

/**
 * The data root: `REFLEXION_DATA_ROOT` when set, else `../shared/data` relative to
 * `cwd`, if it exists and holds a `reflexion/` folder; otherwise null.
 */
export function findDataRoot(env: Record<string, string | undefined> = process.env, cwd: string = process.cwd()): string | null {
  const candidates = env.REFLEXION_DATA_ROOT?.trim() ? [path.resolve(cwd, env.REFLEXION_DATA_ROOT.trim())] : [path.resolve(cwd, "../shared/data")];
  return candidates.find((candidate) => fs.existsSync(path.join(candidate, "reflexion"))) ?? null;
}

/** One importable log found on disk: absolute path(s) and its catalogue entry (without the import state). */
export interface FoundLog extends Omit<ImportableFile, "importedExperimentId"> {
  /** Absolute path of the file or ALFWorld folder. */
  absolutePath: string;
  /** The files to read (one, or an ALFWorld run's trial files). */
  files: string[];
}

/** Something under the folder that looks like a log but is deliberately not imported, and why. */
export interface SkippedLog {
  path: string;
  reason: string;
}

function walk(dir: string, out: string[]): void {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(full, out);
    else out.push(full);
  }
}

/**
 * The importable logs under `target` (a file or a folder), with paths relative
 * to `root` when `target` is inside it (else absolute), sorted by path.
 */
export function discoverLogs(target: string, root: string | null): { logs: FoundLog[]; skipped: SkippedLog[] } {
  const files: string[] = [];
  const stat = fs.statSync(target);
  if (stat.isDirectory()) walk(target, files);
  else files.push(target);
  // Inside the root by its path or by its real path (`/work/shared/…` and `../shared/…` through a symlink name the same file).
  const realRoot = root && fs.existsSync(root) ? fs.realpathSync(root) : null;
  const inside = (from: string, absolute: string) => {
    const relative = path.relative(from, absolute);
    return !relative.startsWith("..") && !path.isAbsolute(relative) ? relative.split(path.sep).join("/") : null;
  };
  const rel = (absolute: string) => (root ? inside(root, absolute) : null) ?? (realRoot ? inside(realRoot, fs.realpathSync(absolute)) : null) ?? absolute;
  const logs: FoundLog[] = [];
  const skipped: SkippedLog[] = [];
  const alfworldFolders = new Map<string, string[]>();
  for (const file of files) {
    const relative = rel(file);
    const skip = notImportedReason(relative);
    if (skip) {
      skipped.push({ path: relative, reason: skip });
      continue;
    }
    const descriptor = describeLogPath(relative);
    if (!descriptor) continue;
    if (descriptor.format === "hotpotqa-text" && !/100_questions_\d+_trials\.txt$/.test(file)) continue;
    if (descriptor.format === "alfworld-results") {
      if (!/env_results_trial_\d+\.json$/.test(file)) continue;
      const folder = path.dirname(file);
      alfworldFolders.set(folder, [...(alfworldFolders.get(folder) ?? []), file]);
      continue;
    }
    const { format, family, label } = descriptor;
    logs.push({ path: relative, absolutePath: file, files: [file], format, family, label, sizeBytes: fs.statSync(file).size });
  }
  for (const [folder, trialFiles] of alfworldFolders) {
    const descriptor = describeLogPath(rel(folder) + "/");
    if (!descriptor) continue;
    const sizeBytes = trialFiles.reduce((sum, file) => sum + fs.statSync(file).size, 0);
    logs.push({ path: rel(folder), absolutePath: folder, files: trialFiles, format: descriptor.format, family: descriptor.family, label: descriptor.label, sizeBytes });
  }
  logs.sort((a, b) => a.path.localeCompare(b.path));
  return { logs, skipped };
}
