import { describe, expect, it } from "vitest";
import { parseAction } from "@/lib/environments/household/commands";
import { HouseholdEpisode } from "@/lib/environments/household/episode";
import { NOTHING_HAPPENS } from "@/lib/environments/household/feedback";
import { PUT_PENCIL_ON_DESK, lastObservation, play } from "./fixtures";

const task = PUT_PENCIL_ON_DESK;
const last = (...actions: string[]) => lastObservation(task, actions);

describe("the opening text", () => {
  it("lists every receptacle in ALFWorld's order and states the task", () => {
    expect(new HouseholdEpisode(task).initialObservation()).toBe(
      "You are in the middle of a room. Looking quickly around you, you see a cabinet 2, a cabinet 1, a countertop 1, a desk 1, a diningtable 1, a drawer 1, a fridge 1, a microwave 1, a shelf 1, a sinkbasin 1, and a stoveburner 1.\nYour task is to: put a pencil in desk.",
    );
  });
});

describe("look, inventory, think", () => {
  it("look in the middle of the room sees nothing (as in ALFWorld); at a receptacle it faces it", () => {
    expect(last("look")).toBe("You are in the middle of a room. Looking quickly around you, you see nothing.");
    expect(last("go to desk 1", "look")).toBe("You are facing the desk 1. Next to it, you see nothing.");
  });

  it("inventory lists what the agent holds", () => {
    expect(last("inventory")).toBe("You are not carrying anything.");
    expect(last("go to countertop 1", "take mug 1 from countertop 1", "inventory")).toBe("You are carrying: a mug 1.");
  });

  it("think: is answered OK. and changes nothing", () => {
    const { episode, observations } = play(task, ["think: first the shelf", "Think:   no space needed"]);
    expect(observations).toEqual(["OK.", "OK."]);
    expect(episode.snapshot()).toEqual({ location: null, inventory: [] });
  });
});

describe("go to", () => {
  it("arriving at an open-topped receptacle lists its contents", () => {
    expect(last("go to countertop 1")).toBe("On the countertop 1, you see a apple 1, a knife 1, and a mug 1.");
    expect(last("go to cabinet 2")).toBe("On the cabinet 2, you see nothing.");
    expect(last("go to diningtable 1")).toBe("On the diningtable 1, you see a creditcard 1.");
  });

  it("arriving at a closed receptacle says it is closed; at an open one lists what is in it", () => {
    expect(last("go to cabinet 1")).toBe("The cabinet 1 is closed.");
    expect(last("go to drawer 1")).toBe("The drawer 1 is open. In it, you see a spoon 1.");
  });

  it("moves the agent, reported in the step's state", () => {
    const episode = new HouseholdEpisode(task);
    expect(episode.step(parseAction("go to desk 1")).state).toEqual({ location: "desk 1", inventory: [] });
  });

  it("going where you already are, or to something that is not a receptacle, does nothing", () => {
    expect(last("go to desk 1", "go to desk 1")).toBe(NOTHING_HAPPENS);
    expect(last("go to desklamp 1")).toBe(NOTHING_HAPPENS);
    expect(last("go to bathtub 1")).toBe(NOTHING_HAPPENS);
    expect(last("go to the desk")).toBe(NOTHING_HAPPENS);
  });
});

describe("open and close", () => {
  it("opening lists the contents; it can then be closed; repeats do nothing", () => {
    const { observations, episode } = play(task, ["go to cabinet 1", "open cabinet 1", "open cabinet 1", "close cabinet 1", "close cabinet 1"]);
    expect(observations).toEqual([
      "The cabinet 1 is closed.",
      "You open the cabinet 1. The cabinet 1 is open. In it, you see a cup 1.",
      NOTHING_HAPPENS,
      "You close the cabinet 1.",
      NOTHING_HAPPENS,
    ]);
    expect(episode.world.receptacles.get("cabinet 1")?.opened).toBe(false);
  });

  it("only openable receptacles open", () => {
    expect(last("go to countertop 1", "open countertop 1")).toBe(NOTHING_HAPPENS);
    expect(last("open mug 1")).toBe(NOTHING_HAPPENS);
  });

  it("opening a receptacle elsewhere walks there first (the transcripts' react_heat_0 does this)", () => {
    const { observations, episode } = play(task, ["open fridge 1"]);
    expect(observations).toEqual(["You open the fridge 1. The fridge 1 is open. In it, you see a egg 1."]);
    expect(episode.snapshot().location).toBe("fridge 1");
  });

  it("an opened receptacle stays open when you come back", () => {
    expect(last("open fridge 1", "go to desk 1", "go to fridge 1")).toBe("The fridge 1 is open. In it, you see a egg 1.");
  });
});

describe("take and put", () => {
  it("take picks up an object from the receptacle you stand at", () => {
    const { observations, episode } = play(task, ["go to countertop 1", "take mug 1 from countertop 1", "look"]);
    expect(observations[1]).toBe("You pick up the mug 1 from the countertop 1.");
    expect(episode.snapshot()).toEqual({ location: "countertop 1", inventory: ["mug 1"] });
    expect(last("go to countertop 1", "take mug 1 from countertop 1", "examine countertop 1")).toBe(
      "On the countertop 1, you see a apple 1, and a knife 1.",
    );
  });

  it("take does nothing from afar, from a closed receptacle, with full hands, for absent or fixed objects", () => {
    expect(last("take mug 1 from countertop 1")).toBe(NOTHING_HAPPENS);
    expect(last("go to desk 1", "take mug 1 from countertop 1")).toBe(NOTHING_HAPPENS);
    expect(last("go to cabinet 1", "take cup 1 from cabinet 1")).toBe(NOTHING_HAPPENS);
    expect(last("go to countertop 1", "take mug 1 from countertop 1", "take apple 1 from countertop 1")).toBe(NOTHING_HAPPENS);
    expect(last("go to countertop 1", "take pen 1 from countertop 1")).toBe(NOTHING_HAPPENS);
    expect(last("go to shelf 1", "take houseplant 1 from shelf 1")).toBe(NOTHING_HAPPENS);
    expect(last("go to desk 1", "take desklamp 1 from desk 1")).toBe(NOTHING_HAPPENS);
  });

  it("put places the held object in/on the receptacle you stand at", () => {
    const { observations, episode } = play(task, ["go to countertop 1", "take mug 1 from countertop 1", "go to desk 1", "put mug 1 in/on desk 1", "look"]);
    expect(observations[3]).toBe("You put the mug 1 in/on the desk 1.");
    expect(episode.snapshot()).toEqual({ location: "desk 1", inventory: [] });
    expect(episode.world.objects.get("mug 1")?.location).toBe("desk 1");
  });

  it("contents are listed in ALFWorld's order after a put (type, then highest number first)", () => {
    expect(last("go to diningtable 1", "take creditcard 1 from diningtable 1", "go to desk 1", "put creditcard 1 in/on desk 1", "examine desk 1")).toBe(
      "On the desk 1, you see a creditcard 1, a desklamp 1, and a pen 1.",
    );
    expect(last("go to shelf 1", "take pencil 1 from shelf 1", "examine shelf 1")).toBe("On the shelf 1, you see a houseplant 1, and a pencil 2.");
  });

  it("put does nothing without the object, from afar, into a closed receptacle, or without the literal in/on", () => {
    expect(last("go to desk 1", "put mug 1 in/on desk 1")).toBe(NOTHING_HAPPENS);
    expect(last("go to countertop 1", "take mug 1 from countertop 1", "put mug 1 in/on desk 1")).toBe(NOTHING_HAPPENS);
    expect(last("go to countertop 1", "take mug 1 from countertop 1", "go to cabinet 1", "put mug 1 in/on cabinet 1")).toBe(NOTHING_HAPPENS);
    expect(last("go to countertop 1", "take mug 1 from countertop 1", "put mug 1 in countertop 1")).toBe(NOTHING_HAPPENS);
    expect(last("go to countertop 1", "take mug 1 from countertop 1", "put mug 1 on countertop 1")).toBe(NOTHING_HAPPENS);
  });
});

describe("heat, cool, clean", () => {
  const holdingApple = ["go to countertop 1", "take apple 1 from countertop 1"];

  it("heat with the microwave (closed is fine), cool with the fridge, clean with the sinkbasin", () => {
    const { observations } = play(task, [
      ...holdingApple,
      "go to microwave 1",
      "heat apple 1 with microwave 1",
      "examine apple 1",
      "go to fridge 1",
      "cool apple 1 with fridge 1",
      "examine apple 1",
      "go to sinkbasin 1",
      "clean apple 1 with sinkbasin 1",
      "examine apple 1",
    ]);
    expect(observations.slice(2)).toEqual([
      "The microwave 1 is closed.",
      "You heat the apple 1 using the microwave 1.",
      "This is a hot apple 1.",
      "The fridge 1 is closed.",
      "You cool the apple 1 using the fridge 1.",
      "This is a cold apple 1.",
      "On the sinkbasin 1, you see nothing.",
      "You clean the apple 1 using the sinkbasin 1.",
      "This is a cool and clean apple 1.",
    ]);
  });

  it("does nothing with the wrong appliance, from afar, with an object not held or without the property", () => {
    expect(last(...holdingApple, "go to fridge 1", "heat apple 1 with fridge 1")).toBe(NOTHING_HAPPENS);
    expect(last(...holdingApple, "go to stoveburner 1", "heat apple 1 with stoveburner 1")).toBe(NOTHING_HAPPENS);
    expect(last(...holdingApple, "heat apple 1 with microwave 1")).toBe(NOTHING_HAPPENS);
    expect(last("go to microwave 1", "heat apple 1 with microwave 1")).toBe(NOTHING_HAPPENS);
    expect(last("go to countertop 1", "take knife 1 from countertop 1", "go to microwave 1", "heat knife 1 with microwave 1")).toBe(NOTHING_HAPPENS);
    expect(last("go to diningtable 1", "take creditcard 1 from diningtable 1", "go to sinkbasin 1", "clean creditcard 1 with sinkbasin 1")).toBe(
      NOTHING_HAPPENS,
    );
  });
});

describe("slice", () => {
  it("slices a sliceable object here with a held knife", () => {
    const { observations } = play(task, ["go to countertop 1", "take knife 1 from countertop 1", "slice apple 1 with knife 1", "examine apple 1"]);
    expect(observations.slice(2)).toEqual(["You sliced the apple 1 with the knife 1.", "This is a sliced apple 1."]);
  });

  it("does nothing without a knife in hand or with an unsliceable object", () => {
    expect(last("go to countertop 1", "slice apple 1 with knife 1")).toBe(NOTHING_HAPPENS);
    expect(last("go to countertop 1", "take knife 1 from countertop 1", "slice mug 1 with knife 1")).toBe(NOTHING_HAPPENS);
  });
});

describe("use", () => {
  it("turns on a lamp here; ALFWorld reports 'turn on' every time", () => {
    const { observations } = play(task, ["go to desk 1", "use desklamp 1", "examine desklamp 1", "use desklamp 1"]);
    expect(observations.slice(1)).toEqual(["You turn on the desklamp 1.", "This desklamp 1 is on.", "You turn on the desklamp 1."]);
  });

  it("does nothing from afar or on something without a switch", () => {
    expect(last("use desklamp 1")).toBe(NOTHING_HAPPENS);
    expect(last("go to shelf 1", "use desklamp 1")).toBe(NOTHING_HAPPENS);
    expect(last("go to countertop 1", "use mug 1")).toBe(NOTHING_HAPPENS);
  });
});

describe("examine", () => {
  it("examines the receptacle you stand at, and objects held or visible here", () => {
    expect(last("go to desk 1", "examine desk 1")).toBe("On the desk 1, you see a desklamp 1, and a pen 1.");
    expect(last("go to desk 1", "examine desklamp 1")).toBe("This desklamp 1 is off.");
    expect(last("go to desk 1", "examine pen 1")).toBe("There's nothing special about pen 1.");
    expect(last("go to countertop 1", "examine mug 1")).toBe("This is a normal mug 1. In it, you see nothing.");
    expect(last("go to countertop 1", "take apple 1 from countertop 1", "go to desk 1", "examine apple 1")).toBe("There's nothing special about apple 1.");
  });

  it("does nothing for receptacles elsewhere or objects out of sight", () => {
    expect(last("examine desk 1")).toBe(NOTHING_HAPPENS);
    expect(last("go to desk 1", "examine mug 1")).toBe(NOTHING_HAPPENS);
    expect(last("go to cabinet 1", "examine cup 1")).toBe(NOTHING_HAPPENS);
  });
});

describe("invalid input", () => {
  it("anything that is not a command is answered Nothing happens. and counts as a step", () => {
    const { observations, episode } = play(task, ["", "fly to the moon", "Search[mug]", "go", "take mug 1"]);
    expect(observations).toEqual(Array(5).fill(NOTHING_HAPPENS));
    expect(episode.history).toHaveLength(5);
  });

  it("is lenient about case, spacing and a repeated prompt sign", () => {
    expect(last("Go To  Countertop 1")).toBe("On the countertop 1, you see a apple 1, a knife 1, and a mug 1.");
    expect(last(">go to desk 1")).toBe("On the desk 1, you see a desklamp 1, and a pen 1.");
  });
});
