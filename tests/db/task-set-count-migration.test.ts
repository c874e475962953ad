import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterAll, describe, expect, it } from "vitest";
import { MIGRATIONS_FOLDER, SqliteRunStore } from "@/lib/db/sqlite-store";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rp-task-count-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("the task_count migration (SQLite)", () => {
  it("counts the tasks of sets stored before the column, so listing them reads no task", async () => {
    // A database as the release before the column left it: every migration up to the one that adds it.
    const older = path.join(dir, "migrations");
    fs.cpSync(MIGRATIONS_FOLDER, older, { recursive: true });
    const journalPath = path.join(older, "meta/_journal.json");
    const journal = JSON.parse(fs.readFileSync(journalPath, "utf8")) as { entries: Array<{ tag: string }> };
    const at = journal.entries.findIndex((entry) => entry.tag === "0010_task_set_count");
    expect(at).toBeGreaterThan(0);
    journal.entries = journal.entries.slice(0, at);
    fs.writeFileSync(journalPath, JSON.stringify(journal));
    const file = path.join(dir, "old.sqlite");
    await new SqliteRunStore(file, { migrationsFolder: older }).close();
    const raw = new DatabaseSync(file);
    raw.prepare("INSERT INTO task_sets (id, name, environment, created_at, tasks, problems, content_hash) VALUES (?, ?, ?, ?, ?, ?, ?)").run("old", "old.json", "qa", "2026-01-01T00:00:00.000Z", JSON.stringify([{ id: "a" }, { id: "b" }, { id: "c" }]), "[]", null);
    raw.close();

    const store = new SqliteRunStore(file);
    expect(await store.listTaskSets()).toEqual([{ id: "old", name: "old.json", environment: "qa", createdAt: "2026-01-01T00:00:00.000Z", taskCount: 3 }]);
    await store.close();
  });
});
