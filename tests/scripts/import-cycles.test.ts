import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { findImportCycles, formatImportCycles, roomOf } from "@/scripts/import-cycles-core";

const fixtures = resolve(__dirname, "../fixtures/import-cycles");
const tsConfig = resolve(__dirname, "../../tsconfig.json");

describe("the import-cycle check of npm run lint", () => {
  it("finds a cycle between two files and names both", async () => {
    const cycles = await findImportCycles(["lib"], { baseDir: resolve(fixtures, "files"), tsConfig });
    expect(cycles.files).toEqual([["lib/alpha/a.ts", "lib/alpha/b.ts"]]);
    expect(cycles.rooms).toEqual([]);
    expect(formatImportCycles(cycles)).toContain("file cycle: lib/alpha/a.ts -> lib/alpha/b.ts -> lib/alpha/a.ts");
  });

  it("finds two rooms importing each other even when no file is on a cycle, with one import per direction", async () => {
    const cycles = await findImportCycles(["lib", "components"], { baseDir: resolve(fixtures, "rooms"), tsConfig });
    expect(cycles.files).toEqual([]);
    expect(cycles.rooms).toEqual([["lib/one", "lib/two"]]);
    expect(cycles.roomEdges[0]).toEqual(["lib/one/x.ts -> lib/two/y.ts", "lib/two/y.ts -> lib/one/z.ts"]);
    expect(formatImportCycles(cycles)).toMatch(/room cycle: lib\/one <-> lib\/two\n {2}e\.g\. lib\/one\/x\.ts/);
  });

  it("passes a tree whose imports point one way", async () => {
    const cycles = await findImportCycles(["lib"], { baseDir: resolve(fixtures, "clean"), tsConfig });
    expect(cycles).toEqual({ files: [], rooms: [], roomEdges: [] });
    expect(formatImportCycles(cycles)).toBe("No import cycle.");
  });

  it("groups files into the rooms of DESIGN.md §2", () => {
    expect(roomOf("lib/db/pg/schema.ts")).toBe("lib/db");
    expect(roomOf("lib/utils.ts")).toBe("lib");
    expect(roomOf("components/run/steer-panel.tsx")).toBe("components");
    expect(roomOf("app/api/runs/route.ts")).toBe("app");
  });

  it("runs as part of npm run lint", () => {
    const scripts = (JSON.parse(readFileSync(resolve(__dirname, "../../package.json"), "utf8")) as { scripts: Record<string, string> }).scripts;
    expect(scripts.lint).toContain("npm run lint:cycles");
    expect(scripts["lint:cycles"]).toBe("tsx scripts/import-cycles.ts");
  });
});
