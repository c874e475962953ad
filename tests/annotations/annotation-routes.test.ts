import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { annotationListResponseSchema, annotationResponseSchema } from "@/lib/domain/annotation-api";
import type { RunEvent } from "@/lib/domain/events";

// The routes use the process-wide context: point it at a private database before importing them.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rp-annotation-routes-"));
process.env.REFLEXION_DB_PATH = path.join(dir, "annotations.sqlite");

let list: typeof import("@/app/api/runs/[runId]/annotations/route");
let one: typeof import("@/app/api/runs/[runId]/annotations/[annotationId]/route");
let runId = "";
let rootBranchId = "";
let events: RunEvent[] = [];

beforeAll(async () => {
  list = await import("@/app/api/runs/[runId]/annotations/route");
  one = await import("@/app/api/runs/[runId]/annotations/[annotationId]/route");
  const { getServerContext } = await import("@/lib/server/app-context");
  const context = getServerContext();
  const run = await context.service.createRun({ environment: "qa", taskSet: "builtin", taskId: "qa-builtin-02", strategy: "reflexion", modelId: "demo" });
  await context.workers.untilSettled(run.rootBranchId);
  runId = run.id;
  rootBranchId = run.rootBranchId;
  events = (await context.service.events(run.id)).events;
}, 60_000);

afterAll(async () => {
  const { getServerContext } = await import("@/lib/server/app-context");
  await getServerContext().close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const url = (suffix = "") => `http://localhost/api/runs/${runId}/annotations${suffix}`;
const params = () => ({ params: Promise.resolve({ runId }) });
const params2 = (annotationId: string) => ({ params: Promise.resolve({ runId, annotationId }) });
const post = (body: unknown) => list.POST(new NextRequest(url(), { method: "POST", body: JSON.stringify(body), headers: { "content-type": "application/json" } }), params());
const patch = (annotationId: string, body: unknown) => one.PATCH(new NextRequest(url(`/${annotationId}`), { method: "PATCH", body: JSON.stringify(body), headers: { "content-type": "application/json" } }), params2(annotationId));
const get = (query = "") => list.GET(new NextRequest(url(query)), params());

describe("/api/runs/:runId/annotations", () => {
  it("POST adds a note on a node (201), GET lists it for the root branch, PATCH edits and deletes it", async () => {
    const observation = events.find((event) => event.type === "step-observation")!;
    const created = await post({ target: { branchId: rootBranchId, eventId: observation.id, kind: "observation", trial: null, step: null, seq: null }, author: "ada", content: { text: "the page had the answer", tags: ["Evidence"], score: { scale: "correct", value: 1 } } });
    expect(created.status).toBe(201);
    const { annotation } = annotationResponseSchema.parse(await created.json());
    expect(annotation).toMatchObject({ author: "ada", content: { tags: ["evidence"] }, target: { kind: "observation", seq: observation.seq } });

    const listed = annotationListResponseSchema.parse(await (await get()).json());
    expect(listed).toMatchObject({ runId, branchId: rootBranchId });
    expect(listed.annotations.map((a) => a.id)).toEqual([annotation.id]);
    expect(annotationListResponseSchema.parse(await (await get(`?branch=${rootBranchId}`)).json()).annotations).toHaveLength(1);

    const edited = await patch(annotation.id, { author: "grace", content: { text: "the page had it", tags: [], score: null } });
    expect(edited.status).toBe(200);
    expect(annotationResponseSchema.parse(await edited.json()).annotation).toMatchObject({ updatedBy: "grace", history: [{ content: { text: "the page had the answer" } }] });
    const deleted = await patch(annotation.id, { author: "ada", delete: true });
    expect(annotationResponseSchema.parse(await deleted.json()).annotation).toMatchObject({ deleted: true, updatedBy: "ada" });
    expect((await patch(annotation.id, { author: "ada", delete: true })).status).toBe(409);
  });

  it("answers 400 for bad content and a node that draws nothing, 404 for unknown nodes, branches, runs and annotations", async () => {
    const action = events.find((event) => event.type === "step-action")!;
    const target = { branchId: rootBranchId, eventId: action.id, kind: "action", trial: null, step: null, seq: null };
    const offScale = await post({ target, author: "ada", content: { text: "x", score: { scale: "quality", value: 7 } } });
    expect(offScale.status).toBe(400);
    expect(((await offScale.json()) as { error: { message: string } }).error.message).toContain("quality score is 1–5");
    expect((await post({ target, author: " ", content: { text: "x" } })).status).toBe(400);
    const checkpoint = events.find((event) => event.type === "checkpoint")!;
    expect((await post({ target: { ...target, eventId: checkpoint.id }, author: "ada", content: { text: "x" } })).status).toBe(400);
    expect((await post({ target: { ...target, eventId: "nope" }, author: "ada", content: { text: "x" } })).status).toBe(404);
    expect((await get("?branch=nope")).status).toBe(404);
    expect((await patch("nope", { author: "ada", delete: true })).status).toBe(404);
    const unknownRun = await list.GET(new NextRequest("http://localhost/api/runs/nope/annotations"), { params: Promise.resolve({ runId: "nope" }) });
    expect(unknownRun.status).toBe(404);
  });

  it("takes a target of just branch and event, refuses a note that says nothing and an ambiguous PATCH, and keeps each tag once", async () => {
    const thought = events.find((event) => event.type === "step-thought")!;
    const target = { branchId: rootBranchId, eventId: thought.id };
    const created = await post({ target, author: "ada", content: { text: "", tags: ["dup", "Dup", "other"] } });
    expect(created.status).toBe(201);
    const { annotation } = annotationResponseSchema.parse(await created.json());
    expect(annotation.target).toMatchObject({ kind: "thought", seq: thought.seq });
    expect(annotation.content.tags).toEqual(["dup", "other"]);

    for (const content of [{ text: "" }, { text: "   ", tags: [] }]) {
      const empty = await post({ target, author: "ada", content });
      expect(empty.status).toBe(400);
      expect(((await empty.json()) as { error: { message: string } }).error.message).toContain("a comment, a tag or a score");
    }
    const both = await patch(annotation.id, { author: "eve", delete: true, content: { text: "both", tags: [] } });
    expect(both.status).toBe(400);
    expect(((await both.json()) as { error: { message: string } }).error.message).toContain("either { author, content } to edit the note or { author, delete: true }");
    expect((await patch(annotation.id, { author: "eve" })).status).toBe(400);
    expect((await post({ target, author: "mal\nlory", content: { text: "x" } })).status).toBe(400);
    // Saving the same content again is no edit.
    expect((await patch(annotation.id, { author: "eve", content: { text: "", tags: ["dup", "other"] } })).status).toBe(200);
    expect((await patch(annotation.id, { author: "eve", content: { text: " " } })).status).toBe(400);
    const listed = annotationListResponseSchema.parse(await (await get()).json()).annotations.find((a) => a.id === annotation.id)!;
    expect(listed).toMatchObject({ deleted: false, history: [], content: { tags: ["dup", "other"] } });
  });
});
