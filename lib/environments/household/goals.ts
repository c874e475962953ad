import type { HouseholdTask, HouseholdTaskType } from "./task";
import type { HouseholdWorld, WorldObject } from "./world";

/**
 * The goal checks of the six task types: ALFWorld's PDDL goals
 * (`alfworld/gen/goal_library.py`), stated over the world's state. Success is
 * this check holding after a step (ALFWorld's `won`), never the episode merely
 * ending (reference §3.5, §11 item 1).
 */

/** Objects of `objectType` lying in any receptacle of `receptacleType`. */
function placed(world: HouseholdWorld, objectType: string, receptacleType: string): WorldObject[] {
  return [...world.objects.values()].filter((object) => {
    if (object.type !== objectType || object.location === null) return false;
    return world.receptacles.get(object.location)?.type === receptacleType;
  });
}

/**
 * True when the task's goal holds in `world`:
 * - pick_and_place_simple: an object of the type is in a receptacle of the type;
 * - pick_clean / heat / cool_then_place_in_recep: the same, and that object is clean / hot / cool;
 * - pick_two_obj_and_place: two distinct objects of the type are in one receptacle of the type;
 * - look_at_obj_in_light: the agent holds an object of the type, and a lamp of the
 *   goal's type that has been switched on (`isToggled`) is in a receptacle at the
 *   agent's location (ALFWorld `objectAtLocation` — a receptacle sharing the
 *   agent's place counts).
 */
export function isGoalMet(task: HouseholdTask, world: HouseholdWorld): boolean {
  const { goal } = task;
  const receptacleType = goal.receptacle ?? "";
  switch (task.taskType) {
    case "pick_and_place_simple":
      return placed(world, goal.object, receptacleType).length > 0;
    case "pick_clean_then_place_in_recep":
      return placed(world, goal.object, receptacleType).some((object) => object.clean);
    case "pick_heat_then_place_in_recep":
      return placed(world, goal.object, receptacleType).some((object) => object.hot);
    case "pick_cool_then_place_in_recep":
      return placed(world, goal.object, receptacleType).some((object) => object.cool);
    case "pick_two_obj_and_place": {
      const perReceptacle = new Map<string, number>();
      for (const object of placed(world, goal.object, receptacleType)) {
        const location = object.location ?? "";
        perReceptacle.set(location, (perReceptacle.get(location) ?? 0) + 1);
      }
      return [...perReceptacle.values()].some((count) => count >= 2);
    }
    case "look_at_obj_in_light": {
      const held = world.holding === null ? undefined : world.objects.get(world.holding);
      if (held === undefined || held.type !== goal.object || world.location === null) return false;
      const here = world.location;
      return world.lamps(goal.lamp ?? undefined).some((lamp) => lamp.toggled && lamp.location !== null && world.sameLocation(lamp.location, here));
    }
  }
}

const GOAL_PHRASES: Readonly<Record<HouseholdTaskType, (object: string, receptacle: string, lamp: string) => string>> = {
  pick_and_place_simple: (o, r) => `a ${o} in/on a ${r}`,
  pick_clean_then_place_in_recep: (o, r) => `a clean ${o} in/on a ${r}`,
  pick_heat_then_place_in_recep: (o, r) => `a hot ${o} in/on a ${r}`,
  pick_cool_then_place_in_recep: (o, r) => `a cool ${o} in/on a ${r}`,
  pick_two_obj_and_place: (o, r) => `two ${o}s in/on the same ${r}`,
  look_at_obj_in_light: (o, _r, l) => `a ${o} held where a ${l} is switched on`,
};

/** The goal in words, for the UI and the Evaluator's feedback: e.g. `a clean lettuce in/on a diningtable`. */
export function describeGoal(task: HouseholdTask): string {
  return GOAL_PHRASES[task.taskType](task.goal.object, task.goal.receptacle ?? "", task.goal.lamp ?? "");
}
