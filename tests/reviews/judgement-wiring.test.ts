import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServerContext } from "@/lib/server/app-context";
import { demoContext, qaExperiment } from "./review-fixture";

/**
 * The three parts wired together in one server context, as the app runs them: a reviewer's tag
 * becomes a note on the node, search's `tag:` finds that trial, and a queue built from that search
 * holds exactly the tagged trial's reflection.
 */
let context: ServerContext;
let experimentId: string;

beforeAll(async () => {
  context = demoContext();
  experimentId = await qaExperiment(context, ["qa-builtin-01", "qa-builtin-02"]);
}, 120_000);
afterAll(() => context.close());

describe("reviews, notes and search in one context", () => {
  it("a review's tag is a note on the node, search finds the trial by it, and a queue from that search holds its reflection", async () => {
    const { queue, items } = await context.reviews.create({ experimentId, kind: "single", arms: ["A"], reviewers: ["ann"] });
    expect(items.length).toBeGreaterThan(1);
    const item = items[0]!;
    await context.reviews.saveReview(queue.id, { itemId: item.id, reviewer: "ann", label: "vague", tags: ["too-vague"], comment: "names no *fact*" });

    const notes = await context.annotations.list(item.left.runId, item.left.branchId);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({ author: "ann", origin: { queueId: queue.id, itemId: item.id }, content: { tags: ["too-vague"], text: "names no *fact*" } });
    expect(notes[0]!.target).toMatchObject({ eventId: item.left.eventId, kind: "reflection", trial: item.left.trial });
    expect(notes[0]!.target.seq).toBeGreaterThan(0);

    const found = await context.search.searchTrials("tag:too-vague");
    expect(found.hits.map((hit) => [hit.runId, hit.trial])).toEqual([[item.left.runId, item.left.trial]]);
    // With no text term, the hit opens the node the tag is on (here the reviewed reflection), not the trial's start.
    expect(found.hits[0]!.eventId).toBe(item.left.eventId);
    expect((await context.search.searchTrials("-tag:too-vague arm:A")).hits.some((hit) => hit.runId === item.left.runId && hit.trial === item.left.trial)).toBe(false);

    const fromSearch = await context.reviews.create({ query: "tag:too-vague", kind: "single", reviewers: ["bob"] });
    expect(fromSearch.items.map((entry) => entry.left.eventId)).toEqual([item.left.eventId]);
  });
});
