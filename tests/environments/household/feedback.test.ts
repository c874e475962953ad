import { describe, expect, it } from "vitest";
import {
  compareEntityNames,
  describeReceptacle,
  examineObjectFeedback,
  inventoryFeedback,
  listEntities,
  stripArrivalPrefix,
  type ObjectView,
} from "@/lib/environments/household/feedback";

describe("lists (TextWorld grammar)", () => {
  it("uses 'a' for every item and ', and' before the last, even for two", () => {
    expect(listEntities([])).toBe("nothing");
    expect(listEntities(["egg 1"])).toBe("a egg 1");
    expect(listEntities(["egg 1", "cup 1"])).toBe("a cup 1, and a egg 1");
    expect(listEntities(["pencil 1", "creditcard 2", "creditcard 4", "mirror 1"])).toBe("a creditcard 4, a creditcard 2, a mirror 1, and a pencil 1");
  });

  it("sorts by type, then by number with the highest first (cabinet 13 before cabinet 9)", () => {
    expect(["cabinet 9", "cabinet 13", "coffeemachine 1", "cabinet 1"].sort(compareEntityNames)).toEqual(["cabinet 13", "cabinet 9", "cabinet 1", "coffeemachine 1"]);
    expect(["toiletpaperhanger 1", "toilet 1"].sort(compareEntityNames)).toEqual(["toilet 1", "toiletpaperhanger 1"]);
  });
});

describe("receptacle descriptions", () => {
  it("open-topped, closed and open receptacles", () => {
    expect(describeReceptacle({ name: "desk 1", openable: false, opened: false, contents: [] })).toBe("On the desk 1, you see nothing.");
    expect(describeReceptacle({ name: "fridge 1", openable: true, opened: false, contents: ["egg 1"] })).toBe("The fridge 1 is closed.");
    expect(describeReceptacle({ name: "fridge 1", openable: true, opened: true, contents: ["egg 1", "cup 1"] })).toBe(
      "The fridge 1 is open. In it, you see a cup 1, and a egg 1.",
    );
  });
});

describe("examineObject feedback, in the grammar's order", () => {
  const plain: ObjectView = { name: "apple 1", receptacleObject: false, toggleable: false, sliceable: true, hot: false, cool: false, clean: false, sliced: false, toggled: false };
  it.each<[Partial<ObjectView>, string]>([
    [{}, "There's nothing special about apple 1."],
    [{ hot: true }, "This is a hot apple 1."],
    [{ cool: true }, "This is a cold apple 1."],
    [{ clean: true }, "This is a clean apple 1."],
    [{ clean: true, hot: true }, "This is a hot and clean apple 1."],
    [{ clean: true, cool: true }, "This is a cool and clean apple 1."],
    [{ sliced: true }, "This is a sliced apple 1."],
    [{ sliced: true, hot: true }, "This is a hot sliced apple 1."],
    [{ sliced: true, cool: true }, "This is a cool sliced apple 1."],
    [{ sliced: true, clean: true }, "This is a clean sliced apple 1."],
    [{ sliced: true, clean: true, hot: true }, "This is a hot and clean sliced apple 1."],
    [{ sliced: true, clean: true, cool: true }, "This is a cool and clean sliced apple 1."],
    [{ receptacleObject: true, hot: true }, "This is a normal apple 1. In it, you see nothing."],
    [{ toggleable: true, toggled: true }, "This apple 1 is on."],
    [{ toggleable: true }, "This apple 1 is off."],
  ])("%o", (state, text) => {
    expect(examineObjectFeedback({ ...plain, ...state })).toBe(text);
  });
});

describe("other sentences", () => {
  it("inventory and the arrival prefix", () => {
    expect(inventoryFeedback([])).toBe("You are not carrying anything.");
    expect(inventoryFeedback(["mug 1"])).toBe("You are carrying: a mug 1.");
    expect(stripArrivalPrefix("You arrive at loc 12. On the desk 1, you see nothing.")).toBe("On the desk 1, you see nothing.");
    expect(stripArrivalPrefix("You arrive at desk 1. On the desk 1, you see nothing.")).toBe("On the desk 1, you see nothing.");
    expect(stripArrivalPrefix("Nothing happens.")).toBe("Nothing happens.");
  });
});
