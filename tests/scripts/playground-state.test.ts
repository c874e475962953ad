import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { buildDecision, fingerprintOf, installDecision, isBuildInput, type Lockfile } from "../../scripts/playground-state.mjs";

/**
 * scripts/playground-state.mjs decides whether `npm run playground` reinstalls
 * the npm packages (from npm's own record, node_modules/.package-lock.json) and
 * whether it rebuilds (a fingerprint of the build inputs stamped next to
 * .next/BUILD_ID). The pure decisions first, then the command line in a
 * throw-away git checkout.
 */

const packageJson = { dependencies: { next: "16.4.6", zod: "^4.6.7" }, devDependencies: { vitest: "^4.1.12" } };

/** A lockfile in npm's v3 shape: the root entry, regular packages and an optional platform package. */
function lockfile(): Lockfile & { packages: NonNullable<Lockfile["packages"]> } {
  return {
    packages: {
      "": { ...packageJson },
      "node_modules/next": { version: "16.4.6", integrity: "sha512-next" },
      "node_modules/zod": { version: "4.6.7", integrity: "sha512-zod" },
      "node_modules/vitest": { version: "4.1.12", integrity: "sha512-vitest" },
      "node_modules/vitest/node_modules/tinyrainbow": { version: "2.0.0", integrity: "sha512-tiny" },
      "node_modules/@esbuild/darwin-arm64": { version: "0.25.12", integrity: "sha512-darwin", optional: true },
      "node_modules/@emnapi/runtime": { version: "1.5.0", integrity: "sha512-emnapi", optional: true },
    },
  };
}

/** What npm records after installing `lock` on Linux: every entry but the root and the skipped optional ones. */
function hiddenLockfileOf(lock: Lockfile): Lockfile {
  const packages = Object.fromEntries(Object.entries(lock.packages ?? {}).filter(([key, entry]) => key !== "" && !entry.optional));
  return { packages };
}

describe("installDecision", () => {
  it("is current when npm's record matches the lockfile (optional packages for other platforms skipped)", () => {
    const lock = lockfile();
    const decision = installDecision({ lockfile: lock, hiddenLockfile: hiddenLockfileOf(lock), packageJson });
    expect(decision).toEqual({ needed: false, reason: expect.stringContaining("matches package-lock.json") });
  });

  it("needs an install when there is no record of one (fresh clone, or node_modules deleted)", () => {
    expect(installDecision({ lockfile: lockfile(), hiddenLockfile: null, packageJson })).toEqual({ needed: true, reason: expect.stringContaining(".package-lock.json") });
  });

  it("depends on what the lockfile pins, not on its formatting or key order", () => {
    const lock = lockfile();
    const reordered: Lockfile = JSON.parse(JSON.stringify({ packages: Object.fromEntries(Object.entries(lock.packages).reverse()) }), (_key, value: unknown) =>
      value && typeof value === "object" && !Array.isArray(value) ? Object.fromEntries(Object.entries(value).reverse()) : value,
    );
    expect(installDecision({ lockfile: reordered, hiddenLockfile: hiddenLockfileOf(lock), packageJson }).needed).toBe(false);
  });

  it("needs an install when the lockfile pins another version, naming the package", () => {
    const lock = lockfile();
    const installed = hiddenLockfileOf(lock);
    lock.packages["node_modules/zod"] = { version: "4.7.0", integrity: "sha512-zod-new" };
    expect(installDecision({ lockfile: lock, hiddenLockfile: installed, packageJson })).toEqual({
      needed: true,
      reason: "zod differs from package-lock.json (4.6.7 installed, 4.7.0 locked)",
    });
  });

  it("needs an install when only the integrity changed (same version, other tarball)", () => {
    const lock = lockfile();
    const installed = hiddenLockfileOf(lock);
    lock.packages["node_modules/vitest/node_modules/tinyrainbow"] = { version: "2.0.0", integrity: "sha512-other" };
    expect(installDecision({ lockfile: lock, hiddenLockfile: installed, packageJson })).toEqual({
      needed: true,
      reason: "tinyrainbow differs from package-lock.json (its integrity changed)",
    });
  });

  it("needs an install when the lockfile gained a package, but not for a new optional one", () => {
    const lock = lockfile();
    const installed = hiddenLockfileOf(lock);
    lock.packages["node_modules/@esbuild/win32-x64"] = { version: "0.25.12", optional: true };
    lock.packages["node_modules/react-dom"] = { version: "19.3.1", devOptional: true };
    expect(installDecision({ lockfile: lock, hiddenLockfile: installed, packageJson }).needed).toBe(false);
    lock.packages["node_modules/react"] = { version: "19.3.1" };
    expect(installDecision({ lockfile: lock, hiddenLockfile: installed, packageJson })).toEqual({ needed: true, reason: "react 19.3.1 is locked but not installed" });
  });

  it("needs an install when a package is installed that the lockfile no longer has", () => {
    const lock = lockfile();
    const installed = hiddenLockfileOf(lock);
    delete lock.packages["node_modules/zod"];
    expect(installDecision({ lockfile: lock, hiddenLockfile: installed, packageJson }).reason).toBe("zod is installed but not in package-lock.json");
  });

  it("checks npm's record against the installed folders: a folder gone, or another version in it", () => {
    const lock = lockfile();
    const installed = hiddenLockfileOf(lock);
    const versions = new Map(Object.entries(installed.packages ?? {}).map(([key, entry]) => [key, entry.version ?? ""]));
    const installedVersionOf = (key: string) => versions.get(key) ?? null;
    expect(installDecision({ lockfile: lock, hiddenLockfile: installed, packageJson, installedVersionOf }).needed).toBe(false);

    versions.delete("node_modules/next");
    expect(installDecision({ lockfile: lock, hiddenLockfile: installed, packageJson, installedVersionOf })).toEqual({
      needed: true,
      reason: "next is missing from node_modules",
    });

    // `npm install --package-lock-only zod@4.7.0` rewrites npm's record too, but installs nothing.
    versions.set("node_modules/next", "16.4.6");
    lock.packages["node_modules/zod"] = { version: "4.7.0", integrity: "sha512-zod-new" };
    const rewritten = hiddenLockfileOf(lock);
    expect(installDecision({ lockfile: lock, hiddenLockfile: rewritten, packageJson, installedVersionOf })).toEqual({
      needed: true,
      reason: "zod 4.6.7 is in node_modules, npm's record says 4.7.0",
    });
  });

  it("needs an install when package.json's dependencies no longer match the lockfile", () => {
    const lock = lockfile();
    const edited = { ...packageJson, dependencies: { ...packageJson.dependencies, clsx: "^2.1.1" } };
    expect(installDecision({ lockfile: lock, hiddenLockfile: hiddenLockfileOf(lock), packageJson: edited }).reason).toMatch(/dependencies differ from package-lock\.json/);
  });

  it("accepts this repository's own lockfile as installed by npm on this platform", () => {
    const lock = JSON.parse(fs.readFileSync("package-lock.json", "utf8")) as Lockfile;
    const ownPackageJson = JSON.parse(fs.readFileSync("package.json", "utf8")) as Parameters<typeof installDecision>[0]["packageJson"];
    expect(installDecision({ lockfile: lock, hiddenLockfile: hiddenLockfileOf(lock), packageJson: ownPackageJson }).needed).toBe(false);
  });
});

describe("build inputs and fingerprint", () => {
  it("counts everything but documentation and CI files as build inputs", () => {
    for (const file of ["app/page.tsx", "lib/engine/prompts.ts", "package-lock.json", "next.config.js", "tests/llm/x.test.ts", "e2e/run.spec.ts"]) {
      expect(isBuildInput(file)).toBe(true);
    }
    for (const file of ["README.md", "docs/architecture.md", "docs/screenshot.png", "LICENSE", ".ci/run"]) expect(isBuildInput(file)).toBe(false);
  });

  it("changes with a file's content, path or deletion and with the extras, not with listing order", () => {
    const files = [
      { path: "a.ts", content: "export const a = 1;" },
      { path: "b.ts", content: "export const b = 2;" },
    ];
    const base = fingerprintOf(files, { node: "v20" });
    expect(fingerprintOf([...files].reverse(), { node: "v20" })).toBe(base);
    expect(fingerprintOf([files[0]!, { path: "b.ts", content: "export const b = 3;" }], { node: "v20" })).not.toBe(base);
    expect(fingerprintOf([files[0]!, { path: "c.ts", content: "export const b = 2;" }], { node: "v20" })).not.toBe(base);
    expect(fingerprintOf([files[0]!, { path: "b.ts", content: null }], { node: "v20" })).not.toBe(fingerprintOf([files[0]!, { path: "b.ts", content: "" }], { node: "v20" }));
    expect(fingerprintOf(files, { node: "v22" })).not.toBe(base);
  });
});

describe("buildDecision", () => {
  const stamp = { fingerprint: "f1", buildId: "build-1" };

  it("skips the build only when the stamp matches both the inputs and the build in .next", () => {
    expect(buildDecision({ fingerprint: "f1", stamp, buildId: "build-1" })).toEqual({ needed: false, reason: "nothing changed since the last build" });
  });

  it.each([
    ["no build", { fingerprint: "f1", stamp, buildId: null }, /no production build/],
    ["inputs not listable", { fingerprint: null, stamp, buildId: "build-1" }, /not a git checkout/],
    ["a build nobody stamped", { fingerprint: "f1", stamp: null, buildId: "build-1" }, /not made by npm run playground/],
    ["a build made since (npm run build)", { fingerprint: "f1", stamp, buildId: "build-2" }, /replaced/],
    ["changed inputs", { fingerprint: "f2", stamp, buildId: "build-1" }, /changed since the last build/],
  ] as const)("rebuilds on %s", (_name, facts, reason) => {
    const decision = buildDecision(facts);
    expect(decision.needed).toBe(true);
    expect(decision.reason).toMatch(reason);
  });
});

describe("scripts/playground-state.mjs on disk", () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  /** A throw-away git checkout holding a copy of the script (it works on the checkout it lives in). */
  function checkout(): { dir: string; run: (...args: string[]) => { status: number | null; stdout: string } } {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rp-state-"));
    dirs.push(dir);
    fs.mkdirSync(path.join(dir, "scripts"));
    fs.copyFileSync("scripts/playground-state.mjs", path.join(dir, "scripts", "playground-state.mjs"));
    fs.writeFileSync(path.join(dir, ".gitignore"), "node_modules/\n.next/\n");
    fs.writeFileSync(path.join(dir, "page.ts"), "export const page = 1;\n");
    fs.writeFileSync(path.join(dir, "README.md"), "# docs\n");
    execFileSync("git", ["init", "-q"], { cwd: dir });
    execFileSync("git", ["add", "."], { cwd: dir });
    const run = (...args: string[]) => {
      const result = spawnSync(process.execPath, [path.join(dir, "scripts", "playground-state.mjs"), ...args], { cwd: dir, encoding: "utf8" });
      return { status: result.status, stdout: result.stdout.trim() };
    };
    return { dir, run };
  }

  it("install: current after an install npm recorded; needed when the lockfile changes what it pins", () => {
    const { dir, run } = checkout();
    const lock = lockfile();
    fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify(packageJson));
    fs.writeFileSync(path.join(dir, "package-lock.json"), JSON.stringify(lock, null, 2));
    expect(run("install")).toEqual({ status: 1, stdout: expect.stringContaining("no record of an npm install") });

    // What `npm ci` leaves behind: the packages' folders and npm's record of them.
    const installed = hiddenLockfileOf(lock);
    for (const key of Object.keys(installed.packages ?? {})) {
      fs.mkdirSync(path.join(dir, key), { recursive: true });
      fs.writeFileSync(path.join(dir, key, "package.json"), JSON.stringify({ version: installed.packages?.[key]?.version }));
    }
    fs.writeFileSync(path.join(dir, "node_modules", ".package-lock.json"), JSON.stringify(installed));
    expect(run("install").status).toBe(0);

    // Touching or reformatting the lockfile changes nothing it pins.
    fs.writeFileSync(path.join(dir, "package-lock.json"), JSON.stringify(lock));
    expect(run("install").status).toBe(0);

    // A package folder removed by hand.
    fs.renameSync(path.join(dir, "node_modules", "zod"), path.join(dir, "zod-away"));
    expect(run("install")).toEqual({ status: 1, stdout: "zod is missing from node_modules" });
    fs.renameSync(path.join(dir, "zod-away"), path.join(dir, "node_modules", "zod"));

    lock.packages["node_modules/next"] = { version: "16.4.7", integrity: "sha512-next-2" };
    fs.writeFileSync(path.join(dir, "package-lock.json"), JSON.stringify(lock));
    expect(run("install")).toEqual({ status: 1, stdout: "next differs from package-lock.json (16.4.6 installed, 16.4.7 locked)" });
  });

  it("fingerprint: follows tracked and untracked sources, ignores ignored files and docs", () => {
    const { dir, run } = checkout();
    const first = run("fingerprint").stdout;
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    expect(run("fingerprint").stdout).toBe(first);

    fs.writeFileSync(path.join(dir, "README.md"), "# other docs\n");
    fs.mkdirSync(path.join(dir, ".next"));
    fs.writeFileSync(path.join(dir, ".next", "BUILD_ID"), "x");
    expect(run("fingerprint").stdout).toBe(first);

    fs.writeFileSync(path.join(dir, "page.ts"), "export const page = 2;\n");
    const edited = run("fingerprint").stdout;
    expect(edited).not.toBe(first);

    fs.writeFileSync(path.join(dir, "new-file.ts"), "export {};\n");
    expect(run("fingerprint").stdout).not.toBe(edited);
  });

  it("build: skipped only for the build it stamped, with the same inputs", () => {
    const { dir, run } = checkout();
    const fingerprint = run("fingerprint").stdout;
    expect(run("build", fingerprint)).toEqual({ status: 1, stdout: expect.stringContaining("no production build") });

    fs.mkdirSync(path.join(dir, ".next"));
    fs.writeFileSync(path.join(dir, ".next", "BUILD_ID"), "build-1");
    expect(run("build", fingerprint).status).toBe(1);
    expect(run("record-build", fingerprint).status).toBe(0);
    expect(run("build", fingerprint)).toEqual({ status: 0, stdout: "nothing changed since the last build" });

    fs.writeFileSync(path.join(dir, "page.ts"), "export const page = 3;\n");
    expect(run("build", run("fingerprint").stdout).status).toBe(1);

    fs.writeFileSync(path.join(dir, ".next", "BUILD_ID"), "build-2");
    expect(run("build", fingerprint).stdout).toMatch(/replaced/);

    expect(run("forget-build").status).toBe(0);
    expect(fs.existsSync(path.join(dir, ".next", "playground-build.json"))).toBe(false);
  });
});
