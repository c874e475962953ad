import { afterEach, describe, expect, it } from "vitest";
import type { RunEvent } from "@/lib/domain/events";
import { templateVersionId } from "@/lib/db/template-store";
import { qaActorTemplate, qaReflectorTemplate } from "@/lib/environments/qa/prompts";
import type { ServerContext } from "@/lib/server/app-context";
import { TemplateService } from "@/lib/server/template-service";
import { callsOf, demoContext, settled } from "./helpers";

let context: ServerContext | null = null;
afterEach(async () => {
  await context?.workers.stop();
  context = null;
});

const runStart = (events: readonly RunEvent[]) => events.find((event): event is Extract<RunEvent, { type: "run-start" }> => event.type === "run-start")!;

describe("runs and template versions", () => {
  it("seeds read-only built-ins with their sources, once", async () => {
    const setup = demoContext();
    context = setup.context;
    const list = await context.templates.list();
    const ids = list.map((item) => item.id);
    expect(ids).toEqual(expect.arrayContaining(["qa/react-actor", "qa/reflect", "qa/cot-actor", "qa/cot-reflect", "qa/cot-context-actor", "qa/cot-context-reflect", "household/react-actor", "household/reflect", "code/actor", "code/reflector", "qa/summarize-memory"]));
    const reflect = list.find((item) => item.id === "qa/reflect")!;
    expect(reflect).toMatchObject({ builtIn: true, family: "qa", role: "reflector", strategy: null, versionCount: 1 });
    expect(reflect.source).toMatch(/hotpotqa_runs\/prompts\.py/);
    expect(reflect.latestVersion).toMatchObject({ number: 1, builtIn: true, text: qaReflectorTemplate.text, id: templateVersionId("qa/reflect", qaReflectorTemplate.text) });
    expect(list.find((item) => item.id === "qa/cot-reflect")?.strategy).toBe("cot");
    // A second seeding (another process, a restart: a new service on the same store) adds nothing.
    const restarted = new TemplateService(context.templates.store);
    const again = await restarted.list();
    expect(again.map((item) => [item.id, item.versionCount])).toEqual(list.map((item) => [item.id, item.versionCount]));
  });

  it("a save never changes an earlier version; the same text returns the existing version", async () => {
    context = demoContext().context;
    const before = (await context.templates.detail("qa/reflect")).versions;
    const saved = await context.templates.saveVersion("qa/reflect", { text: `${qaReflectorTemplate.text}\nMARKER-V2`, message: "marker" });
    expect(saved).toMatchObject({ created: true, version: { number: 2, parentId: before[0]!.id, builtIn: false } });
    const after = (await context.templates.detail("qa/reflect")).versions;
    expect(after.map((v) => v.number)).toEqual([2, 1]);
    expect(after[1]).toEqual(before[0]);
    const same = await context.templates.saveVersion("qa/reflect", { text: `${qaReflectorTemplate.text}\nMARKER-V2`, message: "again" });
    expect(same).toEqual({ created: false, version: saved.version });
    // References: id, @v<n>, @label, bare id (latest).
    await context.templates.moveLabel("qa/reflect", "candidate", "qa/reflect@v2");
    for (const reference of [saved.version.id, "qa/reflect@v2", "qa/reflect@candidate", "qa/reflect", "qa/reflect@latest"]) {
      expect((await context.templates.resolve(reference)).version.id, reference).toBe(saved.version.id);
    }
    await expect(context.templates.resolve("qa/reflect@baseline")).rejects.toThrow(/no version "baseline".*candidate/);
    await expect(context.templates.moveLabel("qa/reflect", "latest", saved.version.id)).rejects.toThrow(/latest/);
  });

  it("a run records the versions it used and a recorded replay reproduces it with 0 live calls", async () => {
    const setup = demoContext();
    context = setup.context;
    const candidate = await context.templates.saveVersion("qa/reflect", { text: `${qaReflectorTemplate.text}\nMARKER-CANDIDATE`, message: "candidate" });
    await context.templates.moveLabel("qa/reflect", "candidate", candidate.version.id);
    const run = await context.service.createRun({
      environment: "qa",
      taskSet: "builtin",
      taskId: "qa-builtin-01",
      strategy: "reflexion",
      modelId: "demo",
      maxTrials: 3,
      templateVersions: { reflector: "qa/reflect@candidate" },
    });
    const events = await settled(context, run.id);
    const config = runStart(events).data.config;
    expect(config.templates.reflector).toEqual({ id: "qa/reflect", version: 2, text: candidate.version.text, versionId: candidate.version.id });
    expect(config.templates.actor.versionId).toBe(templateVersionId("qa/react-actor", qaActorTemplate.text));
    const reflections = callsOf(events).filter((call) => call.data.role === "reflector");
    expect(reflections.length).toBeGreaterThan(0);
    for (const call of reflections) expect(call.data.messages[0]!.content).toContain("MARKER-CANDIDATE");

    // Moving the label later changes nothing recorded; a recorded replay reuses every call.
    await context.templates.moveLabel("qa/reflect", "candidate", "qa/reflect@v1");
    const liveBefore = setup.calls();
    const fork = await context.service.fork(run.id, { atSeq: 1, replay: "recorded" });
    const replayed = await settled(context, run.id, fork.branchId);
    expect(setup.calls()).toBe(liveBefore);
    const branch = (await context.service.branches(run.id)).find((b) => b.id === fork.branchId)!;
    expect(branch).toMatchObject({ liveCalls: 0 });
    expect(branch.cachedCalls).toBe(callsOf(events).length);
    expect(callsOf(replayed).filter((call) => call.data.role === "reflector").map((call) => call.data.messages)).toEqual(reflections.map((call) => call.data.messages));
  });

  it("a mid-run prompt edit saves itself as a version, and a fork can switch to another version", async () => {
    context = demoContext().context;
    const run = await context.service.createRun({
      environment: "qa",
      taskSet: "builtin",
      taskId: "qa-builtin-01",
      strategy: "reflexion",
      modelId: "demo",
      maxTrials: 2,
      breakpoints: { afterEvaluation: true },
    });
    await settled(context, run.id);
    await context.service.edit(run.id, { kind: "prompt", role: "reflector", text: `${qaReflectorTemplate.text}\nEDITED-WHILE-PAUSED`, saveAsVersion: { message: "from a paused run" } });
    const events = (await context.service.events(run.id)).events;
    const edit = events.find((event): event is Extract<RunEvent, { type: "prompt-edit" }> => event.type === "prompt-edit")!;
    // The built-in stays read-only: the edit went into a new template whose v1's parent is the built-in version.
    expect((await context.templates.resolve("qa/reflect@latest")).version.number).toBe(1);
    const saved = await context.templates.resolve(edit.data.newTemplate.versionId!);
    expect(saved.template).toMatchObject({ builtIn: false, family: "qa", role: "reflector" });
    expect(saved.version).toMatchObject({ number: 1, message: "from a paused run", parentId: templateVersionId("qa/reflect", qaReflectorTemplate.text) });
    expect(edit.data.newTemplate).toMatchObject({ id: "qa/reflect", versionId: saved.version.id, text: saved.version.text });
    // A second save from the same run goes into that new template, as its v2.
    await context.service.edit(run.id, { kind: "prompt", role: "reflector", text: `${qaReflectorTemplate.text}\nEDITED-TWICE`, saveAsVersion: { message: "again" } });
    const edits = (await context.service.events(run.id)).events.filter((event): event is Extract<RunEvent, { type: "prompt-edit" }> => event.type === "prompt-edit");
    const second = await context.templates.resolve(edits[1]!.data.newTemplate.versionId!);
    expect(second.version).toMatchObject({ templateId: saved.template.id, number: 2, parentId: saved.version.id });
    expect(edit.data.oldTemplate.versionId).toBe(templateVersionId("qa/reflect", qaReflectorTemplate.text));

    // "Same checkpoint, template B": fork from run start naming a version; the edit carries that version's text and id.
    const fork = await context.service.fork(run.id, { atSeq: 1, replay: "recorded", edits: [{ kind: "prompt", role: "reflector", text: "ignored: the version's text is used", versionId: saved.version.id }] });
    const forkEvents = (await context.service.events(run.id, 0, fork.branchId)).events;
    const forkEdit = forkEvents.find((event): event is Extract<RunEvent, { type: "prompt-edit" }> => event.type === "prompt-edit" && event.branchId === fork.branchId);
    expect(forkEdit?.data.newTemplate).toMatchObject({ text: saved.version.text, versionId: saved.version.id });
    // Naming the version the branch already uses is no edit at all.
    const same = await context.service.fork(run.id, { atSeq: 1, replay: "recorded", edits: [{ kind: "prompt", role: "reflector", text: "x", versionId: "qa/reflect@v1" }] });
    expect((await context.service.events(run.id, 0, same.branchId)).events.filter((event) => event.type === "prompt-edit" && event.branchId === same.branchId)).toHaveLength(0);
    await expect(
      context.service.fork(run.id, { atSeq: 1, replay: "recorded", edits: [{ kind: "prompt", role: "reflector", text: "x", versionId: "qa/react-actor@v1" }] }),
    ).rejects.toThrow(/qa actor template; this edit needs a qa reflector template/);
  });

  it("refuses a version of another family or role for a run", async () => {
    context = demoContext().context;
    await expect(
      context.service.createRun({ environment: "qa", taskSet: "builtin", taskId: "qa-builtin-01", strategy: "reflexion", modelId: "demo", templateVersions: { reflector: "household/reflect" } }),
    ).rejects.toThrow(/household reflector template; this run needs a qa reflector template/);
    await expect(
      context.service.createRun({ environment: "qa", taskSet: "builtin", taskId: "qa-builtin-01", strategy: "reflexion", modelId: "demo", templateVersions: { actor: "qa/cot-actor" } }),
    ).rejects.toThrow(/strategy cot; this run uses reflexion/);
    expect(await context.service.listRuns()).toHaveLength(0);
  });
});
