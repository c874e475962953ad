import { expect, it } from "vitest";
import type { AnnotationStore } from "@/lib/db/annotation-store";
import type { AnnotationEventDraft } from "@/lib/domain/annotations";
import { isAppError } from "@/lib/domain/errors";

/** A store and two existing runs an annotation may refer to (`run_id` is a foreign key in SQL). */
export interface AnnotationStoreFixture {
  store: AnnotationStore;
  runs: readonly [{ runId: string; branchId: string }, { runId: string; branchId: string }];
  /** A second, empty store over another database (bundle imports land in a fresh one); its runs have the same ids. */
  fresh?: () => Promise<AnnotationStore>;
}

/**
 * The rules every {@link AnnotationStore} keeps (memory, SQLite, PostgreSQL): appends get ids and
 * increasing `seq`s; edits and deletes are events of their own; an edit, delete or reply naming an
 * annotation the run does not have is refused with AppError("not-found"); imports keep ids and
 * times, assign new seqs in the given order, and skip ids already stored.
 */
export function annotationStoreContract(make: () => Promise<AnnotationStoreFixture>): void {
  const add = (where: { runId: string; branchId: string }, annotationId: string, overrides: Partial<Extract<AnnotationEventDraft, { type: "annotation-add" }>> = {}): AnnotationEventDraft => ({
    type: "annotation-add",
    annotationId,
    target: { runId: where.runId, branchId: where.branchId, eventId: `ev-${annotationId}`, kind: "action", trial: 1, step: 2, seq: 7 },
    parentId: null,
    author: "ada",
    content: { text: "**Search** twice for the same entity", tags: ["loop"], score: { scale: "quality", value: 2 } },
    origin: null,
    ...overrides,
  });

  it("starts empty, appends with ids and increasing seqs, and reads back by run in seq order", async () => {
    const { store, runs } = await make();
    expect(await store.listEvents()).toEqual([]);
    const first = await store.append(add(runs[0], "a1"));
    const other = await store.append(add(runs[1], "b1"));
    const second = await store.append(add(runs[0], "a2", { occurredAt: "2026-12-01T10:00:00.000Z" }));
    expect(first.id).not.toBe(second.id);
    expect(first.seq).toBeLessThan(other.seq);
    expect(other.seq).toBeLessThan(second.seq);
    expect(second.occurredAt).toBe("2026-12-01T10:00:00.000Z");
    expect(Number.isNaN(Date.parse(first.occurredAt))).toBe(false);
    expect(first).toMatchObject({ type: "annotation-add", annotationId: "a1", author: "ada", parentId: null, origin: null, content: { text: "**Search** twice for the same entity", tags: ["loop"], score: { scale: "quality", value: 2 } } });
    expect(first.type === "annotation-add" && first.target).toEqual({ runId: runs[0].runId, branchId: runs[0].branchId, eventId: "ev-a1", kind: "action", trial: 1, step: 2, seq: 7 });
    expect(await store.listForRun(runs[0].runId)).toEqual([first, second]);
    expect(await store.listEvents([runs[1].runId])).toEqual([other]);
    expect(await store.listEvents()).toEqual([first, other, second]);
    expect(await store.listEvents([])).toEqual([]);
  });

  it("keeps an edit and a delete as events of their own; the add is unchanged", async () => {
    const { store, runs } = await make();
    const added = await store.append(add(runs[0], "a1"));
    const edit = await store.append({ type: "annotation-edit", annotationId: "a1", runId: runs[0].runId, author: "grace", content: { text: "fixed wording", tags: [], score: null } });
    const removed = await store.append({ type: "annotation-delete", annotationId: "a1", runId: runs[0].runId, author: "ada" });
    expect(edit).toMatchObject({ type: "annotation-edit", author: "grace", content: { text: "fixed wording", tags: [], score: null } });
    expect(removed).toMatchObject({ type: "annotation-delete", author: "ada", annotationId: "a1" });
    const listed = await store.listForRun(runs[0].runId);
    expect(listed).toEqual([added, edit, removed]);
    expect(listed.map((e) => e.seq)).toEqual([...listed.map((e) => e.seq)].sort((a, b) => a - b));
  });

  it("threads a reply to an annotation of the same run", async () => {
    const { store, runs } = await make();
    await store.append(add(runs[0], "a1"));
    const reply = await store.append(add(runs[0], "a2", { parentId: "a1", author: "grace" }));
    expect(reply).toMatchObject({ parentId: "a1", author: "grace" });
  });

  it("refuses a reply to, or an edit or delete of, an annotation the run does not have (not-found), and stores nothing", async () => {
    const { store, runs } = await make();
    await store.append(add(runs[1], "b1"));
    const refusals = [
      store.append(add(runs[0], "a2", { parentId: "missing" })),
      store.append(add(runs[0], "a3", { parentId: "b1" })),
      store.append({ type: "annotation-edit", annotationId: "missing", runId: runs[0].runId, author: "ada", content: { text: "x", tags: [], score: null } }),
      store.append({ type: "annotation-delete", annotationId: "b1", runId: runs[0].runId, author: "ada" }),
    ];
    for (const refusal of refusals) {
      const error = await refusal.then(() => null, (caught: unknown) => caught);
      expect(isAppError(error, "not-found")).toBe(true);
    }
    expect(await store.listForRun(runs[0].runId)).toEqual([]);
  });

  it("refuses content the schema refuses (a score off its scale) before storing", async () => {
    const { store, runs } = await make();
    await expect(store.append(add(runs[0], "a1", { content: { text: "x", tags: [], score: { scale: "quality", value: 9 } } }))).rejects.toThrow(/quality score is 1–5/u);
    expect(await store.listEvents()).toEqual([]);
  });

  it("imports events keeping ids, times and their order, with new seqs; importing again adds nothing", async () => {
    const { store, runs, fresh } = await make();
    await store.append(add(runs[0], "a1"));
    await store.append(add(runs[0], "a2", { parentId: "a1", author: "grace" }));
    await store.append({ type: "annotation-edit", annotationId: "a1", runId: runs[0].runId, author: "grace", content: { text: "edited", tags: ["hallucination"], score: null } });
    const exported = await store.listForRun(runs[0].runId);
    const target = fresh ? await fresh() : store;
    if (fresh) await target.append(add(runs[1], "b1"));
    const before = (await target.listEvents()).length;
    // Given out of order: the import follows their seqs.
    const added = await target.importEvents([...exported].reverse());
    expect(added).toBe(fresh ? 3 : 0);
    expect(await target.importEvents(exported)).toBe(0);
    const imported = await target.listForRun(runs[0].runId);
    expect(imported.map(({ seq: _seq, ...rest }) => rest)).toEqual(exported.map(({ seq: _seq, ...rest }) => rest));
    expect((await target.listEvents()).length).toBe(before + (fresh ? 3 : 0));
    if (fresh) {
      const [b1] = await target.listForRun(runs[1].runId);
      expect(imported[0]!.seq).toBeGreaterThan(b1!.seq);
    }
  });

  it("an import skips only the ids already stored", async () => {
    const { store, runs } = await make();
    const kept = await store.append(add(runs[0], "a1"));
    const copy = { ...kept, id: "new-event-id", annotationId: "a9", seq: 99 };
    expect(await store.importEvents([kept, copy])).toBe(1);
    expect((await store.listForRun(runs[0].runId)).map((e) => e.id)).toEqual([kept.id, "new-event-id"]);
  });
}
