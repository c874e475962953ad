import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { defaultProperties } from "@/lib/environments/household/catalogue";
import { normaliseCommand, parseAction, parseHouseholdCommand, splitCompletion } from "@/lib/environments/household/commands";
import { HouseholdEpisode } from "@/lib/environments/household/episode";
import { replayTranscript } from "@/lib/environments/household/conformance";
import { expertPlan } from "@/lib/environments/household/expert";
import { NOTHING_HAPPENS, listNames, lookFeedback } from "@/lib/environments/household/feedback";
import { ROOMS_FOR_TASK, SHARED_LOCATIONS, generateHouseholdTask, generateHouseholdTaskSet } from "@/lib/environments/household/generator";
import { HOUSEHOLD_TASK_TYPES, parseHouseholdTask, typeOfName, type HouseholdTask } from "@/lib/environments/household/task";
import { parseTranscript, sceneFromTranscript } from "@/lib/environments/household/transcript";
import { play } from "./fixtures";

// ALFWorld's shared locations (receptacleAtLocation): several receptacles at one place. Going from one
// to another of the same place is "Nothing happens." (TextWorld binds ?lStart ≠ ?lEnd), `look` names
// them all, and every action that needs the agent "at" a receptacle works for all of them.

/** A kitchen corner: cabinets 1 and 2 stacked at location 1, burners 1 and 2 at location 2, a desk alone. */
function kitchenCorner(taskType: HouseholdTask["taskType"] = "pick_and_place_simple", description = "put a mug in desk.", goal: object = { object: "mug", receptacle: "desk" }): HouseholdTask {
  const items: Record<string, string[]> = { "cabinet 1": ["mug 1"], "cabinet 2": ["cup 1"], "stoveburner 1": ["pan 1"], "stoveburner 2": [], "desk 1": ["desklamp 1"], "drawer 1": ["book 1"] };
  return parseHouseholdTask({
    id: "shared-corner",
    taskType,
    description,
    goal,
    scene: {
      receptacles: [
        { name: "cabinet 1", openable: true, opened: false, location: 1 },
        { name: "cabinet 2", openable: false, location: 1 },
        { name: "stoveburner 1", openable: false, location: 2 },
        { name: "stoveburner 2", openable: false, location: 2 },
        { name: "desk 1", openable: false },
        { name: "drawer 1", openable: false },
      ],
      objects: Object.entries(items).flatMap(([receptacle, names]) => names.map((name) => ({ name, in: receptacle, properties: defaultProperties(typeOfName(name)) }))),
    },
  });
}

const observe = (actions: string[], task = kitchenCorner()) => play(task, actions).observations;

describe("shared locations: go to", () => {
  it("going to a receptacle that shares the agent's location is Nothing happens., and the agent stays", () => {
    const { episode, observations } = play(kitchenCorner(), ["go to cabinet 2", "go to cabinet 1"]);
    expect(observations).toEqual(["On the cabinet 2, you see a cup 1.", NOTHING_HAPPENS]);
    expect(episode.snapshot().location).toBe("cabinet 2");
  });

  it("going to a receptacle at another location works, from either receptacle of the place", () => {
    expect(observe(["go to cabinet 1", "go to stoveburner 2", "go to stoveburner 1", "go to desk 1"])).toEqual([
      "The cabinet 1 is closed.",
      "On the stoveburner 2, you see nothing.",
      NOTHING_HAPPENS,
      "On the desk 1, you see a desklamp 1.",
    ]);
  });

  it("receptacles without a location number each stand alone", () => {
    expect(observe(["go to desk 1", "go to drawer 1"])).toEqual(["On the desk 1, you see a desklamp 1.", "On the drawer 1, you see a book 1."]);
  });
});

describe("shared locations: look", () => {
  it("names every receptacle of the place, and (ALFWorld's quirk) the objects in them as next to it", () => {
    expect(observe(["go to cabinet 2", "look"]).at(-1)).toBe("You are facing the cabinet 2, and cabinet 1. Next to it, you see a cup 1, and a mug 1.");
    expect(observe(["go to stoveburner 1", "look"]).at(-1)).toBe("You are facing the stoveburner 2, and stoveburner 1. Next to it, you see a pan 1.");
  });

  it("a receptacle alone is faced alone with nothing next to it", () => {
    expect(observe(["go to desk 1", "look"]).at(-1)).toBe("You are facing the desk 1. Next to it, you see nothing.");
  });

  it("formats like TextWorld's list grammar", () => {
    expect(listNames(["cabinet 1", "cabinet 2"])).toBe("cabinet 2, and cabinet 1");
    expect(listNames(["countertop 1", "cabinet 3", "cabinet 12"])).toBe("cabinet 12, cabinet 3, and countertop 1");
    expect(lookFeedback([])).toBe("You are in the middle of a room. Looking quickly around you, you see nothing.");
  });
});

describe("shared locations: acting on a neighbour", () => {
  it("opens, examines, takes from and puts into the other receptacle of the place without moving", () => {
    const { episode, observations } = play(kitchenCorner(), [
      "go to cabinet 2",
      "take mug 1 from cabinet 1",
      "open cabinet 1",
      "take mug 1 from cabinet 1",
      "examine cabinet 1",
      "put mug 1 in/on cabinet 2",
      "take cup 1 from cabinet 2",
      "put cup 1 in/on cabinet 1",
    ]);
    expect(observations).toEqual([
      "On the cabinet 2, you see a cup 1.",
      NOTHING_HAPPENS, // cabinet 1 is closed
      "You open the cabinet 1. The cabinet 1 is open. In it, you see a mug 1.",
      "You pick up the mug 1 from the cabinet 1.",
      "The cabinet 1 is open. In it, you see nothing.",
      "You put the mug 1 in/on the cabinet 2.",
      "You pick up the cup 1 from the cabinet 2.",
      "You put the cup 1 in/on the cabinet 1.",
    ]);
    expect(episode.snapshot()).toEqual({ location: "cabinet 2", inventory: [] });
  });

  it("cannot take from a receptacle at another location", () => {
    expect(observe(["go to cabinet 2", "take pan 1 from stoveburner 1"]).at(-1)).toBe(NOTHING_HAPPENS);
  });

  it("a lamp in a receptacle sharing the agent's location lights the examine task", () => {
    const task = parseHouseholdTask({
      id: "lamp-next-door",
      taskType: "look_at_obj_in_light",
      description: "look at book under the desklamp.",
      goal: { object: "book", lamp: "desklamp" },
      scene: {
        receptacles: [
          { name: "drawer 1", openable: false, location: 4 },
          { name: "sidetable 1", openable: false, location: 4 },
          { name: "bed 1", openable: false },
        ],
        objects: [
          { name: "book 1", in: "bed 1", properties: ["pickupable"] },
          { name: "desklamp 1", in: "sidetable 1", properties: ["toggleable"] },
        ],
      },
    });
    const episode = new HouseholdEpisode(task);
    for (const action of ["go to bed 1", "take book 1 from bed 1", "go to drawer 1", "use desklamp 1"]) episode.step(parseAction(action));
    expect(episode.won).toBe(true);
  });
});

describe("command normalisation before matching", () => {
  it("folds case, spacing and trailing punctuation or quotes, in the reader and in the world alike", () => {
    expect(normaliseCommand("> Go  to Desk 1.")).toBe("go to desk 1");
    expect(normaliseCommand('GO TO desk 1!"')).toBe("go to desk 1");
    for (const text of ["Go to Desk 1.", "go  to desk 1 .", "GO TO DESK 1!", "go to desk 1 ”", "go to desk\t1;"]) {
      expect(parseHouseholdCommand(text)).toEqual({ ok: true, command: { verb: "go to", target: "desk 1" } });
      expect(parseAction(text)).toMatchObject({ ok: true, action: { type: "go to", argument: "desk 1" } });
      expect(observe([text]).at(-1)).toBe("On the desk 1, you see a desklamp 1.");
    }
    expect(observe(["go to cabinet 2", "Take Cup 1 From Cabinet 2."]).at(-1)).toBe("You pick up the cup 1 from the cabinet 2.");
    expect(splitCompletion("Open cabinet 1!").actionText).toBe("Open cabinet 1");
  });
});

describe("generated scenes share locations, like ALFWorld's rooms", () => {
  it("every kitchen shares a location (the burners), pairs of one type only", () => {
    for (let seed = 1; seed <= 20; seed += 1) {
      const task = generateHouseholdTask({ taskType: "pick_heat_then_place_in_recep", seed, room: "kitchen" });
      const byLocation = new Map<number, string[]>();
      for (const receptacle of task.scene.receptacles) {
        if (receptacle.location !== undefined) byLocation.set(receptacle.location, [...(byLocation.get(receptacle.location) ?? []), receptacle.name]);
      }
      expect(byLocation.size).toBeGreaterThan(0);
      for (const names of byLocation.values()) {
        expect(names).toHaveLength(2);
        expect(new Set(names.map(typeOfName)).size).toBe(1);
        expect(Object.keys(SHARED_LOCATIONS.kitchen)).toContain(typeOfName(names[0] ?? ""));
      }
    }
  });

  it("bathrooms and the other rooms share some locations over a range of seeds", () => {
    for (const room of ["bathroom", "bedroom", "livingroom"] as const) {
      const shared = Array.from({ length: 20 }, (_, index) => generateHouseholdTask({ taskType: "pick_and_place_simple", seed: index + 1, room })).filter((task) =>
        task.scene.receptacles.some((receptacle) => receptacle.location !== undefined),
      );
      expect(shared.length, room).toBeGreaterThan(0);
    }
  });

  it("the expert still solves every generated scene, never going to its own location", () => {
    for (const task of [...generateHouseholdTaskSet(8), ...HOUSEHOLD_TASK_TYPES.flatMap((taskType) => ROOMS_FOR_TASK[taskType].map((room) => generateHouseholdTask({ taskType, seed: 11, room })))]) {
      const plan = expertPlan(task);
      expect(plan, task.id).not.toBeNull();
      const { episode, observations } = play(task, plan ?? []);
      expect(observations, task.id).not.toContain(NOTHING_HAPPENS);
      expect(episode.won, task.id).toBe(true);
    }
  });
});

describe("a real run with a shared location (Reflexion's reflexion_few_shot_examples.txt)", () => {
  // Its second episode: at drawer 2, "go to drawer 3" answers "Nothing happens." — drawers 2 and 3 share
  // a location in that ALFWorld room. The loader reads that as evidence, and our world answers the same.
  const file = readFileSync(path.resolve(process.cwd(), "../shared/data/reflexion/noahshinn-reflexion/alfworld_runs/reflexion_few_shot_examples.txt"), "utf8");
  const start = file.indexOf("You are in the middle of a room. Looking quickly around you, you see a bed 1");
  const episode = file.slice(start, file.indexOf("STATUS:", start));

  it("rebuilds drawers 2 and 3 at one location and replays every observation", () => {
    const parsed = parseTranscript(episode);
    const { task } = sceneFromTranscript(parsed, "reflexion-few-shot-2");
    const located = task.scene.receptacles.filter((receptacle) => receptacle.location !== undefined).map((receptacle) => receptacle.name);
    expect(located.sort()).toEqual(["drawer 2", "drawer 3"]);
    const replay = replayTranscript(task, `${parsed.roomLine}\n${parsed.taskLine}`, parsed.steps);
    const goToDrawer3 = replay.steps.find((step) => step.action === "go to drawer 3");
    expect(goToDrawer3).toMatchObject({ expected: NOTHING_HAPPENS, actual: NOTHING_HAPPENS });
    expect(replay.steps.filter((step) => step.match === "different")).toEqual([]);
  });

  it("without the shared location, the same replay would disagree at that step", () => {
    const parsed = parseTranscript(episode);
    const { task } = sceneFromTranscript(parsed, "reflexion-few-shot-2");
    const apart = { ...task, scene: { ...task.scene, receptacles: task.scene.receptacles.map(({ location: _location, ...rest }) => rest) } };
    const replay = replayTranscript(apart, `${parsed.roomLine}\n${parsed.taskLine}`, parsed.steps);
    expect(replay.steps.find((step) => step.action === "go to drawer 3")?.match).toBe("different");
  });
});
