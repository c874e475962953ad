import { expect, it } from "vitest";
import type { ReviewStore } from "@/lib/db/review-store";
import { DEFAULT_REFLECTION_RUBRIC, PAIRWISE_RUBRIC, type Review, type ReviewItem, type ReviewNode, type ReviewQueue } from "@/lib/domain/review-queue";

function node(overrides: Partial<ReviewNode> = {}): ReviewNode {
  return { runId: "run-1", branchId: "br-1", eventId: "ev-1", kind: "reflection", trial: 1, step: null, arm: "A", text: "I searched the wrong entity; next time search the film first.", followedBySuccess: false, ...overrides };
}

/** A queue (single unless `kind` says pairwise) with `count` items. */
export function reviewFixture(id: string, options: { kind?: "single" | "pairwise"; count?: number; createdAt?: string } = {}): { queue: ReviewQueue; items: ReviewItem[] } {
  const kind = options.kind ?? "single";
  const queue: ReviewQueue = {
    id,
    name: `queue ${id}`,
    kind,
    rubric: kind === "single" ? DEFAULT_REFLECTION_RUBRIC : PAIRWISE_RUBRIC,
    reviewers: ["ann", "bob"],
    source: { experimentId: "exp-1", arms: kind === "single" ? [] : ["A", "B"], query: null },
    seed: 42,
    createdAt: options.createdAt ?? "2026-12-05T10:00:00.000Z",
    createdBy: "ann",
  };
  const items = Array.from({ length: options.count ?? 3 }, (_, position): ReviewItem => ({
    id: `${id}-item-${position}`,
    queueId: id,
    position,
    taskId: `qa-builtin-0${position + 1}`,
    left: node({ eventId: `${id}-l-${position}`, trial: position + 1 }),
    right: kind === "pairwise" ? node({ eventId: `${id}-r-${position}`, arm: "B", runId: "run-2", text: "Search the director, not the film." }) : null,
    leftArm: kind === "pairwise" ? (position % 2 === 0 ? "A" : "B") : null,
  }));
  return { queue, items };
}

function review(queueId: string, itemId: string, reviewer: string, overrides: Partial<Review> = {}): Review {
  return { queueId, itemId, reviewer, label: "good", preferredArm: null, tags: [], comment: "", correction: null, reviewedAt: "2026-12-05T11:00:00.000Z", ...overrides };
}

/**
 * The rules every {@link ReviewStore} keeps (memory, SQLite, PostgreSQL): a queue and its items
 * stored together and read back exactly, items by position, queues newest first, one review per
 * queue / item / reviewer (saving again replaces it), reviews by item position then reviewer, a
 * review of an item the queue does not have refused. `make` hands out an empty store.
 */
export function reviewStoreContract(make: () => Promise<ReviewStore>): void {
  it("starts empty, stores a queue with its items and reads both back exactly", async () => {
    const store = await make();
    expect(await store.listQueues()).toEqual([]);
    expect(await store.getQueue("q1")).toBeNull();
    const { queue, items } = reviewFixture("q1", { kind: "pairwise" });
    await store.createQueue(queue, [...items].reverse());
    expect(await store.getQueue("q1")).toEqual(queue);
    expect(await store.listItems("q1")).toEqual(items);
    expect(await store.listItems("other")).toEqual([]);
  });

  it("lists queues newest first, then by id; a second queue with the same id is refused and changes nothing", async () => {
    const store = await make();
    const older = reviewFixture("q-old", { createdAt: "2026-12-01T00:00:00.000Z" });
    const newer = reviewFixture("q-new", { createdAt: "2026-12-04T00:00:00.000Z" });
    await store.createQueue(older.queue, older.items);
    await store.createQueue(newer.queue, newer.items);
    expect((await store.listQueues()).map((queue) => queue.id)).toEqual(["q-new", "q-old"]);
    await expect(store.createQueue({ ...older.queue, name: "again" }, [])).rejects.toMatchObject({ code: "conflict" });
    expect((await store.getQueue("q-old"))?.name).toBe("queue q-old");
    expect(await store.listItems("q-old")).toHaveLength(3);
  });

  it("saving a reviewer's review of an item again replaces it; other reviewers' and items' reviews stay", async () => {
    const store = await make();
    const { queue, items } = reviewFixture("q1", { kind: "pairwise" });
    await store.createQueue(queue, items);
    const first = review("q1", items[0]!.id, "ann", { label: "left", preferredArm: "A", tags: ["loop"], comment: "left names the entity" });
    expect(await store.saveReview(first)).toEqual(first);
    await store.saveReview(review("q1", items[0]!.id, "bob", { label: "right", preferredArm: "B" }));
    const replaced = review("q1", items[0]!.id, "ann", { label: "tie", preferredArm: "tie", correction: "Search the director first.", reviewedAt: "2026-12-05T12:00:00.000Z" });
    expect(await store.saveReview(replaced)).toEqual(replaced);
    const listed = await store.listReviews("q1");
    expect(listed).toEqual([replaced, review("q1", items[0]!.id, "bob", { label: "right", preferredArm: "B" })]);
  });

  it("lists reviews by item position, then reviewer, and only the queue's own", async () => {
    const store = await make();
    const a = reviewFixture("qa");
    const b = reviewFixture("qb");
    await store.createQueue(a.queue, a.items);
    await store.createQueue(b.queue, b.items);
    await store.saveReview(review("qa", a.items[2]!.id, "ann"));
    await store.saveReview(review("qa", a.items[0]!.id, "bob", { label: "vague" }));
    await store.saveReview(review("qa", a.items[0]!.id, "ann", { label: "wrong" }));
    await store.saveReview(review("qb", b.items[1]!.id, "ann"));
    expect((await store.listReviews("qa")).map((r) => [r.itemId, r.reviewer, r.label])).toEqual([
      [a.items[0]!.id, "ann", "wrong"],
      [a.items[0]!.id, "bob", "vague"],
      [a.items[2]!.id, "ann", "good"],
    ]);
    expect(await store.listReviews("qb")).toHaveLength(1);
  });

  it("refuses a review of an item the queue does not have (not-found) and stores nothing", async () => {
    const store = await make();
    const a = reviewFixture("qa");
    const b = reviewFixture("qb");
    await store.createQueue(a.queue, a.items);
    await store.createQueue(b.queue, b.items);
    await expect(store.saveReview(review("qa", "no-such-item", "ann"))).rejects.toMatchObject({ code: "not-found" });
    await expect(store.saveReview(review("qa", b.items[0]!.id, "ann"))).rejects.toMatchObject({ code: "not-found" });
    expect(await store.listReviews("qa")).toEqual([]);
  });

  it("hands out copies: changing a returned queue, item or review does not change the store", async () => {
    const store = await make();
    const { queue, items } = reviewFixture("q1");
    await store.createQueue(queue, items);
    const saved = await store.saveReview(review("q1", items[0]!.id, "ann", { tags: ["loop"] }));
    saved.tags.push("extra");
    (await store.getQueue("q1"))!.reviewers.push("eve");
    (await store.listItems("q1"))[0]!.left.text = "changed";
    (await store.listReviews("q1"))[0]!.tags.push("more");
    expect((await store.getQueue("q1"))!.reviewers).toEqual(["ann", "bob"]);
    expect((await store.listItems("q1"))[0]!.left.text).toBe(items[0]!.left.text);
    expect((await store.listReviews("q1"))[0]!.tags).toEqual(["loop"]);
  });
}
