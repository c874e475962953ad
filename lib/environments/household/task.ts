import { z } from "zod";
import { taskIdSchema } from "@/lib/domain/ids";
import { AppError } from "@/lib/domain/errors";
import { HOUSEHOLD_PROPERTIES, ROOM_KINDS } from "./catalogue";

/**
 * The household family's task: a scene (receptacles, the objects in them and
 * their properties) and a goal of one of ALFWorld's six task types. A task is a
 * complete JSON snapshot: nothing about it is recomputed from the generator or
 * the catalogue when a run replays it.
 */

/**
 * The six ALFWorld task types, named by ALFWorld's game-name prefixes
 * (shared/data/alfworld/SOURCES.md): pick and place, examine in light, clean /
 * heat / cool then place, pick two and place.
 */
export const HOUSEHOLD_TASK_TYPES = [
  "pick_and_place_simple",
  "look_at_obj_in_light",
  "pick_clean_then_place_in_recep",
  "pick_heat_then_place_in_recep",
  "pick_cool_then_place_in_recep",
  "pick_two_obj_and_place",
] as const;
/** One of {@link HOUSEHOLD_TASK_TYPES}. */
export type HouseholdTaskType = (typeof HOUSEHOLD_TASK_TYPES)[number];

/** ReAct's few-shot key for each task type (`react_<key>_<k>` in react-alfworld.json). */
export const PROMPT_KEY: Readonly<Record<HouseholdTaskType, string>> = {
  pick_and_place_simple: "put",
  look_at_obj_in_light: "examine",
  pick_clean_then_place_in_recep: "clean",
  pick_heat_then_place_in_recep: "heat",
  pick_cool_then_place_in_recep: "cool",
  pick_two_obj_and_place: "puttwo",
};

/** An ALFWorld entity name: a lowercase type word and an instance number (`cabinet 12`). */
export const ENTITY_NAME = /^([a-z]+) ([1-9]\d*)$/;

/** The type of an entity name (`"cabinet 12"` → `"cabinet"`); the whole text when it has no number. */
export function typeOfName(name: string): string {
  return ENTITY_NAME.exec(name)?.[1] ?? name;
}

/** The instance number of an entity name (`"cabinet 12"` → 12); 0 when it has none. */
export function numberOfName(name: string): number {
  return Number(ENTITY_NAME.exec(name)?.[2] ?? 0);
}

const entityName = z.string().regex(ENTITY_NAME, { message: 'expected a name like "cabinet 1" (lowercase type, space, number)' });
const typeName = z.string().regex(/^[a-z]+$/, { message: "expected a lowercase type word such as mug" });

/** One receptacle of a scene. Its type is its name without the number. */
export const receptacleSpecSchema = z.object({
  name: entityName,
  /** Whether it can be opened and closed (ALFWorld `openable`). */
  openable: z.boolean(),
  /** Whether it starts open (only meaningful when openable). */
  opened: z.boolean().default(false),
  /**
   * The place it stands at (ALFWorld's `loc N`, `receptacleAtLocation`):
   * receptacles with the same number share one location — stacked cabinets, a
   * stove's burners — so going from one to another is "Nothing happens." and
   * `look` names them all (decision 0020). Absent: a place of its own.
   */
  location: z.number().int().positive().optional(),
});
/** A receptacle `{ name, openable, opened, location? }`. */
export type ReceptacleSpec = z.infer<typeof receptacleSpecSchema>;

/** One object of a scene and the receptacle it starts in. Its type is its name without the number. */
export const objectSpecSchema = z.object({
  name: entityName,
  /** The receptacle it starts in. */
  in: entityName,
  /** Its properties, explicitly (no catalogue lookup at run time). */
  properties: z.array(z.enum(HOUSEHOLD_PROPERTIES)),
});
/** An object `{ name, in, properties }`. */
export type ObjectSpec = z.infer<typeof objectSpecSchema>;

/** A scene: the agent starts in the middle of the room, holding nothing. */
export const sceneSchema = z.object({
  receptacles: z.array(receptacleSpecSchema).min(1, { message: "a scene needs at least one receptacle" }),
  objects: z.array(objectSpecSchema),
});
/** A scene `{ receptacles, objects }`. */
export type HouseholdScene = z.infer<typeof sceneSchema>;

/**
 * The goal, in types: `object` (e.g. `mug`), the target `receptacle` type (all
 * types but look_at_obj_in_light) and the `lamp` type (look_at_obj_in_light only).
 */
export const goalSchema = z.object({
  object: typeName,
  receptacle: typeName.nullable().default(null),
  lamp: typeName.nullable().default(null),
});
/** A goal `{ object, receptacle, lamp }`. */
export type HouseholdGoal = z.infer<typeof goalSchema>;

/** zod schema of a {@link HouseholdTask}, with consistency checks between scene and goal. */
export const householdTaskSchema = z
  .object({
    id: taskIdSchema,
    taskType: z.enum(HOUSEHOLD_TASK_TYPES),
    /** The task sentence after "Your task is to: ", e.g. `put some spraybottle on toilet.` */
    description: z.string().trim().min(1, { message: "the task description must not be empty" }),
    goal: goalSchema,
    /** The room kind, for display only. */
    room: z.enum(ROOM_KINDS).optional(),
    /** Where the task comes from (built-in, generator seed, transcript name). Display only. */
    source: z.string().optional(),
    scene: sceneSchema,
  })
  .superRefine((task, context) => {
    const issue = (path: (string | number)[], message: string) => context.addIssue({ code: "custom", path, message });
    const receptacles = new Set<string>();
    task.scene.receptacles.forEach((receptacle, index) => {
      if (receptacles.has(receptacle.name)) issue(["scene", "receptacles", index, "name"], `duplicate receptacle "${receptacle.name}"`);
      receptacles.add(receptacle.name);
    });
    const objects = new Set<string>();
    task.scene.objects.forEach((object, index) => {
      if (objects.has(object.name) || receptacles.has(object.name)) issue(["scene", "objects", index, "name"], `duplicate name "${object.name}"`);
      objects.add(object.name);
      if (!receptacles.has(object.in)) issue(["scene", "objects", index, "in"], `"${object.in}" is not a receptacle of the scene`);
    });
    const receptacleTypes = new Set([...receptacles].map(typeOfName));
    const { goal } = task;
    if (task.taskType === "look_at_obj_in_light") {
      if (goal.lamp === null) issue(["goal", "lamp"], "an examine-in-light task needs a lamp type");
    } else if (goal.receptacle === null) {
      issue(["goal", "receptacle"], "this task type needs a target receptacle type");
    } else if (!receptacleTypes.has(goal.receptacle)) {
      issue(["goal", "receptacle"], `the scene has no receptacle of type "${goal.receptacle}"`);
    }
  });

/**
 * A household task `{ id, taskType, description, goal, room?, source?, scene }`,
 * a JSON-serialisable snapshot.
 */
export type HouseholdTask = z.infer<typeof householdTaskSchema>;

/** Re-exported from lib/domain so existing imports keep working. */
export { describeIssues } from "@/lib/domain/describe-issues";
import { describeIssues } from "@/lib/domain/describe-issues";

/**
 * Validates an unknown value as a {@link HouseholdTask} (e.g. `RunConfig.task`).
 *
 * @throws AppError `invalid-dataset` naming every field that is wrong.
 */
export function parseHouseholdTask(json: unknown): HouseholdTask {
  const result = householdTaskSchema.safeParse(json);
  if (!result.success) {
    throw new AppError("invalid-dataset", `Not a valid household task: ${describeIssues(result.error.issues)}`, {
      cause: result.error,
    });
  }
  return result.data;
}

/**
 * The task sentences of each type, as ALFWorld words them (`alfworld/gen/goal_library.py`
 * templates, as seen in the react-alfworld.json transcripts). `{obj}`, `{recep}`,
 * `{lamp}` are type words.
 */
export const DESCRIPTION_TEMPLATES: Readonly<Record<HouseholdTaskType, readonly string[]>> = {
  pick_and_place_simple: ["put a {obj} in {recep}.", "put some {obj} on {recep}.", "find some {obj} and put it in {recep}."],
  look_at_obj_in_light: ["look at {obj} under the {lamp}.", "examine the {obj} with the {lamp}."],
  pick_clean_then_place_in_recep: ["put a clean {obj} in {recep}.", "clean some {obj} and put it in {recep}."],
  pick_heat_then_place_in_recep: ["put a hot {obj} in {recep}.", "heat some {obj} and put it in {recep}."],
  pick_cool_then_place_in_recep: ["put a cool {obj} in {recep}.", "cool some {obj} and put it in {recep}."],
  pick_two_obj_and_place: ["put two {obj} in {recep}.", "find two {obj} and put them in {recep}."],
};

/** Fills a description template with type words. */
export function describeTask(template: string, goal: HouseholdGoal): string {
  return template
    .replace("{obj}", goal.object)
    .replace("{recep}", goal.receptacle ?? "")
    .replace("{lamp}", goal.lamp ?? "");
}

const templatePatterns = HOUSEHOLD_TASK_TYPES.flatMap((taskType) =>
  DESCRIPTION_TEMPLATES[taskType].map((template) => {
    const names: string[] = [];
    const source = template
      .replace(/[.*+?^$()|[\]\\]/g, "\\$&")
      .replace(/\{(obj|recep|lamp)\}/g, (_, name: string) => {
        names.push(name);
        return "([a-z]+)";
      });
    return { taskType, names, pattern: new RegExp(`^${source}$`) };
  }),
);

/**
 * Reads a task sentence (`put a clean lettuce in diningtable.`) as a task type
 * and goal, by ALFWorld's templates ({@link DESCRIPTION_TEMPLATES}); case and
 * surrounding whitespace are ignored, the final period is optional. Null when
 * it matches none.
 */
export function parseTaskDescription(text: string): { taskType: HouseholdTaskType; goal: HouseholdGoal } | null {
  let sentence = text.trim().toLowerCase().replace(/\s+/g, " ");
  if (!sentence.endsWith(".")) sentence += ".";
  for (const { taskType, names, pattern } of templatePatterns) {
    const match = pattern.exec(sentence);
    if (match === null) continue;
    const values: Record<string, string> = {};
    names.forEach((name, index) => (values[name] = match[index + 1] ?? ""));
    return {
      taskType,
      goal: { object: values.obj ?? "", receptacle: values.recep ?? null, lamp: values.lamp ?? null },
    };
  }
  return null;
}
