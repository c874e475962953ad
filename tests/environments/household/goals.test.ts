import { describe, expect, it } from "vitest";
import { parseAction } from "@/lib/environments/household/commands";
import { HouseholdEpisode } from "@/lib/environments/household/episode";
import { evaluateHousehold } from "@/lib/environments/household/evaluator";
import { describeGoal, isGoalMet } from "@/lib/environments/household/goals";
import type { HouseholdTask } from "@/lib/environments/household/task";
import { STUDIO, play, studioTask } from "./fixtures";

/** Plays the actions and returns, per step, whether the episode reported `done`. */
function doneFlags(task: HouseholdTask, actions: readonly string[]): boolean[] {
  const episode = new HouseholdEpisode(task);
  return actions.map((action) => episode.step(parseAction(action)).done);
}

function verdictAfter(task: HouseholdTask, actions: readonly string[]) {
  const { episode } = play(task, actions);
  return evaluateHousehold(task, null, episode);
}

describe("pick_and_place_simple", () => {
  const task = studioTask("pick_and_place_simple", "put some pencil on desk.", { object: "pencil", receptacle: "desk" });
  const solution = ["go to shelf 1", "take pencil 2 from shelf 1", "go to desk 1", "put pencil 2 in/on desk 1"];

  it("is met exactly when an object of the type is in a receptacle of the type", () => {
    expect(doneFlags(task, solution)).toEqual([false, false, false, true]);
    expect(verdictAfter(task, solution)).toMatchObject({ verdict: "pass", score: 1, evaluatorKind: "environment-success", oracle: false });
  });

  it("the episode ending without the goal is a failure, however it ends", () => {
    expect(verdictAfter(task, solution.slice(0, 3))).toMatchObject({ verdict: "fail", score: 0 });
    expect(verdictAfter(task, [])).toMatchObject({ verdict: "fail" });
    expect(verdictAfter(task, ["go to shelf 1", "take pencil 2 from shelf 1", "go to diningtable 1", "put pencil 2 in/on diningtable 1"]).verdict).toBe("fail");
  });

  it("another object type in the right receptacle does not count", () => {
    expect(verdictAfter(task, ["go to countertop 1", "take mug 1 from countertop 1", "go to desk 1", "put mug 1 in/on desk 1"]).verdict).toBe("fail");
  });
});

describe("pick_clean_then_place_in_recep", () => {
  const task = studioTask("pick_clean_then_place_in_recep", "put a clean apple in diningtable.", { object: "apple", receptacle: "diningtable" });

  it("needs the object cleaned before it is placed", () => {
    const dirty = ["go to countertop 1", "take apple 1 from countertop 1", "go to diningtable 1", "put apple 1 in/on diningtable 1"];
    expect(verdictAfter(task, dirty).verdict).toBe("fail");
    const clean = ["go to countertop 1", "take apple 1 from countertop 1", "go to sinkbasin 1", "clean apple 1 with sinkbasin 1", "go to diningtable 1", "put apple 1 in/on diningtable 1"];
    expect(doneFlags(task, clean)).toEqual([false, false, false, false, false, true]);
  });
});

describe("pick_heat_then_place_in_recep", () => {
  const task = studioTask("pick_heat_then_place_in_recep", "heat some egg and put it in diningtable.", { object: "egg", receptacle: "diningtable" });
  const fetchEgg = ["open fridge 1", "take egg 1 from fridge 1"];

  it("needs the object hot when placed; cooling it afterwards undoes the heat", () => {
    expect(verdictAfter(task, [...fetchEgg, "go to microwave 1", "heat egg 1 with microwave 1", "go to diningtable 1", "put egg 1 in/on diningtable 1"]).verdict).toBe("pass");
    expect(
      verdictAfter(task, [...fetchEgg, "go to microwave 1", "heat egg 1 with microwave 1", "go to fridge 1", "cool egg 1 with fridge 1", "go to diningtable 1", "put egg 1 in/on diningtable 1"]).verdict,
    ).toBe("fail");
    expect(verdictAfter(task, [...fetchEgg, "go to diningtable 1", "put egg 1 in/on diningtable 1"]).verdict).toBe("fail");
  });
});

describe("pick_cool_then_place_in_recep", () => {
  const task = studioTask("pick_cool_then_place_in_recep", "put a cool mug in cabinet.", { object: "mug", receptacle: "cabinet" });

  it("needs the object cool when placed", () => {
    const base = ["go to countertop 1", "take mug 1 from countertop 1"];
    expect(verdictAfter(task, [...base, "go to fridge 1", "cool mug 1 with fridge 1", "go to cabinet 2", "put mug 1 in/on cabinet 2"]).verdict).toBe("pass");
    expect(verdictAfter(task, [...base, "go to cabinet 2", "put mug 1 in/on cabinet 2"]).verdict).toBe("fail");
  });
});

describe("pick_two_obj_and_place", () => {
  const room = { ...STUDIO, "desk 2": {} };
  const task = studioTask("pick_two_obj_and_place", "put two pencil in desk.", { object: "pencil", receptacle: "desk" }, room);
  const first = ["go to shelf 1", "take pencil 1 from shelf 1", "go to desk 1", "put pencil 1 in/on desk 1"];

  it("needs two distinct objects of the type in the same receptacle", () => {
    const both = [...first, "go to shelf 1", "take pencil 2 from shelf 1", "go to desk 1", "put pencil 2 in/on desk 1"];
    expect(doneFlags(task, both)).toEqual([false, false, false, false, false, false, false, true]);
    expect(verdictAfter(task, first).verdict).toBe("fail");
    const split = [...first, "go to shelf 1", "take pencil 2 from shelf 1", "go to desk 2", "put pencil 2 in/on desk 2"];
    expect(verdictAfter(task, split).verdict).toBe("fail");
  });
});

describe("look_at_obj_in_light", () => {
  const task = studioTask("look_at_obj_in_light", "examine the pen with the desklamp.", { object: "pen", lamp: "desklamp" });

  it("is met when the agent holds the object where a switched-on lamp is", () => {
    expect(doneFlags(task, ["go to desk 1", "take pen 1 from desk 1", "use desklamp 1"])).toEqual([false, false, true]);
    // Lamp first, then pick up the object at the lamp: met on the take.
    expect(doneFlags(task, ["go to desk 1", "use desklamp 1", "take pen 1 from desk 1"])).toEqual([false, false, true]);
  });

  it("is not met away from the lamp, without holding the object, or holding another object", () => {
    expect(verdictAfter(task, ["go to desk 1", "use desklamp 1", "take pen 1 from desk 1"].slice(0, 2)).verdict).toBe("fail");
    expect(verdictAfter(task, ["go to desk 1", "take pen 1 from desk 1", "go to shelf 1", "use desklamp 1"]).verdict).toBe("fail");
    const bookTask = studioTask("look_at_obj_in_light", "examine the pencil with the desklamp.", { object: "pencil", lamp: "desklamp" });
    expect(verdictAfter(bookTask, ["go to desk 1", "take pen 1 from desk 1", "use desklamp 1"]).verdict).toBe("fail");
  });
});

describe("after the goal is met", () => {
  const task = studioTask("look_at_obj_in_light", "examine the pen with the desklamp.", { object: "pen", lamp: "desklamp" });

  it("the world is frozen and repeats the winning observation (TextWorld's batch env; react_examine_*)", () => {
    const episode = new HouseholdEpisode(task);
    for (const action of ["go to desk 1", "take pen 1 from desk 1", "use desklamp 1"]) episode.step(parseAction(action));
    const after = episode.step(parseAction("put pen 1 in/on desk 1"));
    expect(after).toMatchObject({ observation: "You turn on the desklamp 1.", done: true, answer: null });
    expect(episode.snapshot()).toEqual({ location: "desk 1", inventory: ["pen 1"] });
    expect(episode.history.map((step) => step.afterWin)).toEqual([false, false, false, true]);
    expect(isGoalMet(task, episode.world)).toBe(true);
    expect(evaluateHousehold(task, null, episode)).toMatchObject({ verdict: "pass", details: { steps: 3 } });
  });
});

describe("describeGoal", () => {
  it("words each goal for the UI and the Evaluator", () => {
    expect(describeGoal(studioTask("pick_two_obj_and_place", "put two pencil in desk.", { object: "pencil", receptacle: "desk" }))).toBe(
      "two pencils in/on the same desk",
    );
    expect(describeGoal(studioTask("look_at_obj_in_light", "look at pen under the desklamp.", { object: "pen", lamp: "desklamp" }))).toBe(
      "a pen held where a desklamp is switched on",
    );
  });
});
