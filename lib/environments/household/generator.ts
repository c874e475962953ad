import {
  ALWAYS_OPENABLE_RECEPTACLE_TYPES,
  APPLIANCE_FOR,
  ROOM_LAYOUTS,
  defaultProperties,
  foundIn,
  isOpenableByDefault,
  objectTypesOfRoom,
  type HouseholdProperty,
  type RoomKind,
} from "./catalogue";
import { createRandom, type Random } from "./prng";
import {
  DESCRIPTION_TEMPLATES,
  HOUSEHOLD_TASK_TYPES,
  PROMPT_KEY,
  describeTask,
  parseHouseholdTask,
  type HouseholdGoal,
  type HouseholdTask,
  type HouseholdTaskType,
  type ObjectSpec,
  type ReceptacleSpec,
} from "./task";

/**
 * Seeded generation of plausible household tasks: a room of a kind (kitchen,
 * bathroom, bedroom, living room) furnished after ALFWorld's rooms — some
 * receptacles sharing a location, as there ({@link SHARED_LOCATIONS}) — a goal of
 * the requested type, the goal's objects hidden in plausible places and a dozen
 * distractors. The same `(taskType, seed, room)` always gives the same task
 * (mulberry32, prng.ts). The result is a full snapshot: a run of it never
 * depends on this generator's version.
 *
 * Guarantees (tested by replaying an omniscient expert, expert.ts): the goal
 * is not met at the start, no object of the goal's type starts in a receptacle
 * of the goal's type, the required appliance or lamp exists, and the goal's
 * objects have the property the task needs.
 */

/** Options of {@link generateHouseholdTask}. */
export interface GenerateHouseholdTaskOptions {
  taskType: HouseholdTaskType;
  /** Any integer. */
  seed: number;
  /** The room kind; by default one that suits the task type, chosen by the seed. */
  room?: RoomKind;
}

/** The room kinds that can host each task type (heat/cool need a kitchen, examine a lamp, clean a sink). */
export const ROOMS_FOR_TASK: Readonly<Record<HouseholdTaskType, readonly RoomKind[]>> = {
  pick_and_place_simple: ["kitchen", "bathroom", "bedroom", "livingroom"],
  look_at_obj_in_light: ["bedroom", "livingroom"],
  pick_clean_then_place_in_recep: ["kitchen", "bathroom"],
  pick_heat_then_place_in_recep: ["kitchen"],
  pick_cool_then_place_in_recep: ["kitchen"],
  pick_two_obj_and_place: ["kitchen", "bathroom", "bedroom", "livingroom"],
};

const REQUIRED_PROPERTY: Readonly<Record<HouseholdTaskType, HouseholdProperty>> = {
  pick_and_place_simple: "pickupable",
  look_at_obj_in_light: "pickupable",
  pick_clean_then_place_in_recep: "cleanable",
  pick_heat_then_place_in_recep: "heatable",
  pick_cool_then_place_in_recep: "coolable",
  pick_two_obj_and_place: "pickupable",
};

const APPLIANCE: Partial<Record<HouseholdTaskType, string>> = {
  pick_clean_then_place_in_recep: APPLIANCE_FOR.clean,
  pick_heat_then_place_in_recep: APPLIANCE_FOR.heat,
  pick_cool_then_place_in_recep: APPLIANCE_FOR.cool,
};

/** FNV-1a over a string, for mixing the task type into the seed. */
function hashString(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

function furnish(room: RoomKind, random: Random): ReceptacleSpec[] {
  const receptacles: ReceptacleSpec[] = [];
  for (const [type, [min, max]] of Object.entries(ROOM_LAYOUTS[room])) {
    const count = random.int(min, max);
    for (let number = 1; number <= count; number += 1) {
      const openable = ALWAYS_OPENABLE_RECEPTACLE_TYPES.has(type) || (isOpenableByDefault(type) && random.chance(0.8));
      receptacles.push({ name: `${type} ${number}`, openable, opened: false });
    }
  }
  return receptacles;
}

/**
 * Receptacle types whose instances stand in pairs at one location, and how often
 * (per pair), by room kind: ALFWorld's rooms put several receptacles at one
 * spot — stacked cabinets and drawers, a stove's burners, a double sink, a
 * bookcase's shelves — so that going from one to its neighbour is "Nothing
 * happens." (the drawer 2 / drawer 3 of Reflexion's reflexion_few_shot_examples.txt)
 * and `look` names both. Which types and how often is our approximation of
 * ALFRED's scenes (decision 0020); kitchens always share (the burners).
 */
export const SHARED_LOCATIONS: Readonly<Record<RoomKind, Readonly<Record<string, number>>>> = {
  kitchen: { cabinet: 0.5, drawer: 0.5, stoveburner: 1 },
  bathroom: { cabinet: 0.6, drawer: 0.5, sinkbasin: 1 },
  bedroom: { drawer: 0.5, shelf: 0.5 },
  livingroom: { cabinet: 0.5, drawer: 0.5, shelf: 0.5 },
};

/**
 * Gives pairs of same-type receptacles (1 and 2, 3 and 4, …) one shared
 * `location` number, each pair with its type's chance in {@link SHARED_LOCATIONS};
 * the others keep a place of their own. Uses its own random stream, so the rest
 * of a seed's scene is what it was before locations existed.
 */
function shareLocations(room: RoomKind, receptacles: ReceptacleSpec[], random: Random): ReceptacleSpec[] {
  const chances = SHARED_LOCATIONS[room];
  const byName = new Map(receptacles.map((receptacle) => [receptacle.name, receptacle]));
  let next = 1;
  const located = new Map<string, number>();
  for (const [type, chance] of Object.entries(chances)) {
    for (let first = 1; byName.has(`${type} ${first + 1}`); first += 2) {
      if (!random.chance(chance)) continue;
      located.set(`${type} ${first}`, next);
      located.set(`${type} ${first + 1}`, next);
      next += 1;
    }
  }
  return receptacles.map((receptacle) => {
    const location = located.get(receptacle.name);
    return location === undefined ? receptacle : { ...receptacle, location };
  });
}

interface Choice {
  goal: HouseholdGoal;
  /** Receptacle types where the goal's objects may start. */
  sources: string[];
}

function chooseGoal(taskType: HouseholdTaskType, room: RoomKind, present: ReadonlySet<string>, random: Random): Choice | null {
  const property = REQUIRED_PROPERTY[taskType];
  const appliance = APPLIANCE[taskType];
  const options: Choice[] = [];
  for (const object of objectTypesOfRoom(room)) {
    const properties = defaultProperties(object);
    if (!properties.includes(property) || !properties.includes("pickupable")) continue;
    const places = foundIn(object).filter((type) => present.has(type));
    if (taskType === "look_at_obj_in_light") {
      if (places.length > 0) options.push({ goal: { object, receptacle: null, lamp: "desklamp" }, sources: places });
      continue;
    }
    for (const target of places) {
      if (target === appliance) continue;
      const sources = places.filter((type) => type !== target);
      if (sources.length > 0) options.push({ goal: { object, receptacle: target, lamp: null }, sources });
    }
  }
  return options.length === 0 ? null : random.pick(options);
}

/**
 * A seeded household task. Throws only on a programming error (a room kind
 * that cannot host the task type).
 */
export function generateHouseholdTask(options: GenerateHouseholdTaskOptions): HouseholdTask {
  const { taskType, seed } = options;
  const random = createRandom(hashString(`${taskType}:${seed}`));
  const room = options.room ?? random.pick(ROOMS_FOR_TASK[taskType]);
  const receptacles = shareLocations(room, furnish(room, random), createRandom(hashString(`${taskType}:${seed}:locations`)));
  const byType = new Map<string, string[]>();
  for (const receptacle of receptacles) {
    const type = receptacle.name.replace(/ \d+$/, "");
    byType.set(type, [...(byType.get(type) ?? []), receptacle.name]);
  }
  const present = new Set(byType.keys());
  const choice = chooseGoal(taskType, room, present, random);
  if (choice === null) throw new Error(`a ${room} cannot host a ${taskType} task`);
  const { goal } = choice;

  const objects: ObjectSpec[] = [];
  const counters = new Map<string, number>();
  const place = (type: string, allowed: readonly string[], avoid: ReadonlySet<string> = new Set()): boolean => {
    const all = allowed.flatMap((receptacleType) => byType.get(receptacleType) ?? []);
    const preferred = all.filter((name) => !avoid.has(name));
    const spots = preferred.length > 0 ? preferred : all;
    if (spots.length === 0) return false;
    const number = (counters.get(type) ?? 0) + 1;
    counters.set(type, number);
    objects.push({ name: `${type} ${number}`, in: random.pick(spots), properties: defaultProperties(type) });
    return true;
  };

  // The lamp first, so the object to examine can be kept away from it (the task is then about finding both).
  if (goal.lamp !== null) {
    const lampSpots = foundIn(goal.lamp).filter((type) => present.has(type));
    if (!place(goal.lamp, lampSpots.length > 0 ? lampSpots : [...present])) throw new Error("no place for the lamp");
  }
  const lampPlaces = new Set(objects.map((object) => object.in));
  const targets = taskType === "pick_two_obj_and_place" ? random.int(2, 3) : random.int(1, 2);
  for (let index = 0; index < targets; index += 1) place(goal.object, choice.sources, lampPlaces);
  const distractorTypes = objectTypesOfRoom(room).filter((type) => type !== goal.object && type !== "desklamp" && type !== "floorlamp");
  const distractors = random.int(6, 14);
  for (let index = 0; index < distractors; index += 1) {
    const type = random.pick(distractorTypes);
    place(type, foundIn(type).filter((receptacleType) => present.has(receptacleType)));
  }

  const template = random.pick(DESCRIPTION_TEMPLATES[taskType]);
  return parseHouseholdTask({
    id: `household-gen-${PROMPT_KEY[taskType]}-${room}-${seed}`,
    taskType,
    description: describeTask(template, goal),
    goal,
    room,
    source: `generated: ${taskType}, seed ${seed}, ${room}`,
    scene: { receptacles, objects },
  });
}

/** `count` tasks of every type with seeds `firstSeed …`, in {@link HOUSEHOLD_TASK_TYPES} order. */
export function generateHouseholdTaskSet(count: number, firstSeed = 1): HouseholdTask[] {
  return HOUSEHOLD_TASK_TYPES.flatMap((taskType) =>
    Array.from({ length: count }, (_, index) => generateHouseholdTask({ taskType, seed: firstSeed + index })),
  );
}
