import { describe, expect, it } from "vitest";
import { MemoryTemplateStore } from "@/lib/db/memory-templates";
import { SqliteTemplateStore } from "@/lib/db/sqlite-templates";
import { templateStoreContract } from "./template-store-contract";

describe("MemoryTemplateStore", () => templateStoreContract(() => new MemoryTemplateStore()));
describe("SqliteTemplateStore", () => {
  templateStoreContract(() => new SqliteTemplateStore(":memory:"));

  it("the database itself refuses to change or delete a version", async () => {
    const store = new SqliteTemplateStore(":memory:");
    await store.createTemplate({ id: "t", name: "t", family: "qa", role: "actor", strategy: null, builtIn: false, source: null, labels: {}, createdAt: "2026-01-01T00:00:00.000Z" });
    const { version } = await store.addVersion({ templateId: "t", parentId: null, text: "original", message: "", builtIn: false });
    expect(() => store.execForTests(`UPDATE template_versions SET text = 'changed' WHERE id = '${version.id}'`)).toThrow(/immutable/);
    expect(() => store.execForTests(`DELETE FROM template_versions WHERE id = '${version.id}'`)).toThrow(/immutable/);
    expect((await store.getVersion(version.id))?.text).toBe("original");
    store.close();
  });
});
