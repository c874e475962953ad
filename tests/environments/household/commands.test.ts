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
    // The lines after the command used to be dropped silently; they are now reported (decision 0014).
    expect(splitCompletion("\n\n> open drawer 1\nThe drawer 1 is open.\n> take x")).toEqual({
      thought: "",
      actionText: "open drawer 1",
      ignored: "The drawer 1 is open.\n> take x",
    });
    expect(splitCompletion(" think: I need a lamp.\r\nOK.")).toEqual({ thought: "", actionText: "think: I need a lamp.", ignored: "OK." });
    expect(splitCompletion("")).toEqual({ thought: "", actionText: "" });
    expect(splitCompletion(">\n>  \n")).toEqual({ thought: "", actionText: "" });
  });
});

describe("the variants real models write (decision 0014)", () => {
  it.each([
    ["trailing full stop", "go to desk 1.", "go to desk 1", { type: "go to", argument: "desk 1" }],
    ["trailing exclamation mark", "open drawer 2!", "open drawer 2", { type: "open", argument: "drawer 2" }],
    ["case and spacing", "Take  Mug 1 FROM shelf 2.", "Take  Mug 1 FROM shelf 2", { type: "take", argument: "mug 1 from shelf 2" }],
    ["a > sign and an Action label", "> Action 3: put mug 1 in/on desk 1.", "put mug 1 in/on desk 1", { type: "put", argument: "mug 1 in/on desk 1" }],
    ["an unnumbered Action label", "Action: heat egg 1 with microwave 1", "heat egg 1 with microwave 1", { type: "heat", argument: "egg 1 with microwave 1" }],
    ["surrounding quotes", '"use desklamp 1"', "use desklamp 1", { type: "use", argument: "desklamp 1" }],
    ["surrounding backticks and a full stop", "`examine mug 1`.", "examine mug 1", { type: "examine", argument: "mug 1" }],
    ["look with a full stop", "look.", "look", { type: "look", argument: "" }],
    ["think keeps its text as written", "think: First a mug. Then the lamp.", "think: First a mug. Then the lamp.", { type: "think", argument: "First a mug. Then the lamp." }],
  ])("%s", (_name, completion, actionText, action) => {
    const split = splitCompletion(completion);
    expect(split.actionText).toBe(actionText);
    expect(split.ignored).toBeUndefined();
    const parsed = parseAction(split.actionText);
    expect(parsed.ok && parsed.action).toEqual(action);
  });

  it("text after a command, a second command and a made-up observation are read past and reported, never executed", () => {
    expect(splitCompletion("go to desk 1. Then I will open drawer 1.")).toEqual({ thought: "", actionText: "go to desk 1", ignored: "Then I will open drawer 1." });
    expect(splitCompletion("go to desk 1, open drawer 1")).toEqual({ thought: "", actionText: "go to desk 1", ignored: "open drawer 1" });
    expect(splitCompletion("take mug 1 from desk 1\nYou pick up the mug 1 from the desk 1.\n> go to shelf 1")).toEqual({
      thought: "",
      actionText: "take mug 1 from desk 1",
      ignored: "You pick up the mug 1 from the desk 1.\n> go to shelf 1",
    });
  });

  it("a malformed first command is the step's action: a valid command on a later line is not run instead", () => {
    expect(splitCompletion("put mug 1 in desk 1\n> go to desk 1")).toEqual({ thought: "", actionText: "put mug 1 in desk 1", ignored: "> go to desk 1" });
    expect(parseAction("put mug 1 in desk 1").ok).toBe(false);
  });

  it("a Thought line before an Action line (a chat model's ReAct shape): the command is read, the thought reported", () => {
    expect(splitCompletion("Thought: I need a mug first.\nAction: go to cabinet 1")).toEqual({ thought: "", actionText: "go to cabinet 1", ignored: "Thought: I need a mug first." });
  });

  it("reasoning blocks are taken out and never executed", () => {
    expect(splitCompletion("<think>Maybe put mug 1 in/on desk 1 now? No.</think>\ngo to desk 1")).toEqual({
      thought: "",
      actionText: "go to desk 1",
      reasoning: "Maybe put mug 1 in/on desk 1 now? No.",
    });
    const inside = splitCompletion("<think>put mug 1 in/on desk 1</think>");
    expect(inside.actionText).toBe("");
    expect(parseAction(inside.actionText).ok).toBe(false);
    expect(splitCompletion("<think>the lamp is on the desk\n> use desklamp 1")).toMatchObject({ actionText: "use desklamp 1", reasoning: "the lamp is on the desk" });
  });

  it("a line that is not a command keeps its text, and the error quotes it and lists the commands", () => {
    const parsed = parseAction("I think I should find the mug first.");
    expect(parsed).toMatchObject({ ok: false, text: "I think I should find the mug first" });
    if (!parsed.ok) expect(parsed.error).toBe(`"I think I should find the mug first" is not a command. Commands: ${"look, inventory, go to X, open X, close X, take X from Y, put X in/on Y, use X, heat X with Y, cool X with Y, clean X with Y, slice X with Y, examine X, think: …"}.`);
  });

  it("parseAction reads a person's or a recorded action the same way: text is the command the episode executes", () => {
    expect(parseAction("> Go to desk 1. Then open it.")).toEqual({ ok: true, action: { type: "go to", argument: "desk 1" }, text: "Go to desk 1", ignored: "Then open it." });
    expect(parseAction("go to desk 1")).toEqual({ ok: true, action: { type: "go to", argument: "desk 1" }, text: "go to desk 1" });
  });

  /** An ALFWorld command with entity names, as (canonical text, parsed action). */
  const name = fc.tuple(fc.constantFrom("desk", "cabinet", "mug", "sinkbasin", "desklamp", "fridge"), fc.integer({ min: 1, max: 12 })).map(([word, n]) => `${word} ${n}`);
  const command = fc.oneof(
    fc.constantFrom("look", "inventory").map((verb) => ({ text: verb, action: { type: verb, argument: "" } })),
    fc.tuple(fc.constantFrom("go to", "open", "close", "examine"), name).map(([verb, target]) => ({ text: `${verb} ${target}`, action: { type: verb, argument: target } })),
    name.map((object) => ({ text: `use ${object}`, action: { type: "use", argument: object } })),
    fc.tuple(name, name).map(([object, from]) => ({ text: `take ${object} from ${from}`, action: { type: "take", argument: `${object} from ${from}` } })),
    fc.tuple(name, name).map(([object, to]) => ({ text: `put ${object} in/on ${to}`, action: { type: "put", argument: `${object} in/on ${to}` } })),
    fc.tuple(fc.constantFrom("heat", "cool", "clean", "slice"), name, name).map(([verb, object, tool]) => ({ text: `${verb} ${object} with ${tool}`, action: { type: verb, argument: `${object} with ${tool}` } })),
  );
  const after = fc.oneof(
    fc.constant(""),
    fc.constantFrom(".", "!", "?", ",", ";"),
    fc.string({ maxLength: 30 }).map((text) => ` ${text.replace(/</g, " ")}`),
    fc.string({ maxLength: 30 }).map((text) => `. ${text.replace(/</g, " ")}`),
    fc.string({ maxLength: 60 }).map((text) => `\n${text.replace(/</g, " ")}`),
  );

  it("property: a valid command survives case, a > sign, a label, quotes, trailing punctuation and anything after it", () => {
    fc.assert(
      fc.property(command, fc.boolean(), fc.boolean(), fc.constantFrom(["", ""], ['"', '"'], ["`", "`"]), after, fc.boolean(), ({ text, action }, upper, prompt, [open, close], tail, labelled) => {
        const written = upper ? text.toUpperCase().replace("IN/ON", "in/on") : text;
        const completion = `${prompt ? "> " : ""}${labelled ? "Action: " : ""}${open}${written}${close}${tail}`;
        const split = splitCompletion(completion);
        const parsed = parseAction(split.actionText);
        expect(parsed.ok && parsed.action).toEqual(action);
        // What the episode executes and the loop rules compare reads back the same.
        expect(parseAction(parsed.text).ok && parseAction(parsed.text).text).toBe(parsed.text);
      }),
      { numRuns: 3000 },
    );
  });

  it("property: the reader never throws, on arbitrary or hostile text", () => {
    const hostile = fc
      .array(fc.oneof(fc.constantFrom("<think>", "</think>", "> ", "Action:", "go to desk 1", "think:", "\n", '"', "`", "."), fc.string({ maxLength: 10 })), { maxLength: 20 })
      .map((parts) => parts.join(""));
    fc.assert(
      fc.property(fc.oneof(hostile, fc.string({ maxLength: 120 })), (text) => {
        const split = splitCompletion(text);
        expect(split.actionText).not.toMatch(/\n/);
        const parsed = parseAction(split.actionText);
        if (!parsed.ok) expect(parsed.error.length).toBeGreaterThan(0);
      }),
      { numRuns: 2000 },
    );
  });
});
