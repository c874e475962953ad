import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseAction, parseHouseholdCommand, splitCompletion } from "@/lib/environments/household/commands";

describe("parseHouseholdCommand", () => {
  it.each([
    ["look", { verb: "look" }],
    ["inventory", { verb: "inventory" }],
    ["go to cabinet 12", { verb: "go to", target: "cabinet 12" }],
    ["open fridge 1", { verb: "open", target: "fridge 1" }],
    ["close drawer 3", { verb: "close", target: "drawer 3" }],
    ["examine mug 1", { verb: "examine", target: "mug 1" }],
    ["use desklamp 1", { verb: "use", object: "desklamp 1" }],
    ["take mug 1 from shelf 2", { verb: "take", object: "mug 1", receptacle: "shelf 2" }],
    ["put mug 1 in/on shelf 2", { verb: "put", object: "mug 1", receptacle: "shelf 2" }],
    ["heat egg 2 with microwave 1", { verb: "heat", object: "egg 2", tool: "microwave 1" }],
    ["cool pan 1 with fridge 1", { verb: "cool", object: "pan 1", tool: "fridge 1" }],
    ["clean lettuce 1 with sinkbasin 1", { verb: "clean", object: "lettuce 1", tool: "sinkbasin 1" }],
    ["slice apple 1 with knife 2", { verb: "slice", object: "apple 1", tool: "knife 2" }],
    ["think: First I need a mug. Then: a lamp.", { verb: "think", text: "First I need a mug. Then: a lamp." }],
  ])("%s", (text, command) => {
    expect(parseHouseholdCommand(text)).toEqual({ ok: true, command });
  });

  it("folds case and spacing outside think:, and drops a leading >", () => {
    expect(parseHouseholdCommand(">Go  TO Cabinet 1 ")).toEqual({ ok: true, command: { verb: "go to", target: "cabinet 1" } });
    expect(parseHouseholdCommand("> THINK: Keep My Case")).toEqual({ ok: true, command: { verb: "think", text: "Keep My Case" } });
  });

  it("rejects put without the literal in/on, and anything else", () => {
    expect(parseHouseholdCommand("put mug 1 in shelf 2")).toMatchObject({ ok: false, error: expect.stringContaining("in/on") });
    for (const text of ["", "   ", "go", "take mug 1", "heat egg 1", "move mug 1 to shelf 2", "Search[mug]", "think"]) {
      expect(parseHouseholdCommand(text).ok).toBe(false);
    }
  });
});

describe("parseAction", () => {
  it("returns the verb and its argument, and the cleaned text", () => {
    expect(parseAction("> take mug 1 from shelf 2")).toEqual({ ok: true, action: { type: "take", argument: "mug 1 from shelf 2" }, text: "take mug 1 from shelf 2" });
    expect(parseAction("look")).toEqual({ ok: true, action: { type: "look", argument: "" }, text: "look" });
    expect(parseAction("think: hm")).toEqual({ ok: true, action: { type: "think", argument: "hm" }, text: "think: hm" });
  });

  it("is total: never throws, on any input", () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const parsed = parseAction(text);
        expect(typeof parsed.text).toBe("string");
        if (!parsed.ok) expect(parsed.error.length).toBeGreaterThan(0);
      }),
    );
  });
});

describe("splitCompletion", () => {
  it("takes the first non-empty line without its > sign; no separate thought", () => {
    expect(splitCompletion(" go to desk 1")).toEqual({ thought: "", actionText: "go to desk 1" });
    expect(splitCompletion("\n\n> open drawer 1\nThe drawer 1 is open.\n> take x")).toEqual({ thought: "", actionText: "open drawer 1" });
    expect(splitCompletion(" think: I need a lamp.\r\nOK.")).toEqual({ thought: "", actionText: "think: I need a lamp." });
    expect(splitCompletion("")).toEqual({ thought: "", actionText: "" });
    expect(splitCompletion(">\n>  \n")).toEqual({ thought: "", actionText: "" });
  });
});
