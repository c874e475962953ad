import { describe, expect, it } from "vitest";
import { isAppError } from "@/lib/domain/errors";
import { builtinHouseholdTasks, householdEnvironment, importHouseholdTaskSet } from "@/lib/environments/household";
import { expertPlan } from "@/lib/environments/household/expert";
import { generateHouseholdTask } from "@/lib/environments/household/generator";
import { parseHouseholdTask, parseTaskDescription } from "@/lib/environments/household/task";
import { play } from "./fixtures";
import { readReactAlfworld } from "./shared-data";

function thrown(action: () => unknown): unknown {
  try {
    action();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe("parseTaskDescription (ALFWorld's task sentences)", () => {
  it.each([
    ["put some spraybottle on toilet.", "pick_and_place_simple", { object: "spraybottle", receptacle: "toilet", lamp: null }],
    ["find some apple and put it in sidetable.", "pick_and_place_simple", { object: "apple", receptacle: "sidetable", lamp: null }],
    ["put a clean lettuce in diningtable.", "pick_clean_then_place_in_recep", { object: "lettuce", receptacle: "diningtable", lamp: null }],
    ["clean some apple and put it in sidetable.", "pick_clean_then_place_in_recep", { object: "apple", receptacle: "sidetable", lamp: null }],
    ["heat some egg and put it in diningtable.", "pick_heat_then_place_in_recep", { object: "egg", receptacle: "diningtable", lamp: null }],
    ["put a hot apple in fridge.", "pick_heat_then_place_in_recep", { object: "apple", receptacle: "fridge", lamp: null }],
    ["cool some pan and put it in stoveburner.", "pick_cool_then_place_in_recep", { object: "pan", receptacle: "stoveburner", lamp: null }],
    ["put a cool mug in shelf.", "pick_cool_then_place_in_recep", { object: "mug", receptacle: "shelf", lamp: null }],
    ["put two creditcard in dresser.", "pick_two_obj_and_place", { object: "creditcard", receptacle: "dresser", lamp: null }],
    ["find two cellphone and put them in sofa.", "pick_two_obj_and_place", { object: "cellphone", receptacle: "sofa", lamp: null }],
    ["look at bowl under the desklamp.", "look_at_obj_in_light", { object: "bowl", receptacle: null, lamp: "desklamp" }],
    ["Examine the pen with the desklamp", "look_at_obj_in_light", { object: "pen", receptacle: null, lamp: "desklamp" }],
  ])("%s", (sentence, taskType, goal) => {
    expect(parseTaskDescription(sentence)).toEqual({ taskType, goal });
  });

  it("rejects other sentences", () => {
    expect(parseTaskDescription("make me a sandwich.")).toBeNull();
    expect(parseTaskDescription("put a mug.")).toBeNull();
  });
});

describe("parseHouseholdTask", () => {
  const valid = builtinHouseholdTasks[1]!;

  it("accepts the built-in tasks and their JSON round trip", () => {
    for (const task of builtinHouseholdTasks) expect(parseHouseholdTask(JSON.parse(JSON.stringify(task)))).toEqual(task);
  });

  it("names every broken field", () => {
    const error = thrown(() => parseHouseholdTask({ ...valid, scene: { ...valid.scene, objects: [{ name: "Mug", in: "shelf 1", properties: ["flying"] }] } }));
    expect(isAppError(error, "invalid-dataset")).toBe(true);
    expect((error as Error).message).toMatch(/scene\.objects\.0\.name: .*; scene\.objects\.0\.properties\.0: /);
  });

  it("checks the scene and the goal against each other", () => {
    const inconsistent = {
      ...valid,
      goal: { object: "creditcard", receptacle: "bathtub" },
      scene: {
        receptacles: [...valid.scene.receptacles, valid.scene.receptacles[0]],
        objects: [...valid.scene.objects, { name: "mug 1", in: "shelf 9", properties: [] }, { name: "mug 1", in: "shelf 1", properties: [] }],
      },
    };
    const message = (thrown(() => parseHouseholdTask(inconsistent)) as Error).message;
    for (const part of ['duplicate receptacle "armchair 1"', '"shelf 9" is not a receptacle of the scene', 'duplicate name "mug 1"', 'no receptacle of type "bathtub"']) {
      expect(message).toContain(part);
    }
  });

  it("an examine task needs a lamp; the others a target receptacle", () => {
    expect(thrown(() => parseHouseholdTask({ ...valid, taskType: "look_at_obj_in_light" }))).toBeDefined();
    expect(thrown(() => parseHouseholdTask({ ...valid, goal: { object: "creditcard", receptacle: null } }))).toBeDefined();
  });
});

describe("the built-in tasks", () => {
  it("one per task type, ids in order, starting with the mug and the desklamp", () => {
    expect(builtinHouseholdTasks.map((task) => task.id)).toEqual([1, 2, 3, 4, 5, 6].map((n) => `household-builtin-0${n}`));
    expect(new Set(builtinHouseholdTasks.map((task) => task.taskType)).size).toBe(6);
    expect(builtinHouseholdTasks[0]).toMatchObject({ description: "examine the mug with the desklamp.", taskType: "look_at_obj_in_light" });
  });

  it.each(builtinHouseholdTasks.map((task) => [task.id, task] as const))("%s is solvable and not solved at the start", (_, task) => {
    const plan = expertPlan(task) ?? [];
    const { episode, observations } = play(task, plan);
    expect(episode.won).toBe(true);
    expect(observations).not.toContain("Nothing happens.");
    expect(householdEnvironment.summarize(task)).toMatchObject({ id: task.id, title: task.description, reference: expect.stringMatching(/^Goal: /) });
  });
});

describe("importHouseholdTaskSet", () => {
  it("loads an array of tasks in our schema, reporting broken entries and duplicate ids", () => {
    const generated = generateHouseholdTask({ taskType: "pick_two_obj_and_place", seed: 9 });
    const content = JSON.stringify([builtinHouseholdTasks[0], { id: "broken" }, generated, builtinHouseholdTasks[0], 42]);
    const { tasks, problems } = importHouseholdTaskSet(content);
    expect(tasks.map((task) => task.id)).toEqual(["household-builtin-01", generated.id]);
    expect(problems).toHaveLength(3);
    expect(problems[0]).toMatch(/^entry 1 \(broken\): /);
    expect(problems[1]).toBe('entry 3 (household-builtin-01): duplicate task id "household-builtin-01", skipped');
    expect(problems[2]).toMatch(/^entry 4: /);
  });

  it("loads an object of ALFWorld transcripts as tasks whose transcripts solve them", () => {
    const { tasks, problems } = importHouseholdTaskSet(readReactAlfworld());
    expect(problems).toEqual([]);
    expect(tasks).toHaveLength(24);
    expect(tasks[0]).toMatchObject({ id: "react_put_0", description: "put some spraybottle on toilet.", source: "transcript react_put_0" });
    expect(importHouseholdTaskSet(JSON.stringify({ good: JSON.parse(readReactAlfworld()).act_put_1, bad: "hello", odd: 1 })).problems).toHaveLength(2);
  });

  it("rejects files that are not JSON arrays or objects", () => {
    for (const content of ["nope", "3", '"text"']) expect(isAppError(thrown(() => importHouseholdTaskSet(content)), "invalid-dataset")).toBe(true);
  });
});
