import { describe, expect, it } from "vitest";
import type { MemoryItem } from "@/lib/domain/events";
import { foldRun, type StepView, type TrialView } from "@/lib/domain/fold-run";
import {
  alignTrials,
  consecutiveTrialDiffs,
  diffMemory,
  diffTrials,
  firstDivergence,
  loopSteps,
  memoryHistory,
  memoryUnchanged,
  reflectionEditDiff,
} from "@/lib/graph/compare";
import { EventLog, makeRunConfig } from "./fixtures";

/** A step with an action and (unless null) an observation. */
function step(n: number, action: string | null, observation: string | null = `obs of ${action}`): StepView {
  return {
    step: n,
    thought: { trial: 1, step: n, text: `thinking ${n}`, callId: null, eventId: `t${n}` },
    action: action === null ? null : { trial: 1, step: n, text: action, action: null, parseError: null, callId: null, eventId: `a${n}` },
    observation: observation === null ? null : { trial: 1, step: n, text: observation, done: false, answer: null, state: null, eventId: `o${n}` },
  } as StepView;
}

/** A trial whose steps take `actions` in order (observations default to `obs of <action>`). */
function trial(n: number, actions: Array<string | [string, string]>, memory: MemoryItem[] = [], evicted: MemoryItem[] = []): TrialView {
  return {
    trial: n,
    startEventId: `start-${n}`,
    memory,
    evicted,
    steps: actions.map((entry, index) => (typeof entry === "string" ? step(index + 1, entry) : step(index + 1, entry[0], entry[1]))),
    answer: null,
    evaluation: null,
    outcome: null,
    cancelled: false,
    endReason: null,
    reflection: null,
    callIds: [],
    refinements: [],
  };
}

const mem = (id: string, text: string, fromTrial: number | null = 1): MemoryItem => ({ id, text, trial: fromTrial });

describe("firstDivergence", () => {
  it("is null for identical trajectories and for fewer than two runs", () => {
    const run = [trial(1, ["Search[A]", "Finish[x]"])];
    expect(firstDivergence([run, [trial(1, ["Search[A]", "Finish[x]"])]])).toBeNull();
    expect(firstDivergence([run])).toBeNull();
    expect(firstDivergence([])).toBeNull();
  });

  it("finds the first (trial, step) whose action text differs, after an identical shared trial 1", () => {
    const react = [trial(1, ["Search[A]", "Finish[wrong]"]), trial(2, ["Search[A]", "Finish[wrong]"])];
    const reflexion = [trial(1, ["Search[A]", "Finish[wrong]"]), trial(2, ["Search[A]", "Search[B]"])];
    expect(firstDivergence([react, reflexion])).toEqual({ trial: 2, step: 2, kind: "action-differs", ended: [] });
  });

  it("compares action texts exactly (observations do not count)", () => {
    const a = [trial(1, [["Search[A]", "one"]])];
    const b = [trial(1, [["Search[A]", "another observation"]])];
    expect(firstDivergence([a, b])).toBeNull();
    expect(firstDivergence([[trial(1, ["Search[A]"])], [trial(1, ["Search[a]"])]])?.kind).toBe("action-differs");
  });

  it("reports where one trajectory ends inside a trial while another goes on", () => {
    const short = [trial(1, ["Search[A]"])];
    const long = [trial(1, ["Search[A]", "Search[B]"])];
    expect(firstDivergence([short, long])).toEqual({ trial: 1, step: 2, kind: "trajectory-ends", ended: [0] });
  });

  it("reports a run that stopped (first success) while the other starts another trial", () => {
    const solved = [trial(1, ["Finish[x]"])];
    const goesOn = [trial(1, ["Finish[x]"]), trial(2, ["Search[A]"])];
    expect(firstDivergence([goesOn, solved])).toEqual({ trial: 2, step: 1, kind: "trajectory-ends", ended: [1] });
  });

  it("ignores a step still waiting for its action, and handles three runs", () => {
    const waiting = trial(1, ["Search[A]"]);
    waiting.steps.push(step(2, null, null));
    expect(firstDivergence([[waiting], [trial(1, ["Search[A]"])]])).toBeNull();
    const three = firstDivergence([[trial(1, ["Search[A]", "X"])], [trial(1, ["Search[A]", "X"])], [trial(1, ["Search[A]", "Y"])]]);
    expect(three).toEqual({ trial: 1, step: 2, kind: "action-differs", ended: [] });
  });

  it("reads steps in step order even when they were recorded out of order", () => {
    const shuffled = trial(1, ["Search[A]", "Search[B]"]);
    shuffled.steps.reverse();
    expect(firstDivergence([[shuffled], [trial(1, ["Search[A]", "Search[C]"])]])).toMatchObject({ trial: 1, step: 2 });
  });
});

describe("alignTrials", () => {
  it("puts trial k of every run in row k, null where a run has no such trial", () => {
    const rows = alignTrials([[trial(1, []), trial(2, [])], [trial(1, [])]]);
    expect(rows.map((row) => row.trial)).toEqual([1, 2]);
    expect(rows[1]!.lanes[0]?.trial).toBe(2);
    expect(rows[1]!.lanes[1]).toBeNull();
    expect(alignTrials([[], []])).toEqual([]);
  });
});

describe("loopSteps and diffTrials", () => {
  it("flags a step that repeats an earlier action with the same observation, not one with a new observation", () => {
    const t = trial(1, [
      ["go to desk 1", "On the desk 1, you see a mug."],
      ["take mug 1 from desk 1", "You pick up the mug 1."],
      ["go to desk 1", "On the desk 1, you see nothing."],
      ["go to desk 1", "On the desk 1, you see nothing."],
    ]);
    expect([...loopSteps(t)]).toEqual([4]);
  });

  it("aligns consecutive trials step by step and marks same / changed / added / removed", () => {
    const before = trial(1, ["Search[Dunmere]", "Lookup[river]", "Finish[Thames]"]);
    const after = trial(2, ["Search[Dunmere]", "Search[Vell river]"]);
    const diff = diffTrials(before, after);
    expect(diff.rows.map((row) => row.change)).toEqual(["same", "changed", "removed"]);
    expect(diff.firstChangedStep).toBe(2);
    const changed = diff.rows[1]!.actionDiff!;
    // A word diff (jsdiff): the verb and the new word change, "river" and the brackets are kept.
    expect(changed.filter((part) => part.removed).map((part) => part.value).join("")).toContain("Lookup");
    expect(changed.filter((part) => part.added).map((part) => part.value).join("")).toMatch(/Search.*Vell|Vell.*Search/s);
    expect(changed.filter((part) => !part.added && !part.removed).map((part) => part.value).join("")).toContain("river");
    const longer = diffTrials(after, before);
    expect(longer.rows.at(-1)!.change).toBe("added");
  });

  it("counts loops per trial and reports no change for identical trials", () => {
    const looping = trial(2, [["look", "You see a room."], ["look", "You see a room."]]);
    const diff = diffTrials(trial(1, ["look", "go to desk 1"]), looping);
    expect(diff.loopsAfter).toBe(1);
    expect(diff.loopsBefore).toBe(0);
    expect(diff.rows[1]!.after?.loop).toBe(true);
    expect(diffTrials(trial(1, ["a", "b"]), trial(2, ["a", "b"])).firstChangedStep).toBeNull();
  });

  it("diffs every consecutive pair in trial order", () => {
    const diffs = consecutiveTrialDiffs([trial(3, ["c"]), trial(1, ["a"]), trial(2, ["b"])]);
    expect(diffs.map((diff) => [diff.before, diff.after])).toEqual([
      [1, 2],
      [2, 3],
    ]);
    expect(consecutiveTrialDiffs([trial(1, ["a"])])).toEqual([]);
  });
});

describe("diffMemory", () => {
  it("trial 1 against an empty memory: nothing changed", () => {
    const diff = diffMemory(null, trial(1, []));
    expect(memoryUnchanged(diff)).toBe(true);
    expect(diff.before).toBeNull();
  });

  it("tells entered, evicted by Ω, deleted by an edit, edited and kept apart", () => {
    const r1 = mem("r1", "Search the town first.");
    const r2 = mem("r2", "Finish with the river's name.", 2);
    const r3 = mem("r3", "Check the founder.", 3);
    const hand = mem("h1", "A teacher's hint.", null);
    const before = trial(3, [], [r1, r2, hand]);
    const after = trial(4, [], [{ ...r2, text: "Finish with the river's full name." }, r3], [r1]);
    const diff = diffMemory(before, after);
    expect(diff.entered.map((item) => item.id)).toEqual(["r3"]);
    expect(diff.evicted.map((item) => item.id)).toEqual(["r1"]);
    expect(diff.removed.map((item) => item.id)).toEqual(["h1"]);
    expect(diff.edited.map((item) => item.id)).toEqual(["r2"]);
    expect(diff.edited[0]!.changes.filter((part) => part.added).map((part) => part.value.trim())).toContain("full");
    expect(diff.kept).toEqual([]);
    expect(memoryUnchanged(diff)).toBe(false);
  });

  it("memoryHistory over a folded log: the reflection enters trial 2, a reflection-edit shows as edited in trial 3", () => {
    const log = new EventLog();
    log.add("run-start", { config: makeRunConfig({ maxTrials: 3 }) });
    log.add("trial-start", { trial: 1, memory: [], evicted: [] });
    log.step(1, 1, "t", { text: "Finish[wrong]", type: "Finish", argument: "wrong" }, { text: "Episode finished", done: true, answer: "wrong" });
    log.add("trial-end", { trial: 1, outcome: "failure", reason: "wrong answer" });
    const call = log.call("reflector", 1, null, "reflect", "lesson");
    const reflection = log.add("reflection-end", { trial: 1, text: "Look up the founder.", callId: call });
    log.add("trial-start", { trial: 2, memory: [{ id: reflection.id, text: "Look up the founder.", trial: 1 }], evicted: [] });
    log.step(2, 1, "t", { text: "Finish[still wrong]", type: "Finish", argument: "still wrong" }, { text: "Episode finished", done: true, answer: "still wrong" });
    log.add("trial-end", { trial: 2, outcome: "failure", reason: "wrong answer" });
    log.add("reflection-edit", { reflectionEventId: reflection.id, oldText: "Look up the founder.", newText: "Look up the founder's ship.", note: null });
    log.add("trial-start", { trial: 3, memory: [{ id: reflection.id, text: "Look up the founder's ship.", trial: 1 }], evicted: [] });
    const state = foldRun(log.events);
    const history = memoryHistory(state.trials);
    expect(history.map((diff) => diff.after)).toEqual([1, 2, 3]);
    expect(history[1]!.entered.map((item) => item.text)).toEqual(["Look up the founder."]);
    expect(history[2]!.edited.map((item) => [item.oldText, item.newText])).toEqual([["Look up the founder.", "Look up the founder's ship."]]);
    // The folded reflection carries the edit: the model's text vs now.
    const edit = reflectionEditDiff(state.trials[0]!.reflection);
    expect(edit?.some((part) => part.added)).toBe(true);
    expect(reflectionEditDiff(null)).toBeNull();
  });
});
