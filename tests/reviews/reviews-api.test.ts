import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parse } from "csv-parse/sync";
import { NextRequest } from "next/server";
import { beforeAll, describe, expect, it } from "vitest";
import type { ReviewQueueDetail, ReviewQueueListItem } from "@/lib/domain/review-requests";
import { reviewSchema } from "@/lib/domain/review-queue";
import { reviewQueueViewSchema } from "@/lib/domain/review-view";

// The routes use the process-wide context: point it at a private database before importing them.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rp-reviews-api-"));
process.env.REFLEXION_DB_PATH = path.join(dir, "reviews.sqlite");

let list: typeof import("@/app/api/reviews/route");
let one: typeof import("@/app/api/reviews/[queueId]/route");
let save: typeof import("@/app/api/reviews/[queueId]/reviews/route");
let exporter: typeof import("@/app/api/reviews/[queueId]/export/route");
let experimentId: string;

/** The review routes over a real two-arm QA experiment run by the demo model, on the SQLite database. */
beforeAll(async () => {
  list = await import("@/app/api/reviews/route");
  one = await import("@/app/api/reviews/[queueId]/route");
  save = await import("@/app/api/reviews/[queueId]/reviews/route");
  exporter = await import("@/app/api/reviews/[queueId]/export/route");
  const { getServerContext } = await import("@/lib/server/app-context");
  const context = getServerContext();
  const record = await context.experiments.start({
    name: "QA arms",
    environment: "qa",
    taskSet: "builtin",
    taskIds: ["qa-builtin-01", "qa-builtin-02", "qa-builtin-03"],
    arms: [
      { label: "A", strategy: "reflexion", modelId: "demo" },
      { label: "B", strategy: "reflexion", modelId: "demo", memoryWindow: 1 },
    ],
    maxTrials: 3,
  });
  for (const runId of await context.experiments.runIds(record.id)) await context.workers.untilSettled((await context.service.getRun(runId)).rootBranchId);
  experimentId = record.id;
}, 120_000);

const json = (url: string, body: unknown) => new NextRequest(url, { method: "POST", body: JSON.stringify(body), headers: { "content-type": "application/json" } });
const params = (queueId: string) => ({ params: Promise.resolve({ queueId }) });

async function create(body: unknown) {
  const response = await list.POST(json("http://127.0.0.1/api/reviews", body));
  return { status: response.status, body: (await response.json()) as ReviewQueueDetail & { error?: { code: string; message: string } } };
}

describe("/api/reviews", () => {
  it("creates a pairwise queue, lists it with progress, and shows it with items and reviews", async () => {
    const created = await create({ experimentId, kind: "pairwise", arms: ["A", "B"], reviewers: ["ann", "bob"], name: "A vs B" });
    expect(created.status).toBe(201);
    expect(created.body.queue).toMatchObject({ name: "A vs B", kind: "pairwise" });
    expect(created.body.items).toHaveLength(3);
    const listed = (await (await list.GET()).json()) as { queues: ReviewQueueListItem[] };
    expect(listed.queues.find((entry) => entry.queue.id === created.body.queue.id)?.progress).toMatchObject({ items: 3, complete: 0 });
    const shown = (await (await one.GET(new Request("http://127.0.0.1"), params(created.body.queue.id))).json()) as ReviewQueueDetail;
    expect(shown.items.map((item) => item.id)).toEqual(created.body.items.map((item) => item.id));
    expect(shown.reviews).toEqual([]);
  });

  it("?reviewer=<name> answers that reviewer's view: blinded items they have not reviewed, only their reviews; 400 for someone else", async () => {
    const { body } = await create({ experimentId, kind: "pairwise", arms: ["A", "B"], reviewers: ["ann", "bob"] });
    const queueId = body.queue.id;
    const [first, second] = body.items;
    for (const reviewer of ["ann", "bob"]) expect((await save.POST(json(`http://127.0.0.1/api/reviews/${queueId}/reviews`, { itemId: first!.id, reviewer, label: "left" }), params(queueId))).status).toBe(201);
    expect((await save.POST(json(`http://127.0.0.1/api/reviews/${queueId}/reviews`, { itemId: second!.id, reviewer: "bob", label: "tie" }), params(queueId))).status).toBe(201);
    const view = reviewQueueViewSchema.parse(await (await one.GET(new Request(`http://127.0.0.1/api/reviews/${queueId}?reviewer=ann`), params(queueId))).json());
    expect(view.reviews.map((review) => review.reviewer)).toEqual(["ann"]);
    expect(view.items[0]).toEqual(first);
    expect(view.items[1]).toMatchObject({ leftArm: null, left: { arm: null, runId: null, followedBySuccess: null }, right: { arm: null, runId: null } });
    expect(view.progress.byReviewer).toEqual([{ reviewer: "ann", reviewed: 1 }, { reviewer: "bob", reviewed: 2 }]);
    const nobody = reviewQueueViewSchema.parse(await (await one.GET(new Request(`http://127.0.0.1/api/reviews/${queueId}?reviewer=`), params(queueId))).json());
    expect(nobody.reviews).toEqual([]);
    expect(nobody.items.every((item) => item.leftArm === null)).toBe(true);
    // Without ?reviewer= the full detail stays (the export and tools read it).
    const full = (await (await one.GET(new Request(`http://127.0.0.1/api/reviews/${queueId}`), params(queueId))).json()) as ReviewQueueDetail;
    expect(full.reviews).toHaveLength(3);
    expect(full.items[1]!.leftArm).not.toBeNull();
    const stranger = await one.GET(new Request(`http://127.0.0.1/api/reviews/${queueId}?reviewer=eve`), params(queueId));
    expect(stranger.status).toBe(400);
    expect(((await stranger.json()) as { error: { message: string } }).error.message).toMatch(/eve is not a reviewer of this queue/);
    expect((await one.GET(new Request(`http://127.0.0.1/api/reviews/${queueId}?reviewer=ann&all=1`), params(queueId))).status).toBe(400);
  });

  it("saves reviews (201), then exports them as CSV rows and JSON", async () => {
    const { body } = await create({ experimentId, kind: "pairwise", arms: ["A", "B"], reviewers: ["ann", "bob"] });
    const queueId = body.queue.id;
    for (const [index, item] of body.items.entries()) {
      for (const reviewer of ["ann", "bob"]) {
        const response = await save.POST(json(`http://127.0.0.1/api/reviews/${queueId}/reviews`, { itemId: item.id, reviewer, label: index === 0 && reviewer === "bob" ? "tie" : "left", tags: ["t1"] }), params(queueId));
        expect(response.status).toBe(201);
        expect(reviewSchema.parse(await response.json()).reviewer).toBe(reviewer);
      }
    }
    const detail = (await (await one.GET(new Request("http://127.0.0.1"), params(queueId))).json()) as ReviewQueueDetail;
    expect(detail.progress).toMatchObject({ items: 3, complete: 3 });
    expect(detail.progress.agreement).toHaveLength(1);
    expect(detail.progress.agreement[0]).toMatchObject({ a: "ann", b: "bob", n: 3 });
    expect(detail.progress.agreement[0]!.percentAgreement).toBeCloseTo(2 / 3, 12);

    const csv = await exporter.GET(new NextRequest(`http://127.0.0.1/api/reviews/${queueId}/export?format=csv`), params(queueId));
    expect(csv.headers.get("content-type")).toMatch(/text\/csv/);
    expect(csv.headers.get("content-disposition")).toContain(`review-${queueId}.csv`);
    const rows = parse(await csv.text(), { columns: true }) as Array<Record<string, string>>;
    expect(rows).toHaveLength(6);
    expect(rows.map((row) => `${row.item}/${row.reviewer}/${row.label}`)).toEqual(["1/ann/left", "1/bob/tie", "2/ann/left", "2/bob/left", "3/ann/left", "3/bob/left"]);
    for (const row of rows.filter((r) => r.label === "left")) expect(row.preferred_arm).toBe(row.left_arm);
    const asJson = await exporter.GET(new NextRequest(`http://127.0.0.1/api/reviews/${queueId}/export?format=json`), params(queueId));
    expect(((await asJson.json()) as { reviews: unknown[] }).reviews).toHaveLength(6);
  });

  it("answers bad input with 4xx and a message", async () => {
    expect((await create({ experimentId, kind: "pairwise", arms: ["A"], reviewers: ["ann"] })).body.error?.message).toMatch(/exactly two different arms/);
    const both = await create({ experimentId, query: "family:qa", reviewers: ["ann"] });
    expect(both.status).toBe(400);
    expect(both.body.error?.message).toMatch(/from an experiment \(experimentId\) or from a search query \(query\), one of the two/);
    expect((await one.GET(new Request("http://127.0.0.1"), params("rq-missing"))).status).toBe(404);
    const { body } = await create({ experimentId, reviewers: ["ann"] });
    const bad = await save.POST(json("http://127.0.0.1/x", { itemId: body.items[0]!.id, reviewer: "ann", label: "excellent" }), params(body.queue.id));
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { message: string } }).error.message).toMatch(/choose one of good, vague, wrong/);
    const format = await exporter.GET(new NextRequest(`http://127.0.0.1/api/reviews/${body.queue.id}/export?format=xml`), params(body.queue.id));
    expect(format.status).toBe(400);
  });

  it("refuses a custom rubric whose label ids repeat (keys 1 and 2 would both choose one label); distinct ids build the queue", async () => {
    const rubric = { name: "Helps?", question: "Would this reflection help the next trial?", labels: [{ id: "yes", description: "helps" }, { id: "yes", description: "does not help" }] };
    const duplicate = await create({ experimentId, reviewers: ["ann"], rubric });
    expect(duplicate.status).toBe(400);
    expect(duplicate.body.error?.message).toMatch(/each label id is used once: "yes" is label 1 and label 2/);
    const distinct = await create({ experimentId, reviewers: ["ann"], rubric: { ...rubric, labels: [{ id: "yes", description: "helps" }, { id: "no", description: "does not help" }] } });
    expect(distinct.status).toBe(201);
    expect(distinct.body.queue.rubric.labels.map((label) => label.id)).toEqual(["yes", "no"]);
  });

  it("trims reviewers' names and refuses one with a control character or < >; plain names, spaces included, work", async () => {
    for (const name of ["ann\u0007", "bob\tsmith", "line\nbreak", "<script>", "a>b"]) {
      const refused = await create({ experimentId, reviewers: ["ann", name] });
      expect(refused.status, JSON.stringify(name)).toBe(400);
      expect(refused.body.error?.message).toMatch(/a reviewer's name is plain text: leave out control characters \(tabs, line breaks\) and < >/);
    }
    const { status, body } = await create({ experimentId, reviewers: ["  ann ", "bob", "Ada Lovelace"] });
    expect(status).toBe(201);
    expect(body.queue.reviewers).toEqual(["ann", "bob", "Ada Lovelace"]);
    const saved = await save.POST(json("http://127.0.0.1/x", { itemId: body.items[0]!.id, reviewer: " Ada Lovelace ", label: "good" }), params(body.queue.id));
    expect(saved.status).toBe(201);
    expect(reviewSchema.parse(await saved.json()).reviewer).toBe("Ada Lovelace");
    const bad = await save.POST(json("http://127.0.0.1/x", { itemId: body.items[0]!.id, reviewer: "ann<b>", label: "good" }), params(body.queue.id));
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { message: string } }).error.message).toMatch(/a reviewer's name is plain text/);
  });
});
