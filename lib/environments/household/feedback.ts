import { numberOfName, typeOfName } from "./task";

/**
 * The sentences the household world answers with, word for word as ALFWorld
 * prints them. Sources, in order of authority:
 * 1. the ReAct ALFWorld transcripts (shared/data/alfworld/react-alfworld.json),
 *    recorded from the ALFWorld version the paper used;
 * 2. ALFWorld's TextWorld grammar (shared/data/alfworld/alfworld-alfred.twl2);
 *    where the two differ the transcripts win: the grammar file is a later
 *    revision that renamed `put X in/on Y` to `move X to Y`;
 * 3. the TextWorld engine (`textworld/envs/pddl/pddl.py`): "Nothing happens." for
 *    any command that is not admissible.
 * Every entity takes the article "a" (TextWorld's PDDL env sets `indefinite = "a"`),
 * hence "a apple 1".
 */

/** The reply to any command that is not admissible here and now (TextWorld). */
export const NOTHING_HAPPENS = "Nothing happens.";

/** The reply to a `think: …` action (ReAct/Reflexion overwrite the env's reply with it). */
export const THINK_OK = "OK.";

/**
 * ALFWorld's listing order, as every list in the transcripts shows it: by type
 * word (alphabetically), then by instance number, highest first
 * (`a cabinet 13, a cabinet 12, …, a cabinet 1, a coffeemachine 1`).
 */
export function compareEntityNames(a: string, b: string): number {
  const typeA = typeOfName(a);
  const typeB = typeOfName(b);
  if (typeA !== typeB) return typeA < typeB ? -1 : 1;
  return numberOfName(b) - numberOfName(a);
}

/**
 * A list in TextWorld's grammar: `nothing`, `a x 1`, `a x 1, and a y 2`,
 * `a x 1, a y 2, and a z 3` (separator ", ", last separator ", and "; so two
 * items also get a comma). Names are sorted by {@link compareEntityNames}.
 */
export function listEntities(names: readonly string[]): string {
  const items = [...names].sort(compareEntityNames).map((name) => `a ${name}`);
  if (items.length === 0) return "nothing";
  if (items.length === 1) return items[0] ?? "";
  return `${items.slice(0, -1).join(", ")}, and ${items.at(-1) ?? ""}`;
}

/** A receptacle as `examineReceptacle.feedback` describes it. */
export interface ReceptacleView {
  name: string;
  openable: boolean;
  opened: boolean;
  /** Names of the objects in it. */
  contents: readonly string[];
}

/**
 * `examineReceptacle.feedback` (twl2): what you see arriving at, opening or
 * examining a receptacle — `The fridge 1 is open. In it, you see …`,
 * `The fridge 1 is closed.`, or `On the desk 1, you see …`.
 */
export function describeReceptacle(receptacle: ReceptacleView): string {
  if (receptacle.openable && receptacle.opened) {
    return `The ${receptacle.name} is open. In it, you see ${listEntities(receptacle.contents)}.`;
  }
  if (receptacle.openable) return `The ${receptacle.name} is closed.`;
  return `On the ${receptacle.name}, you see ${listEntities(receptacle.contents)}.`;
}

/**
 * `GotoLocation.feedback` after Reflexion's post-processing: ALFWorld prints
 * "You arrive at loc N. " before the receptacle's description and Reflexion
 * strips it (reference §3.3), so arriving reads just like examining.
 */
export function arriveFeedback(receptacle: ReceptacleView): string {
  return describeReceptacle(receptacle);
}

/** `OpenObject.feedback`: `You open the cabinet 2. The cabinet 2 is open. In it, you see …` */
export function openFeedback(receptacle: ReceptacleView): string {
  return `You open the ${receptacle.name}. ${describeReceptacle(receptacle)}`;
}

/** `CloseObject.feedback`. */
export function closeFeedback(receptacle: string): string {
  return `You close the ${receptacle}.`;
}

/** `PickupObject.feedback`. */
export function pickupFeedback(object: string, receptacle: string): string {
  return `You pick up the ${object} from the ${receptacle}.`;
}

/** `PutObject.feedback` of the ALFWorld version in the transcripts (later versions say "You move the X to the Y."). */
export function putFeedback(object: string, receptacle: string): string {
  return `You put the ${object} in/on the ${receptacle}.`;
}

/** `heatObject.feedback`. */
export function heatFeedback(object: string, receptacle: string): string {
  return `You heat the ${object} using the ${receptacle}.`;
}

/** `coolObject.feedback`. */
export function coolFeedback(object: string, receptacle: string): string {
  return `You cool the ${object} using the ${receptacle}.`;
}

/** `cleanObject.feedback`. */
export function cleanFeedback(object: string, receptacle: string): string {
  return `You clean the ${object} using the ${receptacle}.`;
}

/** `sliceObject.feedback`. */
export function sliceFeedback(object: string, tool: string): string {
  return `You sliced the ${object} with the ${tool}.`;
}

/**
 * `toggleObject.feedback`. The grammar tests `istoggled`, which ToggleObject
 * always sets, so in ALFWorld `use` always reports "You turn on the X." even
 * when it switches the lamp off; pass the toggled flag after the action.
 */
export function toggleFeedback(object: string, toggled: boolean): string {
  return toggled ? `You turn on the ${object}.` : `You turn off the ${object}.`;
}

/** `inventory.feedback`. */
export function inventoryFeedback(held: readonly string[]): string {
  if (held.length === 0) return "You are not carrying anything.";
  return `You are carrying: ${listEntities(held)}.`;
}

/**
 * A list of bare names in TextWorld's list grammar (no article): `desk 1`,
 * `cabinet 2, and cabinet 1` — the form `look` uses for the receptacles the
 * agent faces (`[{r.name | …}]` in alfworld-alfred.twl2), sorted by
 * {@link compareEntityNames}.
 */
export function listNames(names: readonly string[]): string {
  const items = [...names].sort(compareEntityNames);
  if (items.length <= 1) return items[0] ?? "";
  return `${items.slice(0, -1).join(", ")}, and ${items.at(-1) ?? ""}`;
}

/**
 * `look.feedback`. At a location: `You are facing the desk 1. Next to it, you
 * see nothing.`; at a location several receptacles share, all of them:
 * `You are facing the cabinet 2, and cabinet 1. Next to it, you see a box 1.`
 * (as ALFWorld prints it). "Next to it" lists the objects at the location that
 * are not in one of its receptacles (`not_inreceptacle(o, r)` for some r there):
 * none when one receptacle stands alone, every object in any of them when
 * several share the place — ALFWorld's own quirk, kept. In the middle of the
 * room ALFWorld lists the appliances at the agent's own location, which are
 * none, so `look` there says "you see nothing" — as the real run in Reflexion's
 * reflexion_few_shot_examples.txt shows; only the game's opening text lists the room.
 *
 * @param facing the receptacles at the agent's location; empty in the middle of the room.
 * @param nextTo the objects "next to it" (see above).
 */
export function lookFeedback(facing: readonly string[], nextTo: readonly string[] = []): string {
  if (facing.length === 0) return "You are in the middle of a room. Looking quickly around you, you see nothing.";
  return `You are facing the ${listNames(facing)}. Next to it, you see ${listEntities(nextTo)}.`;
}

/** An object's state, as `examineObject.feedback` needs it. */
export interface ObjectView {
  name: string;
  receptacleObject: boolean;
  toggleable: boolean;
  sliceable: boolean;
  hot: boolean;
  cool: boolean;
  clean: boolean;
  sliced: boolean;
  toggled: boolean;
}

/**
 * `examineObject.feedback`, its cases in the grammar's order: a receptacle
 * object (mug, bowl, …; nothing is ever inside one here) comes first, then the
 * combinations of hot / cool / clean / sliced, then lamps, then "There's nothing
 * special about X." (the grammar has no article there).
 */
export function examineObjectFeedback(object: ObjectView): string {
  const { name, hot, cool, clean, sliced } = object;
  if (object.receptacleObject) return `This is a normal ${name}. In it, you see nothing.`;
  if (clean && hot && sliced) return `This is a hot and clean sliced ${name}.`;
  if (clean && cool && sliced) return `This is a cool and clean sliced ${name}.`;
  if (clean && sliced) return `This is a clean sliced ${name}.`;
  if (hot && sliced) return `This is a hot sliced ${name}.`;
  if (cool && sliced) return `This is a cool sliced ${name}.`;
  if (clean && hot) return `This is a hot and clean ${name}.`;
  if (clean && cool) return `This is a cool and clean ${name}.`;
  if (hot) return `This is a hot ${name}.`;
  if (clean) return `This is a clean ${name}.`;
  if (cool) return `This is a cold ${name}.`;
  if (object.toggleable) return object.toggled ? `This ${name} is on.` : `This ${name} is off.`;
  if (object.sliceable && sliced) return `This is a sliced ${name}.`;
  return `There's nothing special about ${name}.`;
}

/**
 * The game's opening text as Reflexion shows it to the Actor (the intro minus
 * its "-= Welcome to TextWorld, ALFRED! =-" block): the room's receptacles,
 * then the task line.
 */
export function initialObservation(receptacles: readonly string[], description: string): string {
  return `${roomLine(receptacles)}\n${taskLine(description)}`;
}

/** `You are in the middle of a room. Looking quickly around you, you see a cabinet 2, …, and a toaster 1.` */
export function roomLine(receptacles: readonly string[]): string {
  return `You are in the middle of a room. Looking quickly around you, you see ${listEntities(receptacles)}.`;
}

/** `Your task is to: <description>` */
export function taskLine(description: string): string {
  return `Your task is to: ${description}`;
}

/**
 * Removes the "You arrive at loc 12. " prefix ALFWorld puts before arrival
 * descriptions (Reflexion strips it, reference §3.3), and the later
 * "You arrive at cabinet 1. " form of alfworld-alfred.twl2.
 */
export function stripArrivalPrefix(observation: string): string {
  return observation.replace(/^You arrive at (?:loc \d+|[a-z]+ \d+)\. /, "");
}
