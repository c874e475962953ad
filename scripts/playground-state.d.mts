// Types of scripts/playground-state.mjs (plain Node, run before node_modules exists), for its tests.

/** A decision of {@link installDecision} or {@link buildDecision}, with a one-line reason to print. */
export interface Decision {
  needed: boolean;
  reason: string;
}

/** A `packages` entry of package-lock.json or node_modules/.package-lock.json (the fields read here). */
export interface LockEntry {
  version?: string;
  resolved?: string;
  integrity?: string;
  link?: boolean;
  optional?: boolean;
  devOptional?: boolean;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

/** A parsed lockfile (v2+): `packages` keyed by install path, `""` = the project itself. */
export interface Lockfile {
  packages?: Record<string, LockEntry>;
}

/** Whether `npm ci` is needed, from npm's own record of its last install (see the .mjs for the rules). */
export function installDecision(facts: {
  lockfile: Lockfile | null;
  hiddenLockfile: Lockfile | null;
  packageJson: Partial<Record<"dependencies" | "devDependencies" | "optionalDependencies" | "peerDependencies", Record<string, string>>> | null;
  /** The `version` in the package.json of a `packages` key's folder; null when missing. Default: trust npm's record. */
  installedVersionOf?: (key: string) => string | null;
  addonError?: string | null;
}): Decision;

/** Whether a repository path (relative, `/` separators) can change what `next build` produces. */
export function isBuildInput(file: string): boolean;

/** SHA-256 hex over the files' paths and contents (`null` = deleted) and the extras. */
export function fingerprintOf(files: ReadonlyArray<{ path: string; content: Uint8Array | string | null }>, extras: Record<string, string>): string;

/** Whether `next build` must run, given the inputs' fingerprint now, the stamp of our last build and .next/BUILD_ID. */
export function buildDecision(facts: {
  fingerprint: string | null;
  stamp: { fingerprint?: unknown; buildId?: unknown } | null;
  buildId: string | null;
}): Decision;
