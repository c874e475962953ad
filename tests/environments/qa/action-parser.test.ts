import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseAction, splitCompletion } from "@/lib/environments/qa/action-parser";

describe("splitCompletion on hostile completions", () => {
  // `ignored` (absent = nothing dropped) was added with decision 0014: what used to be dropped silently is now reported.
  const cases: { name: string; completion: string; thought: string; actionText: string; ignored?: string }[] = [
    {
      name: "the expected shape (completion after `Thought 1:`)",
      completion: " I need to search Dunmere.\nAction 1: Search[Dunmere]",
      thought: "I need to search Dunmere.",
      actionText: "Search[Dunmere]",
    },
    {
      name: "several actions: only the first is kept",
      completion: " Search both.\nAction 1: Search[Dunmere]\nAction 2: Search[Dunmore]\nAction 3: Finish[River Sallow]",
      thought: "Search both.",
      actionText: "Search[Dunmere]",
      ignored: "Action 2: Search[Dunmore]\nAction 3: Finish[River Sallow]",
    },
    {
      name: "invented observation and further steps are dropped",
      completion:
        " Find the town.\nAction 1: Search[Dunmere]\nObservation 1: Dunmere is on the River Sallow.\nThought 2: Done.\nAction 2: Finish[River Sallow]",
      thought: "Find the town.",
      actionText: "Search[Dunmere]",
      ignored: "Observation 1: Dunmere is on the River Sallow.\nThought 2: Done.\nAction 2: Finish[River Sallow]",
    },
    {
      name: "an observation invented before the action is cut from the thought",
      completion: " Find the town.\nObservation 1: it is Dunmere\nAction 1: Search[Dunmere]",
      thought: "Find the town.",
      actionText: "Search[Dunmere]",
      ignored: "Observation 1: it is Dunmere",
    },
    {
      name: "missing labels: a bare action line",
      completion: "Search[Dunmere]",
      thought: "",
      actionText: "Search[Dunmere]",
    },
    {
      name: "missing Action label: thought line then a bare action line",
      completion: "I should look at the town first.\nSearch[Dunmere]\nFinish[x]",
      thought: "I should look at the town first.",
      actionText: "Search[Dunmere]",
      ignored: "Finish[x]",
    },
    {
      name: "repeated `Thought n:` and `Action n:` labels",
      completion: "Thought 3: Look it up.\nAction 3: Action 3: Lookup[river]",
      thought: "Look it up.",
      actionText: "Lookup[river]",
    },
    {
      name: "code fences around the step",
      completion: "```text\nThought: The answer is known.\nAction: Finish[River Sallow]\n```",
      thought: "The answer is known.",
      actionText: "Finish[River Sallow]",
    },
    {
      name: "trailing spaces and CRLF line ends",
      completion: " Search it.   \r\nAction 2: Search[Dunmere]   \r\n",
      thought: "Search it.",
      actionText: "Search[Dunmere]",
    },
    {
      name: "thought and action on one line, with an invented observation after it",
      completion: " I will search it. Action 1: Search[Dunmere] Observation 1: Dunmere is a town.",
      thought: "I will search it.",
      actionText: "Search[Dunmere]",
      ignored: "Observation 1: Dunmere is a town.",
    },
    {
      name: "markdown bold labels and inline code",
      completion: "**Thought 1:** Search the town.\n**Action 1:** `Search[Dunmere]`",
      thought: "Search the town.",
      actionText: "Search[Dunmere]",
    },
    {
      name: "label on its own line, action on the next",
      completion: " Search the town.\nAction 1:\nSearch[Dunmere]",
      thought: "Search the town.",
      actionText: "Search[Dunmere]",
    },
    {
      name: "an empty action label followed by another label gives no action",
      completion: " Hmm.\nAction 1:\nObservation 1: nothing",
      thought: "Hmm.",
      actionText: "",
      ignored: "Observation 1: nothing",
    },
    {
      name: "a multi-line thought becomes one line",
      completion: " The opera was staged\nin a town.\n\nAction 1: Search[The Glass Orchard]",
      thought: "The opera was staged in a town.",
      actionText: "Search[The Glass Orchard]",
    },
    {
      name: "lowercase label is still a label (the verb is judged later)",
      completion: " Look.\naction 1: search[Dunmere]",
      thought: "Look.",
      actionText: "search[Dunmere]",
    },
    {
      name: "no action at all",
      completion: " I am not sure what to do next.",
      thought: "I am not sure what to do next.",
      actionText: "",
    },
    { name: "empty string", completion: "", thought: "", actionText: "" },
    { name: "whitespace only", completion: " \n \n", thought: "", actionText: "" },
    {
      name: "the word Action inside prose is not a label",
      completion: " Action movies are not relevant here.\nAction 1: Search[Dunmere]",
      thought: "Action movies are not relevant here.",
      actionText: "Search[Dunmere]",
    },
    {
      name: "a label-like word inside the argument survives",
      completion: " Answer.\nAction 1: Finish[Thought 1: a poem]",
      thought: "Answer.",
      actionText: "Finish[Thought 1: a poem]",
    },
  ];

  it.each(cases)("$name", ({ completion, thought, actionText, ignored }) => {
    expect(splitCompletion(completion)).toEqual(ignored === undefined ? { thought, actionText } : { thought, actionText, ignored });
  });

  it("never throws and always returns one-line strings", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 200 }), (text) => {
        const result = splitCompletion(text);
        expect(result.thought).not.toMatch(/\n/);
        expect(result.actionText).not.toMatch(/\n/);
      }),
    );
  });
});

describe("parseAction", () => {
  it.each([
    ["Search[Dunmere]", "Search", "Dunmere"],
    ["Lookup[river]", "Lookup", "river"],
    ["Finish[River Sallow]", "Finish", "River Sallow"],
    ["  Finish[River Sallow]  ", "Finish", "River Sallow"],
    ["Finish[a [b]]", "Finish", "a [b]"],
    ["Finish[ 1821 ]", "Finish", "1821"],
    ["Action 4: Finish[yes]", "Finish", "yes"],
    ["Search[Gesellschaft mit beschränkter Haftung]", "Search", "Gesellschaft mit beschränkter Haftung"],
    // The action name is matched without regard to case: ReAct's own notebook writes `search[...]`.
    ["search[Dunmere]", "Search", "Dunmere"],
    ["FINISH[yes]", "Finish", "yes"],
  ])("parses %j", (text, type, argument) => {
    const result = parseAction(text);
    expect(result).toEqual({ ok: true, action: { type, argument }, text: text.trim() });
  });

  it.each([
    ["", /empty/],
    ["   ", /empty/],
    ["Compare[a, b]", /Unknown action "Compare"/],
    ["Search Dunmere", /Verb\[argument\]/],
    ["Search[]", /Verb\[argument\]/],
    ["Search[ ]", /non-empty argument/],
    ["Search[Dun\nmere]", /Verb\[argument\]/],
  ])("rejects %j without throwing", (text, error) => {
    const result = parseAction(text);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatch(error);
  });

  it("is total: any string gives a result, ok ones are known verbs with non-empty arguments", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), (text) => {
        const result = parseAction(text);
        if (result.ok) {
          expect(["Search", "Lookup", "Finish"]).toContain(result.action.type);
          expect(result.action.argument.trim()).not.toBe("");
        }
      }),
    );
  });
});

/** Split then parse, as the engine reads a completion. */
function read(completion: string) {
  const split = splitCompletion(completion);
  return { split, parsed: parseAction(split.actionText) };
}

describe("the variants real models write (decision 0014), one class at a time", () => {
  it.each([
    ["verb case", " Look it up.\nAction 1: search[Dunmere]", { type: "Search", argument: "Dunmere" }],
    ["verb case, all capitals", " Done.\nAction 4: FINISH[River Sallow]", { type: "Finish", argument: "River Sallow" }],
    ["a space before the bracket", " Look it up.\nAction 2: Lookup [river]", { type: "Lookup", argument: "river" }],
    ["no Action label", " I should search the town.\nSearch[Dunmere]", { type: "Search", argument: "Dunmere" }],
    ["an unnumbered Action label", " I should search the town.\nAction: Search[Dunmere]", { type: "Search", argument: "Dunmere" }],
    ["Action: / Action Input: pair", "Thought: I need the town.\nAction: Search\nAction Input: Dunmere", { type: "Search", argument: "Dunmere" }],
    ["Action: / Action Input: pair, quoted input", " Answer.\nAction: finish\nAction Input: \"River Sallow\"", { type: "Finish", argument: "River Sallow" }],
    ["Action / Action Input on one line", " Answer.\nAction 3: Finish, Action Input: River Sallow", { type: "Finish", argument: "River Sallow" }],
    ["surrounding double quotes", ' Search.\nAction 1: "Search[Dunmere]"', { type: "Search", argument: "Dunmere" }],
    ["surrounding backticks", " Search.\nAction 1: `Search[Dunmere]`", { type: "Search", argument: "Dunmere" }],
    ["a fenced one-line action", " Search.\nAction 1: ```Search[Dunmere]```", { type: "Search", argument: "Dunmere" }],
    ["trailing full stop", " Done.\nAction 3: Finish[River Sallow].", { type: "Finish", argument: "River Sallow" }],
    ["trailing exclamation mark and quote", ' Done.\nAction 3: "Finish[River Sallow]!"', { type: "Finish", argument: "River Sallow" }],
    ["a list bullet", " Options.\n- Search[Dunmere]", { type: "Search", argument: "Dunmere" }],
  ])("%s", (_name, completion, action) => {
    const { parsed } = read(completion);
    expect(parsed.ok && parsed.action).toEqual(action);
  });

  it("trailing text, a second action and a made-up observation are read past and reported, never executed", () => {
    const { split, parsed } = read(" Search it.\nAction 1: Search[Dunmere] because it is the town.\nObservation 1: Dunmere is a town.\nAction 2: Finish[Dunmere]");
    expect(parsed.ok && parsed.action).toEqual({ type: "Search", argument: "Dunmere" });
    expect(split.ignored).toBe("because it is the town.\nObservation 1: Dunmere is a town.\nAction 2: Finish[Dunmere]");
    const twoOnOneLine = read(" Both.\nAction 1: Search[Dunmere], Search[Dunmore]");
    expect(twoOnOneLine.parsed.ok && twoOnOneLine.parsed.action).toEqual({ type: "Search", argument: "Dunmere" });
    expect(twoOnOneLine.split.ignored).toBe("Search[Dunmore]");
  });

  it("quotes, backticks and punctuation around the action are not reported as ignored", () => {
    expect(read(' Done.\nAction 3: "Finish[River Sallow]".').split.ignored).toBeUndefined();
    expect(read(" Done.\nAction 3: **`Finish[River Sallow]`**").split.ignored).toBeUndefined();
  });

  it("parseAction reads a person's action (or a label, a sentence after it) the same way, and reports what it read past", () => {
    expect(parseAction("Action 2: lookup [river]  ")).toEqual({ ok: true, action: { type: "Lookup", argument: "river" }, text: "Action 2: lookup [river]" });
    expect(parseAction("Search[Dunmere] then stop")).toEqual({ ok: true, action: { type: "Search", argument: "Dunmere" }, text: "Search[Dunmere] then stop", ignored: "then stop" });
  });
});

describe("reasoning blocks", () => {
  it.each(["think", "thinking", "reasoning", "THINK"])("<%s>…</%s> goes to reasoning, is not the thought, and its Finish does not run", (tag) => {
    const { split, parsed } = read(`<${tag}>The answer may be Finish[Dunmere]. No: search first.</${tag}>\nThought 1: Search the opera.\nAction 1: Search[The Glass Orchard]`);
    expect(split.reasoning).toBe("The answer may be Finish[Dunmere]. No: search first.");
    expect(split.thought).toBe("Search the opera.");
    expect(parsed.ok && parsed.action).toEqual({ type: "Search", argument: "The Glass Orchard" });
  });

  it("a Finish written only inside <think> is not executed: the step has no action", () => {
    for (const completion of ["<think>So the answer is Finish[Dunmere]</think>", "<think>\nThought 1: done.\nAction 1: Finish[Dunmere]\n</think>", " <thinking>Action 1: Finish[Dunmere]</thinking>  "]) {
      const { split, parsed } = read(completion);
      expect(split.actionText).toBe("");
      expect(parsed.ok).toBe(false);
      expect(split.reasoning).toContain("Finish[Dunmere]");
    }
  });

  it("an unclosed <think> runs up to the action label; without one, all of it is reasoning", () => {
    const closedByLabel = read("<think>Maybe Finish[Dunmere]?\nNo, search.\nAction 1: Search[Dunmere]");
    expect(closedByLabel.split.reasoning).toBe("Maybe Finish[Dunmere]?\nNo, search.");
    expect(closedByLabel.parsed.ok && closedByLabel.parsed.action).toEqual({ type: "Search", argument: "Dunmere" });
    const neverClosed = read("<think>I will answer Finish[Dunmere] once I am sure");
    expect(neverClosed.split).toEqual({ thought: "", actionText: "", reasoning: "I will answer Finish[Dunmere] once I am sure" });
  });

  it("a closing tag with no opening one (the template opened it): everything before it is reasoning", () => {
    const { split, parsed } = read("Let me think. Finish[Dunmere]? Not yet.\n</think>\n\nThought 1: Search first.\nAction 1: Search[Dunmere]");
    expect(split.reasoning).toBe("Let me think. Finish[Dunmere]? Not yet.");
    expect(split.thought).toBe("Search first.");
    expect(parsed.ok && parsed.action).toEqual({ type: "Search", argument: "Dunmere" });
  });

  it("several blocks are kept in order; a < that opens no tag is text", () => {
    const { split } = read("<think>one</think> 1957 < 1989, so the other came first. <reasoning>two</reasoning>\nAction 1: Finish[Discovery Zone]");
    expect(split.reasoning).toBe("one\n\ntwo");
    expect(split.thought).toBe("1957 < 1989, so the other came first.");
  });
});

describe("errors quote the offending line and list the valid forms", () => {
  it.each([
    ["Compare[a, b]", /^Unknown action "Compare" in "Compare\[a, b\]": valid actions are Search\[<entity>\], Lookup\[<keyword>\] and Finish\[<answer>\]\.$/],
    ["I will search for Dunmere now", /^Could not read "I will search for Dunmere now" as an action: expected Verb\[argument\], one of Search\[<entity>\], Lookup\[<keyword>\] or Finish\[<answer>\]\.$/],
    ["Finish[River Sal", /"Finish\[River Sal".*"\]" that closes the argument is missing.*Search\[<entity>\]/],
    ["Search[  ]", /"Search\[ \]" needs a non-empty argument.*Finish\[<answer>\]/],
    ["Search", /"Search" as an action: expected Verb\[argument\]/],
  ])("%j", (text, error) => {
    const parsed = parseAction(text);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error).toMatch(error);
  });

  it("a very long line is quoted cut, with an ellipsis", () => {
    const parsed = parseAction(`Ponder[${"x".repeat(500)}]`);
    expect(!parsed.ok && parsed.error.length).toBeLessThan(300);
    expect(!parsed.ok && parsed.error).toContain("…");
  });
});

describe("property tests", () => {
  /** Pieces that exercise every rule of the reader, mixed with arbitrary text. */
  const hostile = fc
    .array(
      fc.oneof(
        fc.constantFrom("<think>", "</think>", "<reasoning>", "Action 1:", "Action:", "Action Input:", "Observation 1:", "Thought 2:", "[", "]", "Search", "finish", "Lookup [", "\n", "`", '"', "```", " ", "."),
        fc.string({ maxLength: 12 }),
      ),
      { maxLength: 30 },
    )
    .map((parts) => parts.join(""));

  it("never throws, on arbitrary and on hostile text; texts stay one line; accepted actions are known verbs with non-empty arguments", () => {
    fc.assert(
      fc.property(fc.oneof(hostile, fc.string({ unit: "grapheme", maxLength: 200 })), (text) => {
        const split = splitCompletion(text);
        expect(split.thought).not.toMatch(/\n/);
        expect(split.actionText).not.toMatch(/\n/);
        for (const parsed of [parseAction(split.actionText), parseAction(text)]) {
          if (parsed.ok) {
            expect(["Search", "Lookup", "Finish"]).toContain(parsed.action.type);
            expect(parsed.action.argument.trim()).not.toBe("");
          } else {
            expect(parsed.error.length).toBeGreaterThan(0);
          }
        }
      }),
      { numRuns: 2000 },
    );
  });

  /** Text with no brackets, tags or step labels (so it cannot be an action or a label itself). */
  const noise = fc
    .string({ maxLength: 40 })
    .map((text) => text.replace(/[[\]<>]/g, " "))
    .filter((text) => !/action|observation|thought/i.test(text) && !/^\s*(?:```|~~~)/m.test(text));
  const verb = fc.constantFrom("Search", "Lookup", "Finish").chain((name) =>
    fc.constantFrom(name, name.toLowerCase(), name.toUpperCase()).map((written) => ({ name, written })),
  );
  const argument = fc
    .string({ minLength: 1, maxLength: 30 })
    .map((text) => text.replace(/[[\]\n\r]/g, " ").replace(/<\s*\/?\s*(?:think|thinking|reasoning)/gi, " "))
    .filter((text) => text.trim() !== "");
  const wrap = fc.constantFrom(["", ""], ['"', '"'], ["`", "`"], ["**", "**"], ["'", "'"]);
  const trailing = fc.oneof(
    fc.constant(""),
    fc.constantFrom(".", "!", ",", ";"),
    noise.map((text) => ` ${text.replace(/</g, " ")}`),
    fc.string({ maxLength: 40 }).map((text) => `\n${text.replace(/</g, " ")}`),
  );

  it("a valid action survives arbitrary surrounding text: noise before it, a label or none, quotes, case, a space before [, anything after it", () => {
    fc.assert(
      fc.property(noise, fc.boolean(), fc.nat(9), verb, fc.boolean(), argument, wrap, trailing, noise, (before, labelled, n, { name, written }, spaced, arg, [open, close], after, reasoning) => {
        const action = `${open}${written}${spaced ? " " : ""}[${arg}]${close}`;
        const think = reasoning.trim() === "" ? "" : `<think>${reasoning} Finish[decoy]</think>\n`;
        const completion = `${think}${before}\n${labelled ? `Action ${n}: ` : ""}${action}${after}`;
        const parsed = parseAction(splitCompletion(completion).actionText);
        expect(parsed.ok && parsed.action).toEqual({ type: name, argument: arg.trim() });
      }),
      { numRuns: 3000 },
    );
  });

  it("the recorded action text reads back as the same action (the engine replays episodes from it)", () => {
    fc.assert(
      fc.property(noise, verb, argument, trailing, ({ length }, { written }, arg, after) => {
        const split = splitCompletion(` thought ${length}\nAction 1: ${written}[${arg}]${after}`);
        const again = parseAction(split.actionText);
        expect(again).toEqual(parseAction(split.actionText));
        expect(splitCompletion(split.actionText).actionText).toBe(split.actionText);
        expect(again.ok && again.ignored).toBeFalsy();
      }),
    );
  });
});
