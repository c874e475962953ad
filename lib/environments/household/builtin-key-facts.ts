import type { KeyFact } from "@/lib/domain/key-facts";

/**
 * The key facts of each built-in household task (builtin-tasks.ts), keyed by
 * task id: what a reflection must state — where the object or tool is, the
 * step that was skipped, the right receptacle or appliance — for the offline
 * demo model's Actor to take the informed path (lib/domain/key-facts.ts,
 * decision 0022). Written by hand from each scene's typical mistake; the
 * scripted reflection states every fact, the same reflection with its lesson
 * keywords removed does not (tests/environments/key-facts.test.ts), which is
 * why a phrase the failed-trial narrative also uses (e.g. "a clean soapbar")
 * is not a phrasing here.
 */
export const builtinHouseholdKeyFacts: Readonly<Record<string, readonly KeyFact[]>> = {
  "household-builtin-01": [
    {
      id: "lamp-first",
      any: [
        "desklamp first",
        "desk lamp first",
        "lamp first",
        "desklamp before",
        "lamp before",
        "start with desklamp",
        "start with lamp",
        "find desklamp + first",
        "find lamp + first",
        "go to desklamp + first",
        "before taking mug",
        "before picking up mug",
      ],
      says: "to find the desklamp first",
    },
    { id: "lamp-location", any: ["desk 1", "on desk", "at desk", "desk has", "desk had"], says: "that desklamp 1 is on desk 1" },
  ],
  "household-builtin-02": [
    {
      id: "open-drawer",
      any: ["open drawer", "opening drawer", "open up drawer", "drawer must be opened", "drawer has to be opened", "drawer needs to be opened", "look inside drawer", "look in drawer", "check inside drawer", "search inside drawer", "inside drawer"],
      says: "that drawer 1 is closed and must be opened to find the creditcard",
    },
  ],
  "household-builtin-03": [
    {
      id: "heat-with",
      any: ["microwave 1", "use microwave", "go to microwave", "to microwave", "in microwave", "with microwave", "microwave to heat", "microwave instead", "microwave not", "not stoveburner", "not stove"],
      says: "that only the microwave (microwave 1) heats food here",
    },
  ],
  "household-builtin-04": [
    {
      id: "hold-first",
      any: ["take tomato", "pick up tomato", "grab tomato", "hold tomato", "holding tomato first", "carry tomato", "tomato in hand", "tomato in my hand", "take it first", "pick it up first"],
      says: "to take tomato 1 before trying to cool it",
    },
  ],
  "household-builtin-05": [
    {
      id: "clean-at-sink",
      any: ["clean soapbar 1 with", "clean + sinkbasin", "clean + sink", "wash + sinkbasin", "wash + sink", "rinse + sinkbasin", "rinse + sink", "clean + basin", "wash + basin"],
      says: "to clean soapbar 1 with sinkbasin 1 before putting it away",
    },
  ],
  "household-builtin-06": [
    {
      id: "one-at-a-time",
      any: ["one at a time", "spoon at a time", "one by one", "one after another", "one after other", "separately", "two trips", "in turn", "each spoon on its own", "each on its own"],
      says: "to carry the spoons one at a time (the hands hold one object)",
    },
  ],
};
