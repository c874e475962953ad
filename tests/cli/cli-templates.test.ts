import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { RunEvent } from "@/lib/domain/events";
import { templateVersionId } from "@/lib/db/template-store";
import { qaReflectorTemplate } from "@/lib/environments/qa/prompts";
import { parseJsonLines, runCli } from "./run-cli";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cli-templates-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("cli templates", { tags: ["slow"] }, () => {
  it("save → list → show → run --template → export → import into another clone", async () => {
    const env = { REFLEXION_DB_PATH: path.join(dir, "one.sqlite") };
    const file = path.join(dir, "candidate.txt");
    fs.writeFileSync(file, `${qaReflectorTemplate.text.replace("Reflection:", "Name the exact search that misled you.\nReflection:")}`);

    const saved = await runCli(["templates", "save", "--env", "qa", "--role", "reflector", "--strategy", "reflexion", "--file", file, "--message", "name the misleading search", "--label", "candidate"], env);
    expect(saved.code, saved.stderr).toBe(0);
    const versionId = saved.stdout.trim();
    expect(versionId).toMatch(/^tv-[0-9a-f]{16}$/);
    // The built-in is read-only: the text became v1 of a new template, edited from the built-in's version.
    const createdId = /created the template (tpl-[0-9a-f]{12}) "[^"]+ \(edited\)"/.exec(saved.stderr)?.[1];
    expect(createdId, saved.stderr).toBeDefined();
    const builtInVersion = templateVersionId("qa/reflect", qaReflectorTemplate.text);
    expect(saved.stderr).toContain(`as v1, edited from ${builtInVersion}`);

    const listed = await runCli(["templates", "list", "--env", "qa", "--json"], env);
    expect(listed.code, listed.stderr).toBe(0);
    const items = listed.stdout.trim().split("\n").map((line) => JSON.parse(line) as { id: string; versionCount: number; labels: Record<string, string>; builtIn: boolean; latestVersion: { parentId: string | null }; family: string });
    expect(items.find((item) => item.id === "qa/reflect")).toMatchObject({ versionCount: 1, labels: {}, builtIn: true });
    expect(items.find((item) => item.id === createdId)).toMatchObject({ versionCount: 1, labels: { candidate: versionId }, builtIn: false, latestVersion: { parentId: builtInVersion } });
    expect(items.every((item) => item.family === "qa")).toBe(true);
    const table = await runCli(["templates", "list", "--env", "qa"], env);
    const rows = table.stdout.trim().split("\n").map((line) => line.split("\t"));
    expect(rows.every((row) => row.length === 7)).toBe(true);
    expect(rows.find((row) => row[0] === "qa/reflect")?.slice(4, 6)).toEqual(["built-in", "-"]);
    expect(rows.find((row) => row[0] === createdId)?.slice(4, 6)).toEqual(["ours", `candidate=${versionId}`]);

    const shown = await runCli(["templates", "show", `${createdId}@candidate`], env);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toBe(`${fs.readFileSync(file, "utf8")}\n`);

    const run = await runCli(["run", "--env", "qa", "--tasks", "builtin", "--task-id", "qa-builtin-01", "--trials", "2", "--template", `reflector=${createdId}@candidate`, "--json"], env);
    expect(run.code, run.stderr).toBe(0);
    const events = parseJsonLines(run.stdout);
    const start = events.find((event): event is Extract<RunEvent, { type: "run-start" }> => event.type === "run-start")!;
    expect(start.data.config.templates.reflector).toMatchObject({ id: createdId, version: 1, versionId });
    const reflection = events.find((event) => event.type === "model-call-end" && event.data.role === "reflector");
    expect(reflection?.type === "model-call-end" && reflection.data.messages[0]!.content).toContain("Name the exact search that misled you.");

    const exported = path.join(dir, "exported");
    const exportRun = await runCli(["templates", "export", exported, "--ids", createdId!], env);
    expect(exportRun.code, exportRun.stderr).toBe(0);
    expect(fs.readdirSync(path.join(exported, "qa", createdId!))).toEqual(["v001.md"]);
    expect(fs.readFileSync(path.join(exported, "qa", createdId!, "v001.md"), "utf8")).toMatch(new RegExp(`^---\ntemplate: ${createdId}\n[\\s\\S]*labels:\n {2}- candidate\n---\n`));

    const other = { REFLEXION_DB_PATH: path.join(dir, "two.sqlite") };
    const imported = await runCli(["templates", "import", exported, "--json"], other);
    expect(imported.code, imported.stderr).toBe(0);
    const result = JSON.parse(imported.stdout) as { imported: Array<{ versionId: string }>; skipped: Array<{ path: string }> };
    expect(result.imported.map((entry) => entry.versionId)).toEqual([versionId]);
    expect(result.skipped).toEqual([]);
    const there = await runCli(["templates", "show", versionId], other);
    expect(there.stdout).toBe(shown.stdout);
    // The other clone has the same built-in: the imported version keeps its parent there.
    const lineage = await runCli(["templates", "show", versionId, "--json"], other);
    expect((JSON.parse(lineage.stdout) as { version: { parentId: string } }).version.parentId).toBe(builtInVersion);
  }, 60_000);
});
