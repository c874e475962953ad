import { describe, expect, it } from "vitest";
import { parseAction } from "@/lib/environments/household/commands";
import { HouseholdEpisode } from "@/lib/environments/household/episode";
import { expertPlan } from "@/lib/environments/household/expert";
import { ROOMS_FOR_TASK, generateHouseholdTask, generateHouseholdTaskSet } from "@/lib/environments/household/generator";
import { isGoalMet } from "@/lib/environments/household/goals";
import { createRandom, mulberry32 } from "@/lib/environments/household/prng";
import { HOUSEHOLD_TASK_TYPES, householdTaskSchema, parseTaskDescription, typeOfName } from "@/lib/environments/household/task";

describe("mulberry32", () => {
  it("is deterministic per seed and stays in [0, 1)", () => {
    const a = mulberry32(42);
    const b = mulberry32(42);
    const first = Array.from({ length: 1000 }, () => a());
    expect(Array.from({ length: 1000 }, () => b())).toEqual(first);
    expect(first.every((value) => value >= 0 && value < 1)).toBe(true);
    expect(mulberry32(43)()).not.toBe(first[0]);
  });

  it("matches the reference mulberry32 (seed 1 → 0.62707394…, 0.00273572…, 0.52744704…)", () => {
    const next = mulberry32(1);
    expect([next(), next(), next()].map((value) => value.toFixed(10))).toEqual(["0.6270739406", "0.0027357212", "0.5274470400"]);
  });

  it("helpers: int is inclusive, shuffle keeps the elements", () => {
    const random = createRandom(7);
    const ints = Array.from({ length: 500 }, () => random.int(1, 3));
    expect(new Set(ints)).toEqual(new Set([1, 2, 3]));
    expect(random.shuffle([1, 2, 3, 4, 5]).sort()).toEqual([1, 2, 3, 4, 5]);
  });
});

describe("generateHouseholdTask", () => {
  it("is deterministic: the same type and seed give the same task", () => {
    for (const taskType of HOUSEHOLD_TASK_TYPES) {
      expect(generateHouseholdTask({ taskType, seed: 5 })).toEqual(generateHouseholdTask({ taskType, seed: 5 }));
    }
    expect(generateHouseholdTask({ taskType: "pick_and_place_simple", seed: 1 })).not.toEqual(generateHouseholdTask({ taskType: "pick_and_place_simple", seed: 2 }));
  });

  it("builds plausible rooms of every kind each task type allows", () => {
    for (const taskType of HOUSEHOLD_TASK_TYPES) {
      for (const room of ROOMS_FOR_TASK[taskType]) {
        const task = generateHouseholdTask({ taskType, seed: 3, room });
        expect(task.room).toBe(room);
        const types = new Set(task.scene.receptacles.map((receptacle) => typeOfName(receptacle.name)));
        if (room === "kitchen") expect([...types]).toEqual(expect.arrayContaining(["fridge", "microwave", "sinkbasin", "stoveburner"]));
        if (room === "bathroom") expect([...types]).toEqual(expect.arrayContaining(["toilet", "sinkbasin"]));
        if (room === "bedroom") expect([...types]).toEqual(expect.arrayContaining(["bed", "desk"]));
        if (room === "livingroom") expect([...types]).toEqual(expect.arrayContaining(["sofa", "coffeetable"]));
      }
    }
  });

  it("produces complete JSON snapshots whose sentence states the goal", () => {
    for (const task of generateHouseholdTaskSet(10)) {
      expect(householdTaskSchema.parse(JSON.parse(JSON.stringify(task)))).toEqual(task);
      expect(parseTaskDescription(task.description)).toEqual({ taskType: task.taskType, goal: task.goal });
    }
  });

  it(
    "100 scenes per task type: the goal is not met at the start and the scripted expert solves every one",
    () => {
      const started = Date.now();
      for (const taskType of HOUSEHOLD_TASK_TYPES) {
        for (let seed = 1; seed <= 100; seed += 1) {
          const task = generateHouseholdTask({ taskType, seed });
          const episode = new HouseholdEpisode(task);
          expect(isGoalMet(task, episode.world), `${task.id} starts solved`).toBe(false);
          // No object of the goal's type starts in a receptacle of the goal's type.
          for (const object of task.scene.objects) {
            if (typeOfName(object.name) === task.goal.object) expect(typeOfName(object.in)).not.toBe(task.goal.receptacle);
          }
          const plan = expertPlan(task);
          expect(plan, `${task.id} has no plan`).not.toBeNull();
          const results = (plan ?? []).map((action) => episode.step(parseAction(action)));
          expect(results.some((result) => result.observation === "Nothing happens."), `${task.id}: ${JSON.stringify(plan)}`).toBe(false);
          expect(results.at(-1)?.done, `${task.id} not solved by ${JSON.stringify(plan)}`).toBe(true);
          expect(results.slice(0, -1).some((result) => result.done)).toBe(false);
          expect(episode.won).toBe(true);
        }
      }
      expect(Date.now() - started).toBeLessThan(20_000);
    },
    30_000,
  );
});
