import { describe, expect, it } from "vitest";
import type { TrajectoryStep } from "@/lib/domain/environment";
import { builtinQaTasks, createQaEnvironment, detectLoop, evaluateQaTrial, qaActionReading, qaEarlyStop, qaEnvironment } from "@/lib/environments/qa";
import { parseAction } from "@/lib/environments/qa/action-parser";
import { LOOKUP_WITHOUT_PAGE_OBSERVATION, startQaEpisode } from "@/lib/environments/qa/environment";
import { NO_ANSWER_FEEDBACK } from "@/lib/environments/qa/exact-match";
import { loggedSteps } from "./paper-logs";

const task = builtinQaTasks[0]!; // The Glass Orchard → Dunmere → River Sallow

function steps(...pairs: Array<[string, string]>): TrajectoryStep[] {
  return pairs.map(([actionText, observation], index) => ({ step: index + 1, thought: "", actionText, observation }));
}

const notFound: [string, string] = ["Search[Dunmere Abbey]", "Could not find [Dunmere Abbey]. Similar: ['Dunmere']"];
const lookup: [string, string] = ["Lookup[river]", LOOKUP_WITHOUT_PAGE_OBSERVATION];

describe("QA repetition: the same action and observation 3 times in a row", () => {
  it("halts at the third, quoting the action in its canonical form", () => {
    expect(qaEarlyStop(steps(notFound, notFound))).toBeNull();
    expect(qaEarlyStop(steps(notFound, notFound, notFound))).toBe(
      `The same action "Search[Dunmere Abbey]" gave the same observation "Could not find [Dunmere Abbey]. Similar: ['Dunmere']" 3 times in a row.`,
    );
  });

  it("compares actions normalised: verb case, spacing, a label, quotes, trailing punctuation; observations with case folded", () => {
    const variants = steps(
      notFound,
      ["search [dunmere  abbey].", "Could not find [dunmere  abbey]. Similar: ['Dunmere']"],
      ["Action 3: `SEARCH[ Dunmere Abbey ]`", "Could not find [Dunmere Abbey]. Similar: ['Dunmere']"],
    );
    expect(qaEarlyStop(variants)).not.toBeNull();
    expect(qaActionReading.key("Finish[River Sallow.]")).toBe(qaActionReading.key("finish [river sallow]"));
  });

  it("needs consecutive repeats and the same observation (a Lookup that moves on is no loop)", () => {
    const moving = steps(["Lookup[river]", "(Result 1 / 3) a"], ["Lookup[river]", "(Result 2 / 3) b"], ["Lookup[river]", "(Result 3 / 3) c"]);
    expect(qaEarlyStop(moving)).toBeNull();
    expect(qaEarlyStop(steps(notFound, notFound, ["Search[Dunmere]", "Dunmere is a town."], notFound))).toBeNull();
  });

  it("counts repeated invalid actions", () => {
    const invalid: [string, string] = ["I refuse to use the format", "Invalid Action. Valid Actions are Lookup[<topic>] Search[<topic>] and Finish[<answer>]."];
    expect(qaEarlyStop(steps(invalid, invalid, invalid))).toContain('"I refuse to use the format"');
  });

  it("quotes a long observation cut, with an ellipsis", () => {
    const page: [string, string] = ["Search[The Glass Orchard]", "x".repeat(2000)];
    const message = qaEarlyStop(steps(page, page, page))!;
    expect(message.length).toBeLessThan(200);
    expect(message).toContain("…");
  });
});

describe("QA stall: the same verb 3 times in a row with the same observation apart from the echoed argument", () => {
  /**
   * Every run of 3 consecutive failed Searches in the paper's HotpotQA logs whose queries differ but whose
   * suggestion lists are the same (ReAct/base, e.g. "famous bhavageete by Arun Date" → "… in India" →
   * "famous Marathi bhavageete by Arun Date", each "Similar: ['Indian folk music']").
   */
  function realStalls(): TrajectoryStep[][] {
    const logged = loggedSteps();
    const found: TrajectoryStep[][] = [];
    for (let i = 2; i < logged.length; i += 1) {
      const window = [logged[i - 2]!, logged[i - 1]!, logged[i]!];
      if (window.some((step) => step.file !== window[0]!.file || step.step === null || step.observation === null)) continue;
      if (window[1]!.step !== window[0]!.step! + 1 || window[2]!.step !== window[0]!.step! + 2) continue;
      const similar = window.map((step) => /^Could not find \[.*\]\. Similar: (\[.*\])$/s.exec(step.observation!)?.[1] ?? null);
      if (similar.some((list) => list === null) || new Set(similar).size !== 1) continue;
      if (new Set(window.map((step) => qaActionReading.key(step.action))).size === 1) continue; // the same Search: a repetition
      found.push(window.map((step, index) => ({ step: index + 1, thought: step.thought, actionText: step.action, observation: step.observation! })));
    }
    return found;
  }

  it("halts on real logged failed searches with different queries and one suggestion list", () => {
    const stalls = realStalls();
    expect(stalls.length).toBeGreaterThanOrEqual(10);
    for (const stall of stalls) {
      const message = qaEarlyStop(stall);
      expect(message, stall.map((step) => step.actionText).join(" | ")).toMatch(/^3 Search actions in a row \(.*\) gave the same observation apart from the echoed argument: "Could not find \[/);
      expect(qaEarlyStop(stall.slice(0, 2))).toBeNull();
    }
  });

  it("names the queries and quotes the last observation", () => {
    const similar = "Similar: ['Indian folk music']";
    const stall = steps(
      ["Search[famous bhavageete by Arun Date]", `Could not find [famous bhavageete by Arun Date]. ${similar}`],
      ["Search[famous bhavageete by Arun Date in India]", `Could not find [famous bhavageete by Arun Date in India]. ${similar}`],
      ["Search[famous Marathi bhavageete by Arun Date]", `Could not find [famous Marathi bhavageete by Arun Date]. ${similar}`],
    );
    expect(qaEarlyStop(stall)).toBe(
      `3 Search actions in a row ("Search[famous bhavageete by Arun Date]", "Search[famous bhavageete by Arun Date in India]", "Search[famous Marathi bhavageete by Arun Date]") gave the same observation apart from the echoed argument: "Could not find [famous Marathi bhavageete by Arun Date]. Similar: ['Indian folk music']".`,
    );
  });

  it("is no stall when the suggestions differ, or the verbs do", () => {
    expect(
      qaEarlyStop(steps(["Search[a]", "Could not find [a]. Similar: ['x']"], ["Search[b]", "Could not find [b]. Similar: ['y']"], ["Search[c]", "Could not find [c]. Similar: ['x']"])),
    ).toBeNull();
    expect(qaEarlyStop(steps(["Search[a]", "Could not find [a]. Similar: []"], ["Lookup[b]", "Could not find [b]. Similar: []"], ["Search[c]", "Could not find [c]. Similar: []"]))).toBeNull();
  });
});

describe("QA cycles: the same 2 or 3 steps twice in a row", () => {
  it("A, B, A, B with the same observations halts at the fourth step", () => {
    expect(qaEarlyStop(steps(notFound, lookup, notFound))).toBeNull();
    expect(qaEarlyStop(steps(notFound, lookup, notFound, lookup))).toBe(
      `The actions "Search[Dunmere Abbey]", "Lookup[river]" were repeated in the same order with the same observations: a cycle of 2 steps, twice in a row.`,
    );
  });

  it("A, B, C, A, B, C halts at the sixth step", () => {
    const other: [string, string] = ["Search[Glass]", "Could not find [Glass]. Similar: ['The Glass Orchard']"];
    expect(qaEarlyStop(steps(notFound, lookup, other, notFound, lookup))).toBeNull();
    expect(qaEarlyStop(steps(notFound, lookup, other, notFound, lookup, other))).toMatch(/a cycle of 3 steps, twice in a row\.$/);
  });

  it("is no cycle when an observation changed, or an action did", () => {
    expect(qaEarlyStop(steps(notFound, lookup, notFound, ["Lookup[river]", "No Results."]))).toBeNull();
    expect(qaEarlyStop(steps(notFound, lookup, notFound, ["Lookup[town]", LOOKUP_WITHOUT_PAGE_OBSERVATION]))).toBeNull();
    expect(qaEarlyStop(steps(lookup, notFound, lookup, ["Search[Dunmere]", "Dunmere is a town."]))).toBeNull();
  });

  it("the same action four times is repetition, never a 'cycle' of one action", () => {
    const rules = { repeatLimit: 5, cyclePeriods: [2, 3] };
    expect(detectLoop(steps(notFound, notFound, notFound, notFound), qaActionReading, rules)).toBeNull();
    expect(detectLoop(steps(notFound, notFound, notFound, notFound, notFound), qaActionReading, rules)?.kind).toBe("repetition");
  });

  it("is configurable per family instance; the default family uses 3 and [2, 3]", () => {
    expect(createQaEnvironment({ cyclePeriods: [] }).earlyStop?.(steps(notFound, lookup, notFound, lookup))).toBeNull();
    expect(createQaEnvironment({ repeatLimit: 4 }).earlyStop?.(steps(notFound, notFound, notFound))).toBeNull();
    expect(createQaEnvironment({ repeatLimit: Infinity, cyclePeriods: [] }).earlyStop?.(steps(notFound, notFound, notFound, notFound))).toBeNull();
    expect(qaEnvironment.earlyStop?.(steps(notFound, notFound, notFound))).not.toBeNull();
  });
});

describe("the QA Evaluator names the same loop", () => {
  function played(...actions: string[]) {
    const episode = startQaEpisode(task);
    const trajectory: TrajectoryStep[] = actions.map((text, index) => ({ step: index + 1, thought: "", actionText: text, observation: episode.step(parseAction(text)).observation }));
    return { episode, trajectory };
  }

  it("a halted trial's feedback is the no-answer sentence plus the loop's, the same sentence earlyStop gave", () => {
    const { episode, trajectory } = played("Search[Dunmere Abbey]", "Lookup[river]", "Search[Dunmere Abbey]", "Lookup[river]");
    const reason = qaEnvironment.earlyStop?.(trajectory);
    expect(reason).toMatch(/cycle of 2 steps/);
    const verdict = qaEnvironment.evaluate(task, null, episode);
    expect(verdict.feedback).toBe(`${NO_ANSWER_FEEDBACK}. ${reason}`);
    expect(verdict.details.halt).toEqual({ kind: "cycle", message: reason });
  });

  it("a trial without a loop, or with an answer, keeps the plain exact-match feedback", () => {
    const halted = played("Search[The Glass Orchard]", "Search[Dunmere]");
    expect(evaluateQaTrial(task, null, halted.episode)).toMatchObject({ feedback: NO_ANSWER_FEEDBACK, details: { halt: null } });
    const answered = played("Search[Dunmere Abbey]", "Search[Dunmere Abbey]", "Search[Dunmere Abbey]", "Finish[Dunmere]");
    expect(evaluateQaTrial(task, "Dunmere", answered.episode).feedback).toMatch(/does not match/);
  });
});
