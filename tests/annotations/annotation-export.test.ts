import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { decodeBundle } from "@/lib/bundles/codec";
import { MemoryTemplateStore } from "@/lib/db/memory-templates";
import type { Annotation } from "@/lib/domain/annotations";
import type { RunEvent } from "@/lib/domain/events";
import { createServerContext, type ServerContext } from "@/lib/server/app-context";
import { countingDemo, finishedRun } from "../bundles/helpers";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rp-annotation-export-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const open: ServerContext[] = [];
afterEach(async () => {
  for (const context of open.splice(0)) await context.close();
});

/** A context on its own SQLite database file (runs, bundles and the annotation log in one file). */
function fileContext(name: string): ServerContext {
  const context = createServerContext({ env: { REFLEXION_DB_PATH: path.join(dir, `${name}-${open.length}.sqlite`) }, model: countingDemo().port, templates: new MemoryTemplateStore(), startWorkers: true, workers: { concurrency: 2, pollMs: 20 } });
  open.push(context);
  return context;
}

const eventOf = (events: RunEvent[], type: RunEvent["type"]) => {
  const found = events.find((event) => event.type === type);
  if (!found) throw new Error(`no ${type}`);
  return found;
};
const at = (branchId: string, eventId: string) => ({ branchId, eventId, kind: "action" as const, trial: null, step: null, seq: null });

/** A finished demo QA run with a thread (note, reply, an edit, a deleted note) on its action, a note on the run and one on a reflection's memory item. */
async function annotatedRun(context: ServerContext) {
  const run = await finishedRun(context, "qa");
  const events = (await context.service.events(run.id)).events;
  const action = eventOf(events, "step-action");
  const thought = eventOf(events, "step-thought");
  const reflection = eventOf(events, "reflection-end");
  const note = await context.annotations.create(run.id, { target: at(run.rootBranchId, action.id), author: "ada", content: { text: "Searched **the wrong** entity", tags: ["loop", "wrong-entity"], score: { scale: "quality", value: 2 } } });
  const reply = await context.annotations.create(run.id, { target: at(run.rootBranchId, action.id), parentId: note.id, author: "grace", content: { text: "the title was ambiguous", tags: [], score: null } });
  await context.annotations.change(run.id, note.id, { author: "grace", content: { text: "Searched the wrong entity (twice)", tags: ["loop"], score: { scale: "quality", value: 1 } } });
  const gone = await context.annotations.create(run.id, { target: at(run.rootBranchId, thought.id), author: "ada", content: { text: "typo", tags: [], score: null } });
  await context.annotations.change(run.id, gone.id, { author: "ada", delete: true });
  const onRun = await context.annotations.create(run.id, { target: { ...at(run.rootBranchId, eventOf(events, "run-start").id), kind: "run" }, author: "ada", content: { text: "good demo", tags: [], score: { scale: "helpfulness", value: 5 } } });
  const onMemory = await context.annotations.create(run.id, { target: { ...at(run.rootBranchId, reflection.id), kind: "memory-item" }, author: "ada", content: { text: "this fixed trial 2", tags: ["fix"], score: { scale: "correct", value: 1 } } });
  return { run, events, action, thought, reflection, ids: { note: note.id, reply: reply.id, gone: gone.id, onRun: onRun.id, onMemory: onMemory.id } };
}

/** What `annotations` shows, without nothing that may differ between databases. */
const shown = (annotations: Annotation[]) => annotations.map(({ id, target, parentId, author, content, deleted, history, createdAt, updatedAt, updatedBy }) => ({ id, target, parentId, author, content, deleted, history, createdAt, updatedAt, updatedBy }));

describe("annotations in bundles", () => {
  it("export → import into a fresh database lists the same notes (text, tags, score, author, thread, edits, deletes); importing again adds nothing", async () => {
    const source = fileContext("source");
    const { run } = await annotatedRun(source);
    const before = await source.annotations.list(run.id);
    const download = await source.bundles.exportRun(run.id);
    const file = await decodeBundle(download.bytes, {});
    expect(file.content.runs[0]!.annotations?.map((event) => event.type)).toEqual(["annotation-add", "annotation-add", "annotation-edit", "annotation-add", "annotation-delete", "annotation-add", "annotation-add"]);

    const target = fileContext("target");
    expect(await target.annotations.store.listEvents()).toEqual([]);
    const first = await target.bundles.importBundle(download.bytes, download.fileName);
    expect(first.notes).toContain("7 annotation events (notes, edits, deletions) added from the bundle.");
    const after = await target.annotations.list(run.id);
    expect(shown(after)).toEqual(shown(before));
    expect(after.find((a) => a.parentId !== null)).toMatchObject({ author: "grace", content: { text: "the title was ambiguous" } });
    expect(after.find((a) => a.history.length > 0)).toMatchObject({ content: { text: "Searched the wrong entity (twice)" }, history: [{ content: { text: "Searched **the wrong** entity", tags: ["loop", "wrong-entity"] }, replacedBy: "grace" }] });
    expect(after.filter((a) => a.deleted).map((a) => a.updatedBy)).toEqual(["ada"]);

    const again = await target.bundles.importBundle(download.bytes, "again.reflexion.json.gz");
    expect(again.notes.some((note) => note.includes("annotation event"))).toBe(false);
    expect((await target.annotations.store.listForRun(run.id)).length).toBe(7);
  }, 60_000);

  it("a newer bundle of a run kept as it is here brings the notes that have a node here, and says which were left out", async () => {
    const source = fileContext("newer-source");
    const run = await finishedRun(source, "qa");
    const first = await source.bundles.exportRun(run.id);
    const target = fileContext("newer-target");
    await target.bundles.importBundle(first.bytes, first.fileName);

    // At the source: a fork with a step of its own, a note on that step, and a note on the shared prefix.
    const events = (await source.service.events(run.id)).events;
    const checkpoint = events.find((event) => event.type === "checkpoint" && event.seq > eventOf(events, "reflection-end").seq)!;
    const reflection = eventOf(events, "reflection-end");
    const { branchId } = await source.service.fork(run.id, { atSeq: checkpoint.seq, replay: "recorded", edits: [{ kind: "reflection", reflectionEventId: reflection.id, text: "Answer with the town only." }] });
    await source.workers.untilSettled(branchId);
    const forkOwn = (await source.service.events(run.id, 0, branchId)).events.find((event) => event.branchId === branchId && event.type === "step-action")!;
    await source.annotations.create(run.id, { target: at(branchId, forkOwn.id), author: "ada", content: { text: "fork-only note", tags: ["forktag"], score: null } });
    await source.annotations.create(run.id, { target: at(run.rootBranchId, eventOf(events, "step-action").id), author: "ada", content: { text: "prefix note", tags: [], score: null } });

    const newer = await source.bundles.exportRun(run.id);
    const outcome = await target.bundles.importBundle(newer.bytes, newer.fileName);
    expect(outcome.notes).toContain("1 annotation event (notes, edits, deletions) added from the bundle.");
    expect(outcome.notes.some((note) => note.startsWith(`1 note was left out: it is on branches of run ${run.id}`))).toBe(true);
    const here = await target.annotations.list(run.id);
    expect(here.map((note) => note.content.text)).toEqual(["prefix note"]);
    expect((await target.annotations.store.listForRun(run.id)).map((event) => event.type)).toEqual(["annotation-add"]);
  }, 90_000);

  it("a run without annotations is bundled without the field (its bytes and hash as before annotations existed)", async () => {
    const source = fileContext("plain");
    const run = await finishedRun(source, "qa");
    const file = await decodeBundle((await source.bundles.exportRun(run.id)).bytes, {});
    expect("annotations" in file.content.runs[0]!).toBe(false);
  }, 60_000);
});

/** The OTLP JSON shape this test reads: spans with their events and attributes. */
interface JsonAttribute {
  key: string;
  value: { stringValue?: string; boolValue?: boolean; intValue?: number | string; arrayValue?: { values: Array<{ stringValue?: string }> } };
}
interface JsonSpan {
  name: string;
  spanId: string;
  attributes: JsonAttribute[];
  events?: Array<{ name: string; attributes: JsonAttribute[] }>;
}
const valueOf = (attributes: JsonAttribute[], key: string) => {
  const value = attributes.find((attribute) => attribute.key === key)?.value;
  if (!value) return undefined;
  if (value.arrayValue) return value.arrayValue.values.map((item) => item.stringValue);
  return value.stringValue ?? value.boolValue ?? (value.intValue === undefined ? undefined : Number(value.intValue));
};

describe("annotations in the OTLP export", () => {
  it("each annotation is an `annotation` span event on its node's span, or on the AGENT span when the node has none", async () => {
    const context = fileContext("otlp");
    const { run, ids } = await annotatedRun(context);
    const lines = (await context.otlp.jsonLines(run.id)).trim().split("\n");
    expect(lines).toHaveLength(1);
    const request = JSON.parse(lines[0]!) as { resourceSpans: Array<{ scopeSpans: Array<{ spans: JsonSpan[] }> }> };
    const spans = request.resourceSpans.flatMap((resource) => resource.scopeSpans.flatMap((scope) => scope.spans));
    const carriers = spans.flatMap((span) => (span.events ?? []).filter((event) => event.name === "annotation").map((event) => ({ span: span.name, id: valueOf(event.attributes, "reflexion.annotation.id"), attributes: event.attributes })));
    const spanOf = (id: string) => carriers.find((carrier) => carrier.id === id)?.span;
    expect(carriers).toHaveLength(5);
    expect(spanOf(ids.note)).toMatch(/^execute_tool /u);
    expect(spanOf(ids.reply)).toMatch(/^execute_tool /u);
    expect(spanOf(ids.gone)).toMatch(/^chat demo/u);
    expect(spanOf(ids.onRun)).toMatch(/^invoke_agent /u);
    expect(spanOf(ids.onMemory)).toMatch(/^chat demo/u);

    const note = carriers.find((carrier) => carrier.id === ids.note)!.attributes;
    expect(valueOf(note, "reflexion.annotation.author")).toBe("ada");
    expect(valueOf(note, "reflexion.annotation.text")).toBe("Searched the wrong entity (twice)");
    expect(valueOf(note, "reflexion.annotation.tags")).toEqual(["loop"]);
    expect(valueOf(note, "reflexion.annotation.score.scale")).toBe("quality");
    expect(valueOf(note, "reflexion.annotation.score.value")).toBe(1);
    expect(valueOf(note, "reflexion.annotation.deleted")).toBe(false);
    expect(valueOf(note, "reflexion.annotation.edits")).toBe(1);
    const reply = carriers.find((carrier) => carrier.id === ids.reply)!.attributes;
    expect(valueOf(reply, "reflexion.annotation.parent_id")).toBe(ids.note);
    expect(valueOf(carriers.find((carrier) => carrier.id === ids.gone)!.attributes, "reflexion.annotation.deleted")).toBe(true);
  }, 60_000);

  it("a note on a fork's shared prefix is exported once, on the parent's trace", async () => {
    const context = fileContext("otlp-fork");
    const { run, ids } = await annotatedRun(context);
    const { branchId } = await context.service.fork(run.id, { atSeq: 1, replay: "recorded" });
    await context.workers.untilSettled(branchId);
    const lines = (await context.otlp.jsonLines(run.id)).trim().split("\n");
    expect(lines).toHaveLength(2);
    const counts = lines.map((line) => (line.match(/"name":"annotation"/gu) ?? []).length);
    expect(counts).toEqual([5, 0]);
    expect(lines[0]).toContain(ids.note);
  }, 60_000);
});
