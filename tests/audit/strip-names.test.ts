import { PassThrough } from "node:stream";
import { gunzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { runAs } from "@/lib/actors/actor-context";
import { decodeBundle } from "@/lib/bundles/codec";
import type { Actor } from "@/lib/domain/actor";
import type { RunEvent } from "@/lib/domain/events";
import type { ServerContext } from "@/lib/server/app-context";
import { finishedRun, sqliteContext } from "../bundles/helpers";

/**
 * Names in exports: `keep` carries who made each event and note as recorded; `strip` leaves no
 * person's name or account id in the file — each person is `person N`, the same N throughout.
 */
const zelda: Actor = { kind: "person", id: "acct-zelda-0042", name: "zelda-walker", userId: "acct-zelda-0042" };
const zeldaToken: Actor = { kind: "token", id: "tok-zelda-ci-77", name: "zelda-walker (token ci)", userId: "acct-zelda-0042" };
const yusuf: Actor = { kind: "person", id: "acct-yusuf-0099", name: "yusuf-ortega", userId: "acct-yusuf-0099" };
const REAL = ["zelda-walker", "acct-zelda-0042", "tok-zelda-ci-77", "yusuf-ortega", "acct-yusuf-0099"];

const open: ServerContext[] = [];
afterEach(async () => {
  for (const context of open.splice(0)) {
    await context.workers.stop();
    await context.store.close();
  }
});
function context(): ServerContext {
  const made = sqliteContext().context;
  open.push(made);
  return made;
}

/** A run by zelda, forked with an edit through her token and again by yusuf, with a note from each. */
async function runWithPeople(source: ServerContext) {
  const run = await runAs(zelda, () => finishedRun(source, "qa"));
  const events = (await source.service.events(run.id)).events;
  const reflection = events.find((event) => event.type === "reflection-end")!;
  const checkpoint = events.find((event) => event.type === "checkpoint" && event.seq > reflection.seq)!;
  const fork = (actor: Actor, text: string) =>
    runAs(actor, () => source.service.fork(run.id, { atSeq: checkpoint.seq, replay: "recorded", edits: [{ kind: "reflection", reflectionEventId: reflection.id, text }] }));
  const first = await fork(zeldaToken, "Name the town, not the county.");
  const second = await fork(yusuf, "Read the question twice.");
  for (const { branchId } of [first, second]) await source.workers.untilSettled(branchId as never);
  const target = { branchId: run.rootBranchId, eventId: reflection.id };
  await source.annotations.create(run.id, { target, author: "zelda-walker", content: { text: "this reflection is too vague" } });
  await source.annotations.create(run.id, { target, author: "yusuf-ortega", content: { text: "agreed", tags: ["vague"] } });
  return { run, branches: [first.branchId, second.branchId] };
}

const editsOf = (events: readonly RunEvent[]) => events.filter((event) => event.type === "reflection-edit");

describe("names in bundles and OTLP exports", () => {
  it("keep (the default) carries the actors and note authors; a bundle keeps them through an import", async () => {
    const source = context();
    const { run } = await runWithPeople(source);
    const download = await source.bundles.exportRun(run.id);
    const json = gunzipSync(download.bytes).toString("utf8");
    for (const name of REAL) expect(json).toContain(name);
    const target = context();
    await target.bundles.importBundle(download.bytes, download.fileName);
    const imported = await target.store.listBranches(run.id as never);
    const all = (await Promise.all(imported.map((branch) => target.store.list(run.id as never, branch.id)))).flat();
    expect(all.find((event) => event.type === "run-start")?.actor).toEqual(zelda);
    expect(editsOf(all).map((event) => event.actor)).toEqual([zeldaToken, yusuf]);
  }, 60_000);

  it("strip leaves no real name or account id in the bundle; each person is the same pseudonym throughout", async () => {
    const source = context();
    const { run } = await runWithPeople(source);
    const download = await source.bundles.exportRun(run.id, { names: "strip" });
    const json = gunzipSync(download.bytes).toString("utf8");
    for (const name of REAL) expect(json).not.toContain(name);
    const { content } = await decodeBundle(download.bytes);
    const events = content.runs[0]!.events;
    expect(events.find((event) => event.type === "run-start")?.actor).toEqual({ kind: "person", id: "person 1", name: "person 1", userId: "person 1" });
    expect(editsOf(events).map((event) => event.actor)).toEqual([
      { kind: "token", id: "token 1", name: "person 1 (token)", userId: "person 1" },
      { kind: "person", id: "person 2", name: "person 2", userId: "person 2" },
    ]);
    // The worker keeps its own name; whom it worked for is pseudonymized like everything else.
    const workers = events.filter((event) => event.actor?.kind === "worker");
    expect(workers.length).toBeGreaterThan(0);
    expect(new Set(workers.map((event) => event.actor?.userId))).toEqual(new Set(["person 1"]));
    expect(content.runs[0]!.annotations?.map((event) => event.author)).toEqual(["person 1", "person 2"]);
    // A stripped bundle still imports.
    const target = context();
    expect((await target.bundles.importBundle(download.bytes, download.fileName)).created).toBe(true);
  }, 60_000);

  it("strip in a streamed bundle (format 2, what the routes and the CLI write): no real name in any line, the same pseudonyms, and it imports", async () => {
    const source = context();
    const { run } = await runWithPeople(source);
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on("data", (chunk: Buffer) => chunks.push(chunk));
    const written = await source.bundles.exportRunTo(out, run.id, { names: "strip" });
    const bytes = Buffer.concat(chunks);
    const text = gunzipSync(bytes).toString("utf8");
    expect(JSON.parse(text.split("\n")[0] ?? "{}")).toMatchObject({ type: "manifest", formatVersion: 2 });
    for (const name of REAL) expect(text).not.toContain(name);
    expect(text).toContain('"author":"person 1"');
    expect(text).toContain('"author":"person 2"');
    const target = context();
    const imported = await target.bundles.importBundle(bytes, written.fileName);
    expect(imported.created).toBe(true);
    const events = await target.store.list(run.id as never, run.rootBranchId);
    expect(events.find((event) => event.type === "run-start")?.actor).toEqual({ kind: "person", id: "person 1", name: "person 1", userId: "person 1" });
  }, 60_000);

  it("the OTLP export strips the note authors on request and keeps them by default", async () => {
    const source = context();
    const { run } = await runWithPeople(source);
    const kept = await source.otlp.jsonLines(run.id);
    expect(kept).toContain("zelda-walker");
    expect(kept).toContain("yusuf-ortega");
    const stripped = await source.otlp.jsonLines(run.id, "strip");
    for (const name of REAL) expect(stripped).not.toContain(name);
    expect(stripped).toContain("person 1");
    expect(stripped).toContain("person 2");
  }, 60_000);
});

describe("a budget pause's message", () => {
  it("loses the owner's name and account id when names are stripped; the lab's keeps its wording", async () => {
    const { Pseudonyms, stripEventNames } = await import("@/lib/domain/strip-names");
    const { runEventSchema } = await import("@/lib/domain/events");
    const pause = (detail: string) =>
      runEventSchema.parse({
        id: "e9", runId: "r1", branchId: "b1", seq: 9, schemaVersion: 1, occurredAt: "2026-12-05T10:00:00.000Z", causedBy: null,
        type: "run-pause", data: { reason: "spending-limit", detail, at: null },
        actor: { kind: "worker", id: "worker-1", name: "worker 1", userId: "u-vic-7" },
      });
    const names = new Pseudonyms();
    const stripped = stripEventNames(pause("Vic Runner's daily budget is spent: 2,103 tokens of 1,500 today (UTC). An admin raises it under Settings → Budgets or with `cli budgets set --user u-vic-7 --period day --tokens 3000`, then resume the run."), names);
    const text = JSON.stringify(stripped);
    expect(text).not.toMatch(/Vic|u-vic-7/);
    expect(stripped.type === "run-pause" && stripped.data.detail).toBe(
      'person 1\'s daily budget is spent: 2,103 tokens of 1,500 today (UTC). An admin raises it under Settings → Budgets or with `cli budgets set --user "person 1" --period day --tokens 3000`, then resume the run.',
    );
    const lab = stripEventNames(pause("The lab's monthly budget is spent: $200.00 of $200.00 this month (UTC). An admin raises it under Settings → Budgets or with `cli budgets set --lab --period month --usd 400`, then resume the run."), names);
    expect(lab.type === "run-pause" && lab.data.detail).toMatch(/^The lab's monthly budget is spent/);
  });
});
