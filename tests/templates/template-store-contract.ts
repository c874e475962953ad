import { expect, it } from "vitest";
import type { TemplateStore } from "@/lib/db/template-store";
import { templateVersionId } from "@/lib/db/template-store";
import type { Template } from "@/lib/domain/template-library";

const template = (id: string, overrides: Partial<Template> = {}): Template => ({
  id,
  name: `Template ${id}`,
  family: "qa",
  role: "reflector",
  strategy: null,
  builtIn: false,
  source: null,
  labels: {},
  createdAt: "2026-01-01T00:00:00.000Z",
  ...overrides,
});

/** The behaviour every {@link TemplateStore} adapter must have. */
export function templateStoreContract(make: () => TemplateStore): void {
  it("numbers versions 1, 2, … and never changes an earlier version's text", async () => {
    const store = make();
    await store.createTemplate(template("t1"));
    const first = await store.addVersion({ templateId: "t1", parentId: null, text: "Reflect on {scratchpad}", message: "first", builtIn: false });
    const second = await store.addVersion({ templateId: "t1", parentId: first.version.id, text: "Reflect harder on {scratchpad}", message: "second", builtIn: false });
    expect([first.version.number, second.version.number]).toEqual([1, 2]);
    expect(first.created && second.created).toBe(true);
    expect(second.version.parentId).toBe(first.version.id);
    expect(first.version.id).toBe(templateVersionId("t1", "Reflect on {scratchpad}"));
    // Changing a returned object changes nothing stored.
    first.version.text = "tampered";
    expect((await store.getVersion(first.version.id))?.text).toBe("Reflect on {scratchpad}");
    const versions = await store.listVersions("t1");
    expect(versions.map((v) => [v.number, v.text])).toEqual([
      [2, "Reflect harder on {scratchpad}"],
      [1, "Reflect on {scratchpad}"],
    ]);
  });

  it("saving a text the template has already returns that version and writes nothing", async () => {
    const store = make();
    await store.createTemplate(template("t2"));
    const a = await store.addVersion({ templateId: "t2", parentId: null, text: "same", message: "a", builtIn: false });
    const again = await store.addVersion({ templateId: "t2", parentId: a.version.id, text: "same", message: "b", builtIn: false });
    expect(again.created).toBe(false);
    expect(again.version).toEqual(a.version);
    expect(await store.listVersions("t2")).toHaveLength(1);
  });

  it("labels move between versions of their own template only", async () => {
    const store = make();
    await store.createTemplate(template("t3"));
    await store.createTemplate(template("t4"));
    const v1 = await store.addVersion({ templateId: "t3", parentId: null, text: "one", message: "", builtIn: false });
    const v2 = await store.addVersion({ templateId: "t3", parentId: v1.version.id, text: "two", message: "", builtIn: false });
    const other = await store.addVersion({ templateId: "t4", parentId: null, text: "other", message: "", builtIn: false });
    expect((await store.setLabel("t3", "baseline", v1.version.id)).labels).toEqual({ baseline: v1.version.id });
    expect((await store.setLabel("t3", "baseline", v2.version.id)).labels).toEqual({ baseline: v2.version.id });
    await expect(store.setLabel("t3", "baseline", other.version.id)).rejects.toThrow(/has no version/);
    expect((await store.getTemplate("t3"))?.labels).toEqual({ baseline: v2.version.id });
  });

  it("refuses duplicate template ids, unknown templates and unknown parents; filters lists", async () => {
    const store = make();
    await store.createTemplate(template("t5", { builtIn: true }));
    await store.createTemplate(template("t6", { family: "household", role: "actor" }));
    await expect(store.createTemplate(template("t5"))).rejects.toThrow(/exists already/);
    await expect(store.addVersion({ templateId: "nope", parentId: null, text: "x", message: "", builtIn: false })).rejects.toThrow(/No template nope/);
    await expect(store.addVersion({ templateId: "t5", parentId: "tv-0000000000000000", text: "x", message: "", builtIn: false })).rejects.toThrow(/parent/);
    expect((await store.listTemplates({ family: "household" })).map((t) => t.id)).toEqual(["t6"]);
    expect((await store.listTemplates({ role: "reflector" })).map((t) => t.id)).toEqual(["t5"]);
    expect((await store.listTemplates()).map((t) => t.id)).toEqual(["t5", "t6"]);
  });
}
