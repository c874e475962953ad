/**
 * What the household world knows about kinds of things: the properties an
 * object type has (pickupable, heatable, …), which receptacle types open and
 * close, and which rooms hold what. The predicates are ALFWorld's
 * (alfworld-alfred.pddl: `pickupable`, `heatable`, `coolable`, `cleanable`,
 * `sliceable`, `toggleable`, `isReceptacleObject`, `openable`); the tables are
 * our own approximation of ALFRED's object lists, enough for plausible rooms.
 *
 * A task snapshot stores each object's properties explicitly (task.ts), so the
 * tables here only fill in defaults for scenes we build (generator, transcript
 * loader); a stored run never depends on them.
 */

/** The object properties the tasks need (ALFWorld PDDL predicates of the same names). */
export const HOUSEHOLD_PROPERTIES = [
  "pickupable",
  "heatable",
  "coolable",
  "cleanable",
  "sliceable",
  "toggleable",
  "receptacleObject",
] as const;
/** One of {@link HOUSEHOLD_PROPERTIES}. */
export type HouseholdProperty = (typeof HOUSEHOLD_PROPERTIES)[number];

/** The room kinds the scene generator builds. */
export const ROOM_KINDS = ["kitchen", "bathroom", "bedroom", "livingroom"] as const;
/** One of {@link ROOM_KINDS}. */
export type RoomKind = (typeof ROOM_KINDS)[number];

/** Object types that are lamps: `use` turns them on, and the examine-in-light tasks need one. */
export const LAMP_TYPES = ["desklamp", "floorlamp"] as const;

/** Receptacle types that can only heat, cool or clean (ALFWorld: MicrowaveType, FridgeType, SinkBasinType). */
export const APPLIANCE_FOR = { heat: "microwave", cool: "fridge", clean: "sinkbasin" } as const;

/** Object types that can slice (ALFWorld SliceObject: KnifeType or ButterKnifeType). */
export const SLICING_TOOLS = ["knife", "butterknife"] as const;

/** Receptacle types that are openable unless a scene says otherwise. */
export const OPENABLE_RECEPTACLE_TYPES: ReadonlySet<string> = new Set(["cabinet", "drawer", "fridge", "microwave", "safe"]);

/** Receptacles that open in every scene we build (ALFWorld cabinets and drawers are sometimes open shelves). */
export const ALWAYS_OPENABLE_RECEPTACLE_TYPES: ReadonlySet<string> = new Set(["fridge", "microwave", "safe"]);

type Flags = string;

/**
 * One object type: property flags (P pickupable, H heatable, C coolable,
 * L cleanable, S sliceable, T toggleable, R receptacle object), the rooms it
 * appears in and the receptacle types it is found in.
 */
interface ObjectTypeInfo {
  flags: Flags;
  rooms: readonly RoomKind[];
  foundIn: readonly string[];
}

const K: readonly RoomKind[] = ["kitchen"];
const B: readonly RoomKind[] = ["bathroom"];
const BL: readonly RoomKind[] = ["bedroom", "livingroom"];

const FOOD = ["countertop", "diningtable", "fridge", "garbagecan", "sinkbasin", "cabinet", "microwave"];
const DISHES = ["countertop", "diningtable", "cabinet", "sinkbasin", "shelf", "fridge", "microwave", "drawer"];
const CUTLERY = ["countertop", "diningtable", "drawer", "sinkbasin", "cabinet"];
const DESKTOP = ["desk", "sidetable", "dresser", "shelf", "drawer", "coffeetable", "diningtable", "bed", "armchair", "sofa"];

/** The object catalogue, by type (ALFWorld names: one lowercase word). */
export const OBJECT_TYPES: Readonly<Record<string, ObjectTypeInfo>> = {
  apple: { flags: "PHCLS", rooms: K, foundIn: FOOD },
  bread: { flags: "PHCS", rooms: K, foundIn: ["countertop", "diningtable", "fridge", "cabinet", "microwave"] },
  egg: { flags: "PHCL", rooms: K, foundIn: FOOD },
  lettuce: { flags: "PCLS", rooms: K, foundIn: FOOD },
  potato: { flags: "PHCLS", rooms: K, foundIn: FOOD },
  tomato: { flags: "PHCLS", rooms: K, foundIn: FOOD },
  mug: { flags: "PHCLR", rooms: ["kitchen", "bedroom"], foundIn: [...DISHES, "coffeemachine", "desk"] },
  cup: { flags: "PHCLR", rooms: K, foundIn: DISHES },
  bowl: { flags: "PHCLR", rooms: ["kitchen", "bedroom", "livingroom"], foundIn: [...DISHES, "desk", "sidetable"] },
  plate: { flags: "PHCLR", rooms: K, foundIn: DISHES },
  pan: { flags: "PCLR", rooms: K, foundIn: ["stoveburner", "countertop", "cabinet", "sinkbasin", "diningtable"] },
  pot: { flags: "PCLR", rooms: K, foundIn: ["stoveburner", "countertop", "cabinet", "sinkbasin", "diningtable"] },
  kettle: { flags: "PL", rooms: K, foundIn: ["stoveburner", "countertop", "cabinet", "diningtable"] },
  fork: { flags: "PL", rooms: K, foundIn: CUTLERY },
  spoon: { flags: "PL", rooms: K, foundIn: CUTLERY },
  knife: { flags: "PL", rooms: K, foundIn: CUTLERY },
  butterknife: { flags: "PL", rooms: K, foundIn: CUTLERY },
  spatula: { flags: "PL", rooms: K, foundIn: CUTLERY },
  ladle: { flags: "PL", rooms: K, foundIn: CUTLERY },
  dishsponge: { flags: "PL", rooms: ["kitchen", "bathroom"], foundIn: ["countertop", "sinkbasin", "cabinet", "drawer"] },
  winebottle: { flags: "PC", rooms: K, foundIn: ["countertop", "diningtable", "fridge", "cabinet", "shelf"] },
  saltshaker: { flags: "P", rooms: K, foundIn: ["countertop", "diningtable", "cabinet", "shelf", "drawer"] },
  peppershaker: { flags: "P", rooms: K, foundIn: ["countertop", "diningtable", "cabinet", "shelf", "drawer"] },
  soapbottle: { flags: "P", rooms: ["kitchen", "bathroom"], foundIn: ["countertop", "cabinet", "shelf", "toilet", "sinkbasin"] },
  soapbar: { flags: "PL", rooms: B, foundIn: ["countertop", "sinkbasin", "toilet", "cabinet", "bathtubbasin", "shelf"] },
  cloth: { flags: "PL", rooms: B, foundIn: ["countertop", "cabinet", "drawer", "toilet", "bathtubbasin", "shelf"] },
  spraybottle: { flags: "P", rooms: B, foundIn: ["cabinet", "countertop", "toilet", "shelf", "garbagecan"] },
  toiletpaper: { flags: "P", rooms: B, foundIn: ["toiletpaperhanger", "toilet", "cabinet", "countertop", "shelf"] },
  candle: { flags: "P", rooms: B, foundIn: ["countertop", "cabinet", "toilet", "shelf"] },
  handtowel: { flags: "P", rooms: B, foundIn: ["handtowelholder", "countertop", "cabinet"] },
  book: { flags: "P", rooms: BL, foundIn: DESKTOP },
  cd: { flags: "P", rooms: BL, foundIn: DESKTOP },
  cellphone: { flags: "P", rooms: BL, foundIn: DESKTOP },
  creditcard: { flags: "P", rooms: BL, foundIn: DESKTOP },
  keychain: { flags: "P", rooms: BL, foundIn: DESKTOP },
  pen: { flags: "P", rooms: BL, foundIn: DESKTOP },
  pencil: { flags: "P", rooms: BL, foundIn: DESKTOP },
  alarmclock: { flags: "P", rooms: ["bedroom"], foundIn: ["desk", "sidetable", "dresser", "shelf"] },
  remotecontrol: { flags: "P", rooms: ["livingroom"], foundIn: ["sofa", "coffeetable", "armchair", "sidetable", "tvstand", "dresser"] },
  pillow: { flags: "P", rooms: BL, foundIn: ["bed", "sofa", "armchair"] },
  newspaper: { flags: "P", rooms: ["livingroom"], foundIn: ["sofa", "coffeetable", "sidetable", "diningtable", "armchair"] },
  watch: { flags: "P", rooms: BL, foundIn: ["dresser", "sidetable", "desk", "drawer", "coffeetable"] },
  vase: { flags: "P", rooms: BL, foundIn: ["shelf", "coffeetable", "sidetable", "dresser", "diningtable"] },
  statue: { flags: "P", rooms: BL, foundIn: ["shelf", "coffeetable", "sidetable", "dresser", "diningtable"] },
  box: { flags: "PR", rooms: BL, foundIn: ["coffeetable", "sidetable", "dresser", "shelf", "diningtable"] },
  laptop: { flags: "P", rooms: BL, foundIn: ["desk", "bed", "sofa", "coffeetable", "diningtable"] },
  desklamp: { flags: "T", rooms: BL, foundIn: ["desk", "sidetable", "dresser"] },
  floorlamp: { flags: "T", rooms: BL, foundIn: [] },
  houseplant: { flags: "", rooms: ["kitchen", "livingroom"], foundIn: ["countertop", "diningtable", "coffeetable", "sidetable"] },
  television: { flags: "", rooms: ["livingroom", "bedroom"], foundIn: ["dresser", "tvstand"] },
};

const FLAG_PROPERTY: Readonly<Record<string, HouseholdProperty>> = {
  P: "pickupable",
  H: "heatable",
  C: "coolable",
  L: "cleanable",
  S: "sliceable",
  T: "toggleable",
  R: "receptacleObject",
};

/**
 * The default properties of an object type, in {@link HOUSEHOLD_PROPERTIES}
 * order. Unknown types (e.g. one a transcript mentions) are just pickupable.
 */
export function defaultProperties(type: string): HouseholdProperty[] {
  const info = OBJECT_TYPES[type];
  if (info === undefined) return ["pickupable"];
  const properties = new Set([...info.flags].map((flag) => FLAG_PROPERTY[flag]));
  return HOUSEHOLD_PROPERTIES.filter((property) => properties.has(property));
}

/** True when receptacles of `type` are openable by default. */
export function isOpenableByDefault(type: string): boolean {
  return OPENABLE_RECEPTACLE_TYPES.has(type);
}

/** How many receptacles of each type a room of a kind has: `[min, max]`. */
export const ROOM_LAYOUTS: Readonly<Record<RoomKind, Readonly<Record<string, readonly [number, number]>>>> = {
  kitchen: {
    cabinet: [4, 12],
    coffeemachine: [1, 1],
    countertop: [1, 3],
    diningtable: [1, 2],
    drawer: [1, 6],
    fridge: [1, 1],
    garbagecan: [1, 1],
    microwave: [1, 1],
    shelf: [0, 3],
    sinkbasin: [1, 1],
    stoveburner: [4, 4],
    toaster: [1, 1],
  },
  bathroom: {
    bathtubbasin: [0, 1],
    cabinet: [2, 4],
    countertop: [1, 1],
    drawer: [0, 4],
    garbagecan: [1, 1],
    handtowelholder: [1, 2],
    shelf: [0, 2],
    sinkbasin: [1, 2],
    toilet: [1, 1],
    toiletpaperhanger: [1, 1],
    towelholder: [1, 1],
  },
  bedroom: {
    armchair: [0, 1],
    bed: [1, 1],
    desk: [1, 2],
    drawer: [2, 6],
    dresser: [0, 1],
    garbagecan: [1, 1],
    laundryhamper: [0, 1],
    safe: [0, 1],
    shelf: [1, 6],
    sidetable: [1, 2],
  },
  livingroom: {
    armchair: [1, 2],
    cabinet: [0, 2],
    coffeetable: [1, 1],
    diningtable: [0, 1],
    drawer: [1, 4],
    dresser: [0, 1],
    garbagecan: [1, 1],
    shelf: [0, 4],
    sidetable: [1, 2],
    sofa: [1, 1],
  },
};

/** The object types that appear in a room of `kind`, in catalogue order. */
export function objectTypesOfRoom(kind: RoomKind): string[] {
  return Object.entries(OBJECT_TYPES)
    .filter(([, info]) => info.rooms.includes(kind))
    .map(([type]) => type);
}

/** The receptacle types an object of `type` is plausibly found in (may be empty). */
export function foundIn(type: string): readonly string[] {
  return OBJECT_TYPES[type]?.foundIn ?? [];
}
