import { APPLIANCE_FOR } from "./catalogue";
import { compareEntityNames } from "./feedback";
import { typeOfName, type HouseholdTask, type ObjectSpec } from "./task";

/**
 * An omniscient scripted expert: it reads the whole scene and writes the
 * shortest sensible command sequence for the task (fetch the object, open what
 * is closed, use the appliance or the lamp, put it in the first target
 * receptacle). It is used to prove that scenes are solvable, and can show a
 * reference solution. It does not simulate the world; replay its plan in an
 * episode to check it.
 */

const NEEDS: Readonly<Partial<Record<HouseholdTask["taskType"], { verb: "heat" | "cool" | "clean"; property: "heatable" | "coolable" | "cleanable" }>>> = {
  pick_heat_then_place_in_recep: { verb: "heat", property: "heatable" },
  pick_cool_then_place_in_recep: { verb: "cool", property: "coolable" },
  pick_clean_then_place_in_recep: { verb: "clean", property: "cleanable" },
};

/**
 * The expert's commands for `task`, or null when the scene lacks what the task
 * needs (no suitable object, target receptacle, appliance or lamp).
 */
export function expertPlan(task: HouseholdTask): string[] | null {
  const { scene, goal } = task;
  const openable = new Map(scene.receptacles.map((receptacle) => [receptacle.name, receptacle.openable]));
  const opened = new Map(scene.receptacles.map((receptacle) => [receptacle.name, receptacle.openable && receptacle.opened]));
  const place = new Map(scene.receptacles.map((receptacle) => [receptacle.name, receptacle.location === undefined ? receptacle.name : `#${receptacle.location}`]));
  const plan: string[] = [];
  let location: string | null = null;

  // At a receptacle sharing the agent's location, "go to" would be "Nothing happens.": the agent is already there.
  const goTo = (receptacle: string) => {
    if (location === null || place.get(location) !== place.get(receptacle)) {
      plan.push(`go to ${receptacle}`);
      location = receptacle;
    }
  };
  const openIfClosed = (receptacle: string) => {
    if (openable.get(receptacle) === true && opened.get(receptacle) !== true) {
      plan.push(`open ${receptacle}`);
      opened.set(receptacle, true);
    }
  };
  const fetch = (object: ObjectSpec) => {
    goTo(object.in);
    openIfClosed(object.in);
    plan.push(`take ${object.name} from ${object.in}`);
  };
  const putInto = (object: string, receptacle: string) => {
    goTo(receptacle);
    openIfClosed(receptacle);
    plan.push(`put ${object} in/on ${receptacle}`);
  };

  const need = NEEDS[task.taskType];
  const candidates = scene.objects
    .filter((object) => typeOfName(object.name) === goal.object && object.properties.includes("pickupable"))
    .filter((object) => need === undefined || object.properties.includes(need.property))
    .sort((a, b) => compareEntityNames(b.name, a.name));
  const first = candidates[0];
  if (first === undefined) return null;

  if (task.taskType === "look_at_obj_in_light") {
    const lamp = scene.objects.find((object) => typeOfName(object.name) === goal.lamp && object.properties.includes("toggleable"));
    if (lamp === undefined) return null;
    fetch(first);
    goTo(lamp.in);
    plan.push(`use ${lamp.name}`);
    return plan;
  }

  const target = scene.receptacles
    .map((receptacle) => receptacle.name)
    .filter((name) => typeOfName(name) === goal.receptacle)
    .sort((a, b) => compareEntityNames(b, a))[0];
  if (target === undefined) return null;

  if (task.taskType === "pick_two_obj_and_place") {
    const second = candidates[1];
    if (second === undefined) return null;
    fetch(first);
    putInto(first.name, target);
    fetch(second);
    putInto(second.name, target);
    return plan;
  }

  fetch(first);
  if (need !== undefined) {
    const appliance = scene.receptacles.find((receptacle) => typeOfName(receptacle.name) === APPLIANCE_FOR[need.verb]);
    if (appliance === undefined) return null;
    goTo(appliance.name);
    plan.push(`${need.verb} ${first.name} with ${appliance.name}`);
  }
  putInto(first.name, target);
  return plan;
}
