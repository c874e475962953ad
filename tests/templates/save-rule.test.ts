import { describe, expect, it } from "vitest";
import { MemoryTemplateStore } from "@/lib/db/memory-templates";
import { templateVersionId } from "@/lib/db/template-store";
import { qaReflectorTemplate } from "@/lib/environments/qa/prompts";
import { TemplateService } from "@/lib/server/template-service";

const edited = qaReflectorTemplate.text.replace("Reflection:", "Name the failing step and the next action.\nReflection:");

describe("saving an edit: one rule for every door (TemplateService.saveEdit)", () => {
  it("onto a built-in creates a new template whose first version's parent is the built-in version; the built-in gains nothing", async () => {
    const service = new TemplateService(new MemoryTemplateStore());
    const builtIn = templateVersionId("qa/reflect", qaReflectorTemplate.text);
    const saved = await service.saveEdit("qa/reflect", { text: edited, message: "name the step" });
    expect(saved.newTemplate).toBe(true);
    expect(saved.created).toBe(true);
    expect(saved.template).toMatchObject({ builtIn: false, family: "qa", role: "reflector", strategy: null });
    expect(saved.template.id).toMatch(/^tpl-[0-9a-f]{12}$/);
    expect(saved.template.name).toMatch(/\(edited\)$/);
    expect(saved.version).toMatchObject({ number: 1, parentId: builtIn, builtIn: false, message: "name the step", text: edited });
    const { versions } = await service.detail("qa/reflect");
    expect(versions.map((version) => version.id)).toEqual([builtIn]);
  });

  it("two default-named edits of one built-in get distinct names", async () => {
    const service = new TemplateService(new MemoryTemplateStore());
    const first = await service.saveEdit("qa/reflect", { text: edited });
    const second = await service.saveEdit("qa/reflect", { text: `${edited}\nBe brief.` });
    const third = await service.saveEdit("qa/reflect", { text: `${edited}\nBe briefer.` });
    expect([first, second, third].map((saved) => saved.template.name)).toEqual([
      `${first.template.name}`,
      `${first.template.name} 2`,
      `${first.template.name} 3`,
    ]);
    expect(first.template.name).toMatch(/\(edited\)$/);
  });

  it("takes the new template's name, and refuses a parent that is not a version of the built-in", async () => {
    const service = new TemplateService(new MemoryTemplateStore());
    const named = await service.saveEdit("qa/reflect", { text: edited, message: "", name: "Name the step" });
    expect(named.template.name).toBe("Name the step");
    await expect(service.saveEdit("qa/reflect", { text: `${edited}!`, parentId: named.version.id })).rejects.toThrow(/not a version of template qa\/reflect/);
  });

  it("onto a template made here adds its next version (parent: the newest), and the same text again is not a new version", async () => {
    const service = new TemplateService(new MemoryTemplateStore());
    const first = await service.saveEdit("qa/reflect", { text: edited });
    const second = await service.saveEdit(first.template.id, { text: `${edited}\nBe brief.`, message: "brief" });
    expect(second).toMatchObject({ newTemplate: false, created: true, template: { id: first.template.id }, version: { number: 2, parentId: first.version.id } });
    const again = await service.saveEdit(first.template.id, { text: `${edited}\nBe brief.` });
    expect(again).toMatchObject({ created: false, version: { id: second.version.id } });
  });

  it("create() records a parent in another template (the UI's 'Save as new template')", async () => {
    const service = new TemplateService(new MemoryTemplateStore());
    const builtIn = templateVersionId("qa/reflect", qaReflectorTemplate.text);
    const created = await service.create({ name: "Mine", family: "qa", role: "reflector", strategy: "reflexion", text: edited, parentId: builtIn });
    expect(created.version.parentId).toBe(builtIn);
  });
});

describe("templateLineage", () => {
  it("lists every version with its parent (across templates for the first), labels, and no score until one is measured", async () => {
    const { templateLineage } = await import("@/lib/server/template-lineage");
    const service = new TemplateService(new MemoryTemplateStore());
    const first = await service.saveEdit("qa/reflect", { text: edited, message: "first" });
    const second = await service.saveEdit(first.template.id, { text: `${edited}\nTwo.`, message: "second" });
    const third = await service.saveEdit(first.template.id, { text: `${edited}\nThree.`, message: "third", parentId: first.version.id });
    await service.moveLabel(first.template.id, "accepted", second.version.id);
    const lineage = await templateLineage(service, first.template.id);
    expect(lineage.templateId).toBe(first.template.id);
    expect(lineage.nodes.map((node) => [node.number, node.parentId, node.labels, node.score])).toEqual([
      [3, first.version.id, [], null],
      [2, first.version.id, ["accepted"], null],
      [1, templateVersionId("qa/reflect", qaReflectorTemplate.text), [], null],
    ]);
    expect(third.version.number).toBe(3);
  });
});
