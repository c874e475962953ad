import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * Decision 0028: every npm script runs on the project's own Node (the `node` package, Node 24 LTS),
 * whatever Node the machine has; native addons are built for it; setup.sh is idempotent.
 */

const root = path.resolve(import.meta.dirname, "../..");
const nodePackage = JSON.parse(fs.readFileSync(path.join(root, "node_modules/node/package.json"), "utf8")) as { version: string };

describe("the project's Node runtime (decision 0028)", () => {
  it("the tests run on the node package's Node, a current LTS line (≥ 22)", () => {
    const [major] = process.versions.node.split(".").map(Number);
    expect(major).toBeGreaterThanOrEqual(22);
    expect(process.versions.node).toBe(nodePackage.version);
    expect(fs.realpathSync(process.execPath)).toBe(fs.realpathSync(path.join(root, "node_modules/.bin/node")));
  });

  it("package.json asks for Node ≥ 22.12 and pins the node package to the runtime in use", () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as { engines: { node: string }; dependencies: Record<string, string> };
    expect(manifest.engines.node).toBe(">=22.12");
    expect(manifest.dependencies.node).toBe(nodePackage.version);
  });

  it("the embedded database is node:sqlite: it opens, writes and closes a database, the process exits cleanly, and no native SQLite addon is installed", () => {
    // In a child, so an abort at exit (a statement finalised after teardown, as nodejs/node#65446 did to native addons) would show as a failure.
    const script = "const { DatabaseSync } = require('node:sqlite'); const db = new DatabaseSync(':memory:'); db.exec('create table t (x)'); for (let i = 0; i < 200; i++) db.prepare('insert into t values (?)').run(i); console.log(db.prepare('select count(*) n from t').get().n); db.close();";
    const result = spawnSync(process.execPath, ["--expose-gc", "-e", `${script} global.gc();`], { cwd: root, encoding: "utf8" });
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    expect(result.stdout.trim()).toBe("200");
    expect(fs.existsSync(path.join(root, "node_modules/better-sqlite3"))).toBe(false);
  });

  it("npm scripts see the same Node (node_modules/.bin first on PATH)", () => {
    const version = execFileSync("npm", ["exec", "--", "node", "-p", "process.versions.node"], { cwd: root, encoding: "utf8" }).trim();
    expect(version).toBe(nodePackage.version);
  });

  it("setup.sh on a set-up checkout does nothing: packages current, no npm ci, no rebuild", () => {
    const state = spawnSync("node", ["scripts/playground-state.mjs", "install"], { cwd: root, encoding: "utf8" });
    expect(state.stdout.trim()).toMatch(/node_modules matches package-lock\.json/);
    expect(state.status).toBe(0);
    const setup = spawnSync("bash", ["scripts/setup.sh"], { cwd: root, encoding: "utf8", timeout: 120_000 });
    expect(setup.status).toBe(0);
    expect(setup.stdout).toContain("==> npm packages are current");
    expect(setup.stdout).not.toMatch(/==> npm (ci|rebuild)/);
  }, 150_000);
});
