import { defaultProperties, type RoomKind } from "./catalogue";
import { parseHouseholdTask, parseTaskDescription, typeOfName, type HouseholdTask } from "./task";

/**
 * The built-in household tasks: six hand-written rooms, one per ALFWorld task
 * type, starting with the paper's teaching example "examine the mug with the
 * desklamp" (Reflexion paper Fig. 1 / reflexion_few_shot_examples.txt: trial 1
 * takes the object and wanders off; the reflection says to find the lamp
 * first). Each is a complete JSON snapshot (every object's properties
 * included). The demo model's scripts for them are in builtin-demo-scripts.ts.
 */

/** One receptacle in the compact notation below: openable or not, and what it holds. */
interface Spot {
  openable?: boolean;
  items?: string[];
}

function task(id: string, room: RoomKind, description: string, spots: Record<string, Spot>): HouseholdTask {
  const reading = parseTaskDescription(description);
  if (reading === null) throw new Error(`built-in task ${id}: not an ALFWorld task sentence`);
  return parseHouseholdTask({
    id,
    taskType: reading.taskType,
    description,
    goal: reading.goal,
    room,
    source: "built-in",
    scene: {
      receptacles: Object.entries(spots).map(([name, spot]) => ({ name, openable: spot.openable ?? false, opened: false })),
      objects: Object.entries(spots).flatMap(([name, spot]) =>
        (spot.items ?? []).map((item) => ({ name: item, in: name, properties: defaultProperties(typeOfName(item)) })),
      ),
    },
  });
}

/** The built-in tasks, ids `household-builtin-01` … `-06`, in a stable order. */
export const builtinHouseholdTasks: HouseholdTask[] = [
  task("household-builtin-01", "bedroom", "examine the mug with the desklamp.", {
    "bed 1": { items: ["cellphone 1", "pillow 1"] },
    "desk 1": { items: ["desklamp 1", "laptop 1", "pencil 2"] },
    "drawer 1": { openable: true, items: ["pen 1"] },
    "drawer 2": { openable: true },
    "dresser 1": { items: ["alarmclock 1", "keychain 1"] },
    "garbagecan 1": {},
    "shelf 1": { items: ["book 1"] },
    "shelf 2": { items: ["cd 1", "mug 1"] },
    "sidetable 1": { items: ["alarmclock 2", "creditcard 1"] },
  }),
  task("household-builtin-02", "livingroom", "put some creditcard on coffeetable.", {
    "armchair 1": { items: ["pillow 1"] },
    "armchair 2": {},
    "coffeetable 1": { items: ["book 1", "statue 1", "vase 1"] },
    "drawer 1": { openable: true, items: ["creditcard 1", "keychain 1"] },
    "drawer 2": { openable: true },
    "garbagecan 1": {},
    "shelf 1": { items: ["box 1"] },
    "sidetable 1": { items: ["remotecontrol 1", "watch 1"] },
    "sofa 1": { items: ["newspaper 1", "pillow 2"] },
  }),
  task("household-builtin-03", "kitchen", "heat some potato and put it in countertop.", {
    "cabinet 1": { openable: true, items: ["bowl 1"] },
    "cabinet 2": { openable: true },
    "cabinet 3": { items: ["saltshaker 1"] },
    "coffeemachine 1": { items: ["mug 1"] },
    "countertop 1": { items: ["bread 1", "knife 1"] },
    "countertop 2": { items: ["spatula 1"] },
    "diningtable 1": { items: ["apple 1", "fork 1", "plate 1"] },
    "drawer 1": { openable: true, items: ["spoon 1"] },
    "fridge 1": { openable: true, items: ["egg 1", "lettuce 1", "potato 1"] },
    "garbagecan 1": {},
    "microwave 1": { openable: true },
    "sinkbasin 1": { items: ["cup 1"] },
    "stoveburner 1": { items: ["pan 1"] },
    "stoveburner 2": { items: ["pot 1"] },
    "stoveburner 3": {},
    "stoveburner 4": {},
    "toaster 1": {},
  }),
  task("household-builtin-04", "kitchen", "put a cool tomato in diningtable.", {
    "cabinet 1": { openable: true, items: ["plate 1"] },
    "cabinet 2": { openable: true },
    "cabinet 3": { items: ["cup 1"] },
    "cabinet 4": { openable: true },
    "countertop 1": { items: ["bread 1", "knife 1", "tomato 1"] },
    "countertop 2": { items: ["peppershaker 1"] },
    "diningtable 1": { items: ["bowl 1", "egg 1"] },
    "drawer 1": { openable: true, items: ["fork 1"] },
    "drawer 2": { openable: true },
    "fridge 1": { openable: true, items: ["lettuce 1", "winebottle 1"] },
    "garbagecan 1": {},
    "microwave 1": { openable: true },
    "shelf 1": { items: ["saltshaker 1"] },
    "sinkbasin 1": { items: ["dishsponge 1"] },
    "stoveburner 1": {},
    "stoveburner 2": { items: ["kettle 1"] },
    "toaster 1": {},
  }),
  task("household-builtin-05", "bathroom", "put a clean soapbar in cabinet.", {
    "bathtubbasin 1": { items: ["cloth 1"] },
    "cabinet 1": { items: ["candle 1"] },
    "cabinet 2": { openable: true, items: ["spraybottle 1", "toiletpaper 2"] },
    "countertop 1": { items: ["soapbar 1", "soapbottle 1"] },
    "garbagecan 1": {},
    "handtowelholder 1": { items: ["handtowel 1"] },
    "sinkbasin 1": {},
    "toilet 1": { items: ["soapbottle 2"] },
    "toiletpaperhanger 1": { items: ["toiletpaper 1"] },
    "towelholder 1": {},
  }),
  task("household-builtin-06", "kitchen", "put two spoon in drawer.", {
    "cabinet 1": { openable: true },
    "cabinet 2": { openable: true, items: ["pot 1"] },
    "countertop 1": { items: ["kettle 1", "saltshaker 1"] },
    "diningtable 1": { items: ["bowl 1", "spoon 1", "spoon 2"] },
    "drawer 1": { openable: true, items: ["fork 1"] },
    "drawer 2": { openable: true },
    "fridge 1": { openable: true, items: ["apple 1"] },
    "garbagecan 1": {},
    "microwave 1": { openable: true },
    "sinkbasin 1": { items: ["mug 1"] },
    "stoveburner 1": {},
    "stoveburner 2": {},
    "toaster 1": {},
  }),
];
