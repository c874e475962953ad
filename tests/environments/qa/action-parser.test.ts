import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseAction, splitCompletion } from "@/lib/environments/qa/action-parser";

describe("splitCompletion on hostile completions", () => {
  const cases: { name: string; completion: string; thought: string; actionText: string }[] = [
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
    },
    {
      name: "invented observation and further steps are dropped",
      completion:
        " Find the town.\nAction 1: Search[Dunmere]\nObservation 1: Dunmere is on the River Sallow.\nThought 2: Done.\nAction 2: Finish[River Sallow]",
      thought: "Find the town.",
      actionText: "Search[Dunmere]",
    },
    {
      name: "an observation invented before the action is cut from the thought",
      completion: " Find the town.\nObservation 1: it is Dunmere\nAction 1: Search[Dunmere]",
      thought: "Find the town.",
      actionText: "Search[Dunmere]",
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

  it.each(cases)("$name", ({ completion, thought, actionText }) => {
    expect(splitCompletion(completion)).toEqual({ thought, actionText });
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
  ])("parses %j", (text, type, argument) => {
    const result = parseAction(text);
    expect(result).toEqual({ ok: true, action: { type, argument }, text: text.trim() });
  });

  it.each([
    ["", /empty/],
    ["   ", /empty/],
    ["Compare[a, b]", /Unknown action "Compare"/],
    ["search[Dunmere]", /Unknown action "search"/],
    ["FINISH[yes]", /Unknown action "FINISH"/],
    ["Search Dunmere", /Verb\[argument\]/],
    ["Search[]", /Verb\[argument\]/],
    ["Search[ ]", /non-empty argument/],
    ["Search[Dunmere] then stop", /Verb\[argument\]/],
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
