// Decides whether `npm run playground` (scripts/setup.sh) must reinstall the npm packages or
// rebuild the app. Plain Node, no dependencies: it runs before node_modules exists.
//
//   node scripts/playground-state.mjs install              exit 0: node_modules is current; 1: run `npm ci`
//   node scripts/playground-state.mjs fingerprint          prints the build inputs' fingerprint (or "none")
//   node scripts/playground-state.mjs build <fingerprint>  exit 0: .next is a build of exactly these inputs; 1: rebuild
//   node scripts/playground-state.mjs forget-build         removes the build stamp (before `next build`)
//   node scripts/playground-state.mjs record-build <fp>    after a successful `next build`: stamps .next with <fp>
//
// Each command prints one line saying why. The decisions are pure functions (exported, tested in
// tests/scripts/playground-state.test.ts); main() only gathers the facts from the disk.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

/** Fields of a `packages` entry that identify what is installed at that path. */
const IDENTITY_FIELDS = ["version", "resolved", "integrity", "link"];

/** Dependency fields of package.json that npm copies into the lockfile's root entry (`packages[""]`). */
const ROOT_DEPENDENCY_FIELDS = ["dependencies", "devDependencies", "optionalDependencies", "peerDependencies"];

const needed = (reason) => ({ needed: true, reason });
const current = (reason) => ({ needed: false, reason });

/** The package name in a `packages` key (`node_modules/a/node_modules/@b/c` → `@b/c`). */
function packageName(key) {
  return key.slice(key.lastIndexOf("node_modules/") + "node_modules/".length);
}

function sameRecord(a, b) {
  const keys = Object.keys(a ?? {}).sort();
  const other = Object.keys(b ?? {}).sort();
  return keys.length === other.length && keys.every((key, index) => key === other[index] && a[key] === b[key]);
}

/**
 * Whether `npm ci` is needed, from npm's own record of the last install.
 *
 * npm writes node_modules/.package-lock.json (the "hidden lockfile") at the end of every
 * `npm ci` / `npm install`: the `packages` entries it actually installed, in the same shape as
 * package-lock.json. So node_modules is current when
 * - package.json's dependency lists equal the lockfile's root entry (else `npm ci` must run and
 *   will say the lockfile is out of date);
 * - every installed entry is in the lockfile with the same version, resolved URL, integrity and link;
 * - every lockfile entry is installed, except optional ones (npm skips optional packages built for
 *   other platforms, e.g. `@esbuild/darwin-arm64`);
 * - every installed entry's folder still holds that version (`installedVersionOf`, read from its
 *   package.json). npm's record alone is not enough: it cannot know about `rm -rf node_modules/x`,
 *   and `npm install --package-lock-only` (npm 11) rewrites it to the new lockfile without
 *   installing anything.
 * Contents are compared, not mtimes or a hash of the lockfile, so a plain `npm ci` or
 * `npm install` done by hand counts, and touching or reformatting the lockfile without changing
 * what it pins does not trigger a reinstall.
 *
 * @param {object} facts
 * @param {any} facts.lockfile parsed package-lock.json
 * @param {any | null} facts.hiddenLockfile parsed node_modules/.package-lock.json, null when absent or unreadable
 * @param {any} facts.packageJson parsed package.json
 * @param {(key: string) => string | null} [facts.installedVersionOf] the `version` in the package.json of a
 *   `packages` key's folder, null when the folder or its package.json is missing; default: trust npm's record
 * @returns {{ needed: boolean, reason: string }}
 */
export function installDecision({ lockfile, hiddenLockfile, packageJson, installedVersionOf }) {
  const want = lockfile?.packages;
  if (!want || typeof want !== "object") return needed("package-lock.json has no `packages` (lockfile v2+ expected)");
  const root = want[""] ?? {};
  for (const field of ROOT_DEPENDENCY_FIELDS) {
    if (!sameRecord(packageJson?.[field], root[field])) return needed(`package.json's ${field} differ from package-lock.json (run npm install to update the lockfile)`);
  }
  const have = hiddenLockfile?.packages;
  if (!have || typeof have !== "object") return needed("no record of an npm install (node_modules/.package-lock.json is missing)");
  for (const [key, entry] of Object.entries(have)) {
    if (key === "") continue;
    const wanted = want[key];
    if (!wanted) return needed(`${packageName(key)} is installed but not in package-lock.json`);
    const differing = IDENTITY_FIELDS.find((field) => wanted[field] !== entry[field]);
    if (differing) {
      const detail = differing === "version" ? `${entry.version ?? "?"} installed, ${wanted.version ?? "?"} locked` : `its ${differing} changed`;
      return needed(`${packageName(key)} differs from package-lock.json (${detail})`);
    }
    if (!installedVersionOf) continue;
    const installed = installedVersionOf(key);
    if (installed === null) return needed(`${packageName(key)} is missing from node_modules`);
    if (!entry.link && entry.version !== undefined && installed !== entry.version) {
      return needed(`${packageName(key)} ${installed} is in node_modules, npm's record says ${entry.version ?? "?"}`);
    }
  }
  for (const [key, entry] of Object.entries(want)) {
    if (key === "" || key in have || entry.optional || entry.devOptional) continue;
    return needed(`${packageName(key)} ${entry.version ?? ""} is locked but not installed`.replace(/ +$/, ""));
  }
  return current("node_modules matches package-lock.json (npm's record of its last install)");
}

/**
 * Whether a tracked path can change what `next build` produces. Everything counts (Next type-checks
 * every .ts file, tests included) except documentation and CI files.
 * @param {string} file a path relative to the repository root, with `/` separators
 */
export function isBuildInput(file) {
  if (/^(docs|\.ci|\.github)\//.test(file)) return false;
  if (/\.md$/i.test(file) || file === "LICENSE") return false;
  return true;
}

/**
 * The fingerprint of a build's inputs: SHA-256 over each input file's path and content (sorted by
 * path; `content` null = deleted) and over `extras` (Node version, NEXT_PUBLIC_* values, …).
 * @param {Array<{ path: string, content: Uint8Array | string | null }>} files
 * @param {Record<string, string>} extras
 * @returns {string} hex digest
 */
export function fingerprintOf(files, extras) {
  const hash = createHash("sha256");
  for (const file of [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) {
    const digest = file.content === null ? "deleted" : createHash("sha256").update(file.content).digest("hex");
    hash.update(`file\0${file.path}\0${digest}\n`);
  }
  for (const key of Object.keys(extras).sort()) hash.update(`extra\0${key}\0${extras[key]}\n`);
  return hash.digest("hex");
}

/**
 * Whether `next build` must run. The stamp (.next/playground-build.json, written after our last
 * successful build) records the inputs' fingerprint and the BUILD_ID that build produced: a build
 * made by anyone else (`npm run build`, the test command) has another BUILD_ID, so it is rebuilt once
 * rather than trusted.
 * @param {object} facts
 * @param {string | null} facts.fingerprint the inputs now (null: they cannot be listed)
 * @param {{ fingerprint?: unknown, buildId?: unknown } | null} facts.stamp
 * @param {string | null} facts.buildId contents of .next/BUILD_ID, null when there is no build
 * @returns {{ needed: boolean, reason: string }}
 */
export function buildDecision({ fingerprint, stamp, buildId }) {
  if (buildId === null) return needed("there is no production build (.next/BUILD_ID)");
  if (fingerprint === null) return needed("the sources cannot be listed (not a git checkout), so every start rebuilds");
  if (stamp === null) return needed("the build in .next was not made by npm run playground");
  if (stamp.buildId !== buildId) return needed("the build in .next was replaced since npm run playground made it");
  if (stamp.fingerprint !== fingerprint) return needed("sources, lockfile or build settings changed since the last build");
  return current("nothing changed since the last build");
}

// ---------------------------------------------------------------------------
// Facts from the disk.
// ---------------------------------------------------------------------------

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const STAMP = path.join(root, ".next", "playground-build.json");

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8"));
  } catch {
    return null;
  }
}

function readText(file) {
  try {
    return fs.readFileSync(file, "utf8").trim();
  } catch {
    return null;
  }
}

function installFacts() {
  return {
    lockfile: readJson(path.join(root, "package-lock.json")),
    hiddenLockfile: readJson(path.join(root, "node_modules", ".package-lock.json")),
    packageJson: readJson(path.join(root, "package.json")),
    installedVersionOf: (key) => {
      const manifest = readJson(path.join(root, key, "package.json"));
      if (manifest) return typeof manifest.version === "string" ? manifest.version : "";
      return fs.existsSync(path.join(root, key)) ? "" : null;
    },
  };
}

/** The fingerprint of the build inputs now, or null outside a git checkout. */
function currentFingerprint() {
  let listed;
  try {
    listed = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
  } catch {
    return null;
  }
  const paths = [...new Set(listed.split("\0").filter((file) => file !== "" && isBuildInput(file)))];
  // Next also reads .env files, which git ignores.
  for (const name of fs.readdirSync(root)) if (/^\.env(\..+)?$/.test(name) && !paths.includes(name)) paths.push(name);
  const files = paths.map((file) => {
    let content = null;
    try {
      content = fs.readFileSync(path.join(root, file));
    } catch {
      // deleted or unreadable: hashed as such
    }
    return { path: file, content };
  });
  const extras = { node: process.version };
  for (const [key, value] of Object.entries(process.env)) if (key.startsWith("NEXT_PUBLIC_") || key === "NODE_ENV") extras[`env:${key}`] = value ?? "";
  return fingerprintOf(files, extras);
}

function main(argv) {
  const [command, argument] = argv;
  switch (command) {
    case "install": {
      const decision = installDecision(installFacts());
      console.log(decision.reason);
      return decision.needed ? 1 : 0;
    }
    case "fingerprint":
      console.log(currentFingerprint() ?? "none");
      return 0;
    case "build": {
      const fingerprint = argument && argument !== "none" ? argument : null;
      const decision = buildDecision({ fingerprint, stamp: readJson(STAMP), buildId: readText(path.join(root, ".next", "BUILD_ID")) });
      console.log(decision.reason);
      return decision.needed ? 1 : 0;
    }
    case "forget-build":
      fs.rmSync(STAMP, { force: true });
      return 0;
    case "record-build": {
      const buildId = readText(path.join(root, ".next", "BUILD_ID"));
      if (!argument || argument === "none" || buildId === null) {
        console.log("build not stamped (no fingerprint or no BUILD_ID): the next start rebuilds");
        return 0;
      }
      fs.writeFileSync(STAMP, `${JSON.stringify({ fingerprint: argument, buildId, builtAt: new Date().toISOString() }, null, 2)}\n`);
      return 0;
    }
    default:
      console.error("usage: node scripts/playground-state.mjs install | fingerprint | build <fingerprint> | forget-build | record-build <fingerprint>");
      return 2;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  process.exitCode = main(process.argv.slice(2));
}
