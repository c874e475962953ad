import { describe, expect, it } from "vitest";
import { foldRun } from "@/lib/domain/fold-run";
import {
  matchesQuery,
  pageReflections,
  reflectionOutcomes,
  reflectionQuerySchema,
  type ReflectionListItem,
} from "@/lib/domain/reflection-outcomes";
import { EventLog, makeRunConfig, twoTrialReflexionRun } from "../graph/fixtures";

/**
 * Reflections with the failed trial they came from and the next trial's
 * outcome (lib/domain/reflection-outcomes.ts), from hand-built event logs, and
 * the query parameters of GET /api/reflections.
 */

/** A failed trial `trial` with one Search step, evaluated `fail`, ended `outcome`, and (optionally) reflected on. */
function failedTrial(log: EventLog, trial: number, memoryIds: Array<{ id: string; text: string; trial: number }>, reflection: string | null, outcome: "failure" | "halted" = "failure") {
  log.add("trial-start", { trial, memory: memoryIds, evicted: [] });
  log.step(trial, 1, `Trial ${trial}: search.`, { text: `Search[entity ${trial}]`, type: "Search", argument: `entity ${trial}` }, { text: "Could not find it." });
  log.step(trial, 2, "Answer.", { text: "Finish[wrong]", type: "Finish", argument: "wrong" }, { text: "Episode finished", done: true, answer: "wrong" });
  log.add("evaluation-end", { trial, verdict: "fail", score: 0, feedback: "Answer is INCORRECT", evaluatorKind: "exact-match", oracle: true, details: {} });
  log.add("trial-end", { trial, outcome, reason: "wrong answer" });
  if (reflection === null) return null;
  const callId = log.call("reflector", trial, null, "Reflect", reflection);
  return log.add("reflection-end", { trial, text: reflection, callId });
}

function succeededTrial(log: EventLog, trial: number, memory: Array<{ id: string; text: string; trial: number }>) {
  log.add("trial-start", { trial, memory, evicted: [] });
  log.step(trial, 1, "Now I know.", { text: "Finish[Arthur's Magazine]", type: "Finish", argument: "Arthur's Magazine" }, { text: "Episode finished", done: true, answer: "Arthur's Magazine" });
  log.add("evaluation-end", { trial, verdict: "pass", score: 1, feedback: "Answer is CORRECT", evaluatorKind: "exact-match", oracle: true, details: {} });
  log.add("trial-end", { trial, outcome: "success", reason: "correct answer" });
}

describe("reflectionOutcomes", () => {
  it("a halted trial's reflection followed by a success helped, and the next Actor saw it", () => {
    const run = twoTrialReflexionRun();
    const [outcome, ...rest] = reflectionOutcomes(foldRun(run.log.events));
    expect(rest).toEqual([]);
    expect(outcome).toMatchObject({ reflectionEventId: run.reflectionId, verdict: "helped", helped: true, inNextMemory: true, edited: false });
    expect(outcome?.failed).toEqual({
      trial: 1,
      outcome: "halted",
      steps: 2,
      lastActions: ["Search[Arthur's Magazine]", "Look up First for Women"],
      answer: null,
      feedback: "No answer submitted.",
      endReason: "step budget",
    });
    expect(outcome?.next).toMatchObject({ trial: 2, outcome: "success", answer: "Arthur's Magazine", steps: 1 });
  });

  it("fail → reflect → fail → reflect → success: the first did not help, the second worked", () => {
    const log = new EventLog();
    log.add("run-start", { config: makeRunConfig({ maxTrials: 3 }) });
    const first = failedTrial(log, 1, [], "I searched the wrong entity.");
    const firstItem = { id: first!.id, text: "I searched the wrong entity.", trial: 1 };
    const second = failedTrial(log, 2, [firstItem], "Search the magazine's founding year, then compare.", "halted");
    succeededTrial(log, 3, [firstItem, { id: second!.id, text: "Search the magazine's founding year, then compare.", trial: 2 }]);
    log.add("run-end", { outcome: "success", trials: 3 });
    const outcomes = reflectionOutcomes(foldRun(log.events));
    expect(outcomes.map((o) => [o.failed.trial, o.verdict, o.next?.outcome])).toEqual([
      [1, "did-not-help", "halted"],
      [2, "helped", "success"],
    ]);
    expect(outcomes[0]?.failed.lastActions).toEqual(["Search[entity 1]", "Finish[wrong]"]);
    expect(outcomes[0]?.helped).toBe(false);
  });

  it("a reflection after the last trial has no next trial, nor one whose next trial is still running", () => {
    const log = new EventLog();
    log.add("run-start", { config: makeRunConfig({ maxTrials: 2 }) });
    const first = failedTrial(log, 1, [], "Try harder.");
    failedTrial(log, 2, [{ id: first!.id, text: "Try harder.", trial: 1 }], "Read the question again.");
    log.add("run-end", { outcome: "failure", trials: 2 });
    expect(reflectionOutcomes(foldRun(log.events)).map((o) => o.verdict)).toEqual(["did-not-help", "no-next-trial"]);

    const running = new EventLog();
    running.add("run-start", { config: makeRunConfig() });
    const reflection = failedTrial(running, 1, [], "Look it up.");
    running.add("trial-start", { trial: 2, memory: [{ id: reflection!.id, text: "Look it up.", trial: 1 }], evicted: [] });
    const [pending] = reflectionOutcomes(foldRun(running.events));
    expect(pending).toMatchObject({ verdict: "no-next-trial", helped: false, inNextMemory: true });
    expect(pending?.next).toMatchObject({ trial: 2, outcome: null });
  });

  it("an edited reflection keeps what the model wrote; one cleared from memory was not seen by the next trial", () => {
    const log = new EventLog();
    log.add("run-start", { config: makeRunConfig() });
    const reflection = failedTrial(log, 1, [], "Model text.");
    log.add("reflection-edit", { reflectionEventId: reflection!.id, oldText: "Model text.", newText: "A teacher's text.", note: null });
    log.add("memory-edit", { oldMemory: [{ id: reflection!.id, text: "A teacher's text.", trial: 1 }], newMemory: [], note: "cleared" });
    succeededTrial(log, 2, []);
    const [outcome] = reflectionOutcomes(foldRun(log.events));
    expect(outcome).toMatchObject({ text: "A teacher's text.", originalText: "Model text.", edited: true, inNextMemory: false, verdict: "helped" });
  });

  it("a run without reflections (ReAct only) has none", () => {
    const log = new EventLog();
    log.add("run-start", { config: makeRunConfig({ strategy: "none" }) });
    failedTrial(log, 1, [], null);
    failedTrial(log, 2, [], null);
    expect(reflectionOutcomes(foldRun(log.events))).toEqual([]);
  });
});

function item(id: string, verdict: ReflectionListItem["verdict"], text: string): ReflectionListItem {
  return {
    reflectionEventId: id,
    text,
    originalText: text,
    edited: false,
    failed: { trial: 1, outcome: "failure", steps: 1, lastActions: ["Search[Milhouse]"], answer: null, feedback: "Answer is INCORRECT", endReason: null },
    next: verdict === "no-next-trial" ? null : { trial: 2, outcome: verdict === "helped" ? "success" : "failure", steps: 1, lastActions: [], answer: null, feedback: null, endReason: null },
    inNextMemory: true,
    verdict,
    helped: verdict === "helped",
    runId: `run-${id}`,
    runTitle: `Question ${id}`,
    taskId: `task-${id}`,
    environment: "qa",
    strategy: "reflexion",
    experimentId: null,
    arm: null,
    recordedSource: null,
  };
}

describe("searching and paging", () => {
  const items = [
    item("a", "helped", "I should have searched Simpsons characters."),
    item("b", "did-not-help", "Search the show first."),
    item("c", "helped", "Lookup the year before answering."),
    item("d", "no-next-trial", "The simpsons episode is the key."),
  ];

  it("every word must occur, case-insensitively, in the reflection, the failed trial or the run", () => {
    expect(matchesQuery(items[0]!, "SIMPSONS searched")).toBe(true);
    expect(matchesQuery(items[0]!, "simpsons year")).toBe(false);
    expect(matchesQuery(items[1]!, "milhouse")).toBe(true); // the failed trial's action
    expect(matchesQuery(items[2]!, "question", ["Question c"])).toBe(true);
    expect(matchesQuery(items[2]!, "   ")).toBe(true);
  });

  it("helped=true / false keep the worked / did-not-help ones (never the ones without a next trial); counts ignore the filter", () => {
    const worked = pageReflections(items, { q: "", helped: true, limit: 50 }, 4);
    expect(worked.items.map((i) => i.reflectionEventId)).toEqual(["a", "c"]);
    expect(worked.counts).toEqual({ helped: 2, notHelped: 1, noNextTrial: 1 });
    expect(pageReflections(items, { q: "", helped: false, limit: 50 }, 4).items.map((i) => i.reflectionEventId)).toEqual(["b"]);
    const simpsons = pageReflections(items, { q: "simpsons", limit: 50 }, 4);
    expect(simpsons.items.map((i) => i.reflectionEventId)).toEqual(["a", "d"]);
    expect(simpsons.counts).toEqual({ helped: 1, notHelped: 0, noNextTrial: 1 });
  });

  it("pages with a cursor until nextCursor is null", () => {
    const first = pageReflections(items, { q: "", limit: 3 }, 4);
    expect(first.items).toHaveLength(3);
    expect(first.total).toBe(4);
    expect(first.nextCursor).toBe("3");
    const second = pageReflections(items, { q: "", limit: 3, cursor: Number(first.nextCursor) }, 4);
    expect(second.items.map((i) => i.reflectionEventId)).toEqual(["d"]);
    expect(second.nextCursor).toBeNull();
  });
});

describe("GET /api/reflections parameters", () => {
  it("defaults and coercions", () => {
    expect(reflectionQuerySchema.parse({})).toEqual({ q: "", limit: 50 });
    expect(reflectionQuerySchema.parse({ experimentId: "exp-1", helped: "true", limit: "10", cursor: "20", q: "year" })).toEqual({
      experimentId: "exp-1",
      helped: true,
      limit: 10,
      cursor: 20,
      q: "year",
    });
    expect(reflectionQuerySchema.parse({ helped: "false" }).helped).toBe(false);
  });

  it.each([
    [{ helped: "yes" }, "helped"],
    [{ limit: "0" }, "limit"],
    [{ limit: "1000" }, "limit"],
    [{ limit: "ten" }, "limit"],
    [{ cursor: "-1" }, "cursor"],
    [{ experimentId: "  " }, "experimentId"],
  ])("refuses %o, naming %s", (params, name) => {
    const parsed = reflectionQuerySchema.safeParse(params);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.path).toEqual([name]);
  });
});
