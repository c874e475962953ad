import { describe, expect, it } from "vitest";
import { MemoryTemplateStore } from "@/lib/db/memory-templates";
import { SqliteTemplateStore } from "@/lib/db/sqlite-templates";
import { parseTemplateFile } from "@/lib/server/template-files";
import { MemoryRunStore } from "@/lib/db/memory-store";
import { createServerContext } from "@/lib/server/app-context";

/** A workbench over the given template store, with an empty run store behind it (export and import read only the library). */
function library(store: MemoryTemplateStore | SqliteTemplateStore = new MemoryTemplateStore()) {
  const context = createServerContext({ store: new MemoryRunStore(), templates: store, startWorkers: false, env: {} });
  return { templates: context.templates, workbench: context.templateWorkbench };
}

// Texts that a naive front-matter writer would damage: a leading ---, trailing newlines, YAML-looking lines, unicode.
const TRICKY = "---\nnot: front matter\n---\n  Reflect on {question} and {scratchpad} — carefully: #1\n\n";

describe("template files", () => {
  it("export → import into a fresh store round-trips every version, id, message, parent and label", async () => {
    const source = library();
    const created = await source.templates.create({ name: "My reflector", family: "qa", role: "reflector", strategy: null, text: "v1 {question} {scratchpad}", message: "first" });
    const v2 = await source.templates.saveVersion(created.template.id, { text: TRICKY, message: "second: with 'quotes' and # hashes" });
    await source.templates.moveLabel(created.template.id, "baseline", created.version.id);
    await source.templates.moveLabel(created.template.id, "candidate", v2.version.id);
    await source.templates.saveVersion("qa/reflect", { text: "edited built-in {question} {scratchpad} {feedback}", message: "tweak" });

    const bundle = await source.workbench.exportFiles([created.template.id, "qa/reflect"]);
    expect(bundle.files.map((file) => file.path)).toEqual([`qa/${created.template.id}/v001.md`, `qa/${created.template.id}/v002.md`, "qa/qa__reflect/v001.md", "qa/qa__reflect/v002.md"]);
    const second = bundle.files[1]!;
    expect(second.content.startsWith("---\n")).toBe(true);
    expect(parseTemplateFile(second.content)).toMatchObject({ ok: true, text: TRICKY, front: { labels: ["candidate"], version: v2.version.id, number: 2 } });

    const target = library(new SqliteTemplateStore(":memory:"));
    const result = await target.workbench.importFiles(bundle);
    // The built-in v1 is seeded in every clone already: skipped as the same text; the rest imported.
    expect(result.imported.map((entry) => entry.path).sort()).toEqual([`qa/${created.template.id}/v001.md`, `qa/${created.template.id}/v002.md`, "qa/qa__reflect/v002.md"].sort());
    expect(result.skipped).toEqual([{ path: "qa/qa__reflect/v001.md", reason: expect.stringMatching(/here already/), versionId: expect.stringMatching(/^tv-/) }]);
    const original = await source.templates.detail(created.template.id);
    const copy = await target.templates.detail(created.template.id);
    expect(copy.versions).toEqual(original.versions);
    expect(copy.template).toMatchObject({ name: "My reflector", family: "qa", role: "reflector", labels: original.template.labels });
    expect((await target.templates.resolve("qa/reflect@v2")).version.text).toBe("edited built-in {question} {scratchpad} {feedback}");

    // Idempotent: importing the same files again imports nothing and changes nothing.
    const again = await target.workbench.importFiles(bundle);
    expect(again.imported).toEqual([]);
    expect(again.skipped).toHaveLength(4);
    expect((await target.templates.detail(created.template.id)).versions).toEqual(original.versions);
  });

  it("skips unreadable files with a reason and keeps importing the rest; a hand-edited text becomes a new version", async () => {
    const target = library();
    const good = (await library().workbench.exportFiles(["qa/reflect"])).files[0]!;
    const edited = { path: "qa/qa__reflect/v009.md", content: good.content.replace("Reflection:", "Reflection (edited in git):") };
    const result = await target.workbench.importFiles({
      files: [
        { path: "no-front-matter.md", content: "just text" },
        { path: "bad-yaml.md", content: "---\nfamily: [qa\n---\ntext\n" },
        { path: "wrong-role.md", content: "---\ntemplate: x\nname: x\nfamily: qa\nrole: judge\n---\ntext\n" },
        { path: "clash.md", content: "---\ntemplate: qa/reflect\nname: x\nfamily: household\nrole: reflector\n---\ntext\n" },
        edited,
      ],
    });
    expect(result.skipped.map((entry) => [entry.path, entry.reason]).sort((a, b) => a[0]!.localeCompare(b[0]!))).toEqual([
      ["bad-yaml.md", expect.stringMatching(/not valid YAML/)],
      ["clash.md", expect.stringMatching(/exists here as a qa reflector template/)],
      ["no-front-matter.md", expect.stringMatching(/no front matter/)],
      ["wrong-role.md", expect.stringMatching(/role/)],
    ]);
    expect(result.imported).toHaveLength(1);
    const latest = await target.templates.resolve("qa/reflect@latest");
    expect(latest.version).toMatchObject({ number: 2, builtIn: false });
    expect(latest.version.text).toContain("Reflection (edited in git):");
  });
});
