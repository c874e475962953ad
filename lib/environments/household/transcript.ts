import { HOUSEHOLD_PROPERTIES, defaultProperties, isOpenableByDefault, type HouseholdProperty } from "./catalogue";
import { cleanActionLine, parseHouseholdCommand } from "./commands";
import { NOTHING_HAPPENS, stripArrivalPrefix } from "./feedback";
import { ENTITY_NAME, parseHouseholdTask, parseTaskDescription, typeOfName, type HouseholdTask } from "./task";

/**
 * Reading an ALFWorld transcript (the format of the ReAct few-shot prompts in
 * shared/data/alfworld/react-alfworld.json): the opening room line, the task
 * line, then `> action` lines each followed by the game's reply. From what the
 * transcript reveals — the room's receptacles, what each receptacle held when
 * it was first seen, which ones were closed, which objects were heated, cleaned,
 * cooled or switched on — it rebuilds a scene in which the same actions can be
 * replayed (conformance.ts).
 */

/** One `> action` of a transcript and the reply printed under it. */
export interface TranscriptStep {
  /** The action without its `>` (trimmed). */
  action: string;
  /** The reply, trimmed; "You arrive at loc N. " prefixes removed. */
  observation: string;
}

/** A transcript split into its parts. */
export interface ParsedTranscript {
  /** `You are in the middle of a room. Looking quickly around you, you see …` */
  roomLine: string;
  /** `Your task is to: …` */
  taskLine: string;
  /** The task sentence after "Your task is to: ". */
  description: string;
  /** Non-empty lines between the task line and the first action (not replies to anything). */
  strayLines: string[];
  steps: TranscriptStep[];
}

const ROOM_PREFIX = "You are in the middle of a room. Looking quickly around you, you see ";
const TASK_PREFIX = "Your task is to: ";

/**
 * Reads an ALFWorld list (`nothing`, `a x 1`, `a x 1, and a y 2`, also without
 * the final "and") as entity names. Null when an item is not `a <type> <n>`.
 */
export function parseEntityList(text: string): string[] | null {
  const body = text.trim();
  if (body === "nothing") return [];
  const names: string[] = [];
  for (const raw of body.split(/, /)) {
    const item = raw.replace(/^and /, "").replace(/^an? /, "").trim();
    if (!ENTITY_NAME.test(item)) return null;
    names.push(item);
  }
  return names;
}

/** Splits a transcript; throws an Error naming what is missing. */
export function parseTranscript(text: string): ParsedTranscript {
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  let index = lines.findIndex((line) => line.trim() !== "");
  const roomLine = (lines[index] ?? "").trim();
  if (!roomLine.startsWith(ROOM_PREFIX)) throw new Error(`the transcript must start with "${ROOM_PREFIX}…"`);
  index += 1;
  const taskLine = (lines[index] ?? "").trim();
  if (!taskLine.startsWith(TASK_PREFIX)) throw new Error(`the second line must start with "${TASK_PREFIX}"`);
  index += 1;
  const strayLines: string[] = [];
  const steps: TranscriptStep[] = [];
  let current: { action: string; reply: string[] } | null = null;
  const flush = () => {
    if (current !== null) steps.push({ action: current.action, observation: stripArrivalPrefix(current.reply.join("\n").trim()) });
  };
  for (const line of lines.slice(index)) {
    if (line.trimStart().startsWith(">")) {
      flush();
      current = { action: cleanActionLine(line), reply: [] };
    } else if (current !== null) {
      if (line.trim() !== "" || current.reply.length > 0) current.reply.push(line.trimEnd());
    } else if (line.trim() !== "") {
      strayLines.push(line);
    }
  }
  flush();
  return { roomLine, taskLine, description: taskLine.slice(TASK_PREFIX.length).trim(), strayLines, steps };
}

interface ReceptacleKnowledge {
  openable: boolean | null;
  /** Whether it was open before the agent touched it; null when never seen. */
  initiallyOpen: boolean | null;
  /** Whether the transcript's own actions have opened or closed it yet. */
  touched: boolean;
  /** Tracked state during the replay of the transcript. */
  opened: boolean;
}

/** The scene rebuilt from a transcript, with remarks about what had to be assumed. */
export interface TranscriptScene {
  task: HouseholdTask;
  /** Inconsistencies the transcript contains (the replay will likely fail where they matter). */
  notes: string[];
}

/**
 * Rebuilds the scene a transcript was recorded in. What is never seen is left
 * out (objects in receptacles nobody looked into) or defaulted (whether an
 * unvisited cabinet opens: catalogue.ts). Receptacles share a location where the
 * transcript shows it: a `go to` one of them answered "Nothing happens." from
 * another, or a `look` facing several. An object's properties are its type's
 * defaults plus whatever the transcript shows it doing (heated → heatable,
 * switched on → toggleable, …).
 *
 * @throws Error when the room line or task sentence cannot be read, or
 *   AppError `invalid-dataset` when the rebuilt task is not valid (e.g. the
 *   target receptacle type is not in the room).
 */
export function sceneFromTranscript(parsed: ParsedTranscript, id: string): TranscriptScene {
  const notes: string[] = [];
  const roomList = parseEntityList(parsed.roomLine.slice(ROOM_PREFIX.length).replace(/\.$/, ""));
  if (roomList === null) throw new Error(`cannot read the room's receptacles: ${parsed.roomLine}`);
  const reading = parseTaskDescription(parsed.description);
  if (reading === null) throw new Error(`not an ALFWorld task sentence: "${parsed.description}"`);

  const receptacles = new Map<string, ReceptacleKnowledge>(
    roomList.map((name) => [name, { openable: null, initiallyOpen: null, touched: false, opened: false }]),
  );
  /** Where each known object started, and where it is now in the transcript's story (null: held). */
  const start = new Map<string, string>();
  const now = new Map<string, string | null>();
  const evidence = new Map<string, Set<HouseholdProperty>>();
  let location: string | null = null;

  const prove = (object: string, property: HouseholdProperty) => {
    evidence.set(object, new Set([...(evidence.get(object) ?? []), property]));
  };
  const sawIn = (receptacle: string, contents: readonly string[], step: number) => {
    for (const object of contents) {
      if (!now.has(object)) {
        start.set(object, receptacle);
        now.set(object, receptacle);
      } else if (now.get(object) !== receptacle) {
        notes.push(`step ${step}: ${object} is listed in ${receptacle} but the transcript had it elsewhere`);
      }
    }
    for (const [object, place] of now) {
      if (place === receptacle && !contents.includes(object)) notes.push(`step ${step}: ${object} is missing from ${receptacle}`);
    }
  };
  const sawState = (name: string, openable: boolean, opened: boolean, step: number) => {
    const known = receptacles.get(name);
    if (known === undefined) return;
    if (known.openable !== null && known.openable !== openable) notes.push(`step ${step}: ${name} is shown both openable and not`);
    known.openable = openable;
    if (!known.touched && known.initiallyOpen === null) known.initiallyOpen = opened;
    known.opened = opened;
  };
  /** Reads a receptacle description (arrival, examine); false when `text` is not one. */
  const readDescription = (name: string, text: string, step: number): boolean => {
    let match = new RegExp(`^On the ${name}, you see (.*)\\.$`).exec(text);
    if (match !== null) {
      const contents = parseEntityList(match[1] ?? "");
      if (contents === null) return false;
      sawState(name, false, false, step);
      sawIn(name, contents, step);
      return true;
    }
    match = new RegExp(`^The ${name} is open\\. In it, you see (.*)\\.$`).exec(text);
    if (match !== null) {
      const contents = parseEntityList(match[1] ?? "");
      if (contents === null) return false;
      sawState(name, true, true, step);
      sawIn(name, contents, step);
      return true;
    }
    if (text === `The ${name} is closed.`) {
      sawState(name, true, false, step);
      return true;
    }
    return false;
  };

  /** Receptacles seen to share a location (decision 0020): each name's group, merged as evidence comes. */
  const together = new Map<string, Set<string>>();
  const share = (names: readonly string[]) => {
    const group = new Set(names.flatMap((name) => [...(together.get(name) ?? [name])]));
    for (const name of group) together.set(name, group);
  };

  parsed.steps.forEach(({ action, observation }, index) => {
    const step = index + 1;
    const parsedCommand = parseHouseholdCommand(action);
    // "go to" a receptacle of the room answered "Nothing happens." from another one: the two share a location.
    if (parsedCommand.ok && parsedCommand.command.verb === "go to" && observation === NOTHING_HAPPENS) {
      const target = parsedCommand.command.target;
      if (location !== null && target !== location && receptacles.has(target)) share([location, target]);
      return;
    }
    // `look` at a shared location names all its receptacles: "You are facing the cabinet 2, and cabinet 1. …"
    if (parsedCommand.ok && parsedCommand.command.verb === "look") {
      const facing = /^You are facing the (.*?)\. Next to it, you see/.exec(observation);
      const names = facing === null ? [] : (facing[1] ?? "").split(/, and |, /).filter((name) => receptacles.has(name));
      if (names.length > 1) share(names);
      return;
    }
    if (!parsedCommand.ok || observation === NOTHING_HAPPENS) return;
    const command = parsedCommand.command;
    switch (command.verb) {
      case "go to":
        if (receptacles.has(command.target) && readDescription(command.target, observation, step)) location = command.target;
        return;
      case "examine":
        if (command.target === location) readDescription(command.target, observation, step);
        return;
      case "open": {
        const prefix = `You open the ${command.target}. `;
        const known = receptacles.get(command.target);
        if (known === undefined || !observation.startsWith(prefix)) return;
        if (!known.touched && known.initiallyOpen === null) known.initiallyOpen = false;
        known.touched = true;
        if (readDescription(command.target, observation.slice(prefix.length), step)) location = command.target;
        return;
      }
      case "close": {
        const known = receptacles.get(command.target);
        if (known === undefined || observation !== `You close the ${command.target}.`) return;
        if (!known.touched && known.initiallyOpen === null) known.initiallyOpen = true;
        known.touched = true;
        known.openable = true;
        known.opened = false;
        location = command.target;
        return;
      }
      case "take":
        if (observation !== `You pick up the ${command.object} from the ${command.receptacle}.`) return;
        if (!now.has(command.object)) start.set(command.object, command.receptacle);
        now.set(command.object, null);
        prove(command.object, "pickupable");
        return;
      case "put":
        if (observation === `You put the ${command.object} in/on the ${command.receptacle}.`) now.set(command.object, command.receptacle);
        return;
      case "use":
        if (observation !== `You turn on the ${command.object}.` && observation !== `You turn off the ${command.object}.`) return;
        if (!now.has(command.object) && location !== null) {
          start.set(command.object, location);
          now.set(command.object, location);
        }
        prove(command.object, "toggleable");
        return;
      case "heat":
      case "cool":
      case "clean":
        if (observation === `You ${command.verb} the ${command.object} using the ${command.tool}.`) {
          prove(command.object, command.verb === "heat" ? "heatable" : command.verb === "cool" ? "coolable" : "cleanable");
        }
        return;
      case "slice":
        if (observation === `You sliced the ${command.object} with the ${command.tool}.`) prove(command.object, "sliceable");
        return;
      default:
        return;
    }
  });

  const locationOf = new Map<string, number>();
  for (const group of new Set(together.values())) {
    if (group.size < 2) continue;
    const number = new Set(locationOf.values()).size + 1;
    for (const name of group) locationOf.set(name, number);
  }

  const objects = [...start].map(([name, receptacle]) => {
    const properties = new Set([...defaultProperties(typeOfName(name)), ...(evidence.get(name) ?? [])]);
    return { name, in: receptacle, properties: HOUSEHOLD_PROPERTIES.filter((property) => properties.has(property)) };
  });
  const task = {
    id,
    taskType: reading.taskType,
    description: parsed.description,
    goal: reading.goal,
    source: `transcript ${id}`,
    scene: {
      receptacles: roomList.map((name) => {
        const known = receptacles.get(name);
        const openable = known?.openable ?? isOpenableByDefault(typeOfName(name));
        const location = locationOf.get(name);
        return { name, openable, opened: openable && known?.initiallyOpen === true, ...(location === undefined ? {} : { location }) };
      }),
      objects,
    },
  };
  return { task: parseHouseholdTask(task), notes };
}
