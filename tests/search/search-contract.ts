import { expect, it } from "vitest";
import type { SearchIndex } from "@/lib/db/search-index";
import { MemorySearchIndex } from "@/lib/db/search-index-memory";
import type { RunStore } from "@/lib/db/store";
import type { RunState } from "@/lib/domain/fold-run";
import { SearchService } from "@/lib/server/search-service";
import { ArrayAnnotationStore, HOUSEHOLD, QA } from "./search-fixture";

/** The demo runs' trials as the tests compute them from the folded logs, without the index. */
function trialsOf(states: Map<string, RunState>) {
  return [...states].flatMap(([runId, state]) =>
    state.trials.map((trial) => {
      const counts = new Map<string, number>();
      for (const step of trial.steps) {
        const action = step.action?.text.trim();
        if (action) counts.set(action, (counts.get(action) ?? 0) + 1);
      }
      const texts = trial.steps.flatMap((step) => [
        { field: "thought", text: step.thought?.text ?? "" },
        { field: "action", text: step.action?.text ?? "" },
        { field: "observation", text: step.observation?.text ?? "" },
      ]);
      texts.push({ field: "reflection", text: trial.reflection?.text ?? "" });
      return { key: `${runId}#${trial.trial}`, runId, trial: trial.trial, family: state.config!.environment, outcome: trial.outcome, steps: trial.steps.length, maxRepeat: Math.max(0, ...counts.values()), counts, texts };
    }),
  );
}

const word = (w: string) => new RegExp(`(^|[^\\p{L}\\p{N}])${w}($|[^\\p{L}\\p{N}])`, "iu");
const keysOf = (hits: ReadonlyArray<{ runId: string; trial: number }>) => hits.map((hit) => `${hit.runId}#${hit.trial}`).sort();

/**
 * The semantics every {@link SearchIndex} gives a query (SQLite FTS5, PostgreSQL full text, memory):
 * each case's expected trials are computed from the folded logs here, and every query's hits equal
 * the in-memory index's. `fixture` gives the demo runs' store (root branches only) and their folded logs.
 */
export function searchContract(fixture: () => Promise<{ store: RunStore; states: Map<string, RunState> }>, makeIndex: () => Promise<SearchIndex>): void {
  const service = async () => {
    const { store, states } = await fixture();
    const annotations = new ArrayAnnotationStore();
    return { service: new SearchService(store, await makeIndex(), annotations), reference: new SearchService(store, new MemorySearchIndex(), annotations), states, store, annotations };
  };

  it("family:household repeat>=3 finds exactly the household trials where one action occurs three times or more", async () => {
    const { service: search, states } = await service();
    const expected = trialsOf(states).filter((t) => t.family === HOUSEHOLD && t.maxRepeat >= 3).map((t) => t.key).sort();
    expect(expected.length).toBeGreaterThan(0);
    const result = await search.searchTrials("family:household repeat>=3", { limit: 1000 });
    expect(keysOf(result.hits)).toEqual(expected);
    expect(result.total).toBe(expected.length);
    for (const hit of result.hits) expect(hit.repeat).toBeGreaterThanOrEqual(3);
  });

  it("full text: a word in any node, scoped to reflections, negated, and as a phrase", async () => {
    const { service: search, states } = await service();
    const trials = trialsOf(states);
    const anyNode = trials.filter((t) => t.texts.some((n) => word("desklamp").test(n.text))).map((t) => t.key).sort();
    const inReflection = trials.filter((t) => t.texts.some((n) => n.field === "reflection" && word("desklamp").test(n.text))).map((t) => t.key).sort();
    expect(anyNode.length).toBeGreaterThan(inReflection.length);
    expect(inReflection.length).toBeGreaterThan(0);
    expect(keysOf((await search.searchTrials("DeskLamp", { limit: 1000 })).hits)).toEqual(anyNode);
    const scoped = await search.searchTrials("reflection:desklamp", { limit: 1000 });
    expect(keysOf(scoped.hits)).toEqual(inReflection);
    for (const hit of scoped.hits) {
      expect(hit.matches.map((m) => m.field)).toEqual(["reflection"]);
      expect(hit.eventId).toBe(hit.matches[0]!.eventId);
      expect(hit.matches[0]!.snippet.toLowerCase()).toContain("desklamp");
    }
    const negated = await search.searchTrials(`family:${HOUSEHOLD} -desklamp`, { limit: 1000 });
    expect(keysOf(negated.hits)).toEqual(trials.filter((t) => t.family === HOUSEHOLD && !anyNode.includes(t.key)).map((t) => t.key).sort());
    const phrase = trials.filter((t) => t.texts.some((n) => /(^|[^a-z0-9])go\s+to\s+desk($|[^a-z0-9])/iu.test(n.text))).map((t) => t.key).sort();
    expect(keysOf((await search.searchTrials('"go to desk"', { limit: 1000 })).hits)).toEqual(phrase);
  });

  it("match fields with wildcards, comparisons and outcomes", async () => {
    const { service: search, states } = await service();
    const trials = trialsOf(states);
    const goActions = trials.filter((t) => t.family === HOUSEHOLD && t.outcome !== "success" && [...t.counts.keys()].some((a) => /^go to /iu.test(a))).map((t) => t.key).sort();
    expect(goActions.length).toBeGreaterThan(0);
    const result = await search.searchTrials("family:household action:go* -outcome:success", { limit: 1000 });
    expect(keysOf(result.hits)).toEqual(goActions);
    for (const hit of result.hits) expect(hit.repeatedAction).toMatch(/^go/iu);
    expect(keysOf((await search.searchTrials(`family:${QA} trial>=2`, { limit: 1000 })).hits)).toEqual(trials.filter((t) => t.family === QA && t.trial >= 2).map((t) => t.key).sort());
    expect(keysOf((await search.searchTrials("steps>3 outcome:failure", { limit: 1000 })).hits)).toEqual(trials.filter((t) => t.steps > 3 && t.outcome === "failure").map((t) => t.key).sort());
    expect((await search.searchTrials("family:nothing-like-this")).total).toBe(0);
  });

  it("tag: reads the annotation log: a live tag on a trial's node finds that trial; a deleted one does not", async () => {
    const { service: search, annotations, states, store } = await service();
    const [runId, state] = [...states][0]!;
    const run = await store.getRun(runId as never);
    const trial = state.trials[0]!;
    const step = trial.steps[0]!;
    const target = { runId, branchId: run!.rootBranchId, eventId: step.action!.eventId, kind: "action" as const, trial: trial.trial, step: step.step, seq: null };
    const added = await annotations.append({ type: "annotation-add", annotationId: "n1", target, parentId: null, author: "Ada", content: { text: "loops", tags: ["loop"], score: null }, origin: null });
    await annotations.append({ type: "annotation-add", annotationId: "n2", target: { ...target, trial: 2 }, parentId: null, author: "Ada", content: { text: "", tags: ["loop"], score: null }, origin: null });
    await annotations.append({ type: "annotation-delete", annotationId: "n2", runId, author: "Ada" });
    expect(added.seq).toBe(1);
    expect(keysOf((await search.searchTrials("tag:loop")).hits)).toEqual([`${runId}#${trial.trial}`]);
    expect((await search.searchTrials("-tag:lo*")).total).toBe(trialsOf(states).length - 1);
  });

  it("answers every query as the in-memory index does, and re-indexes only what grew", async () => {
    const { service: search, reference } = await service();
    for (const query of ["", "desklamp", "thought:think", "observation:\"nothing happens\"", "family:household repeat>=2 action:go*", `family:${QA} outcome:failure`, "-steps<2 tokens>=0", "cost>=0", "-cost>0", "strategy:none", "model:demo run:*"]) {
      const [mine, theirs] = [await search.searchTrials(query, { limit: 1000 }), await reference.searchTrials(query, { limit: 1000 })];
      expect({ query, hits: mine.hits, total: mine.total }).toEqual({ query, hits: theirs.hits, total: theirs.total });
    }
    expect(await search.refresh()).toBe(0);
    const limited = await search.searchTrials("", { limit: 2 });
    expect(limited.hits).toHaveLength(2);
    expect(limited.truncated).toBe(true);
    expect(limited.normalized).toBe("");
  });
}
