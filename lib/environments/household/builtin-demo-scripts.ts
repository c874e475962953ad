import type { HouseholdDemoScript } from "./demo-script-types";

/**
 * The demo model's script for each built-in task (builtin-tasks.ts), keyed by
 * task id. Each naive path fails trial 1 in one of the paper's typical ways
 * (wrong order, a step skipped, a hallucinated loop) and ends in a loop of
 * three identical actions and replies, which the Evaluator's repetition
 * heuristic stops. Every reflection uses only what the failed trial showed and
 * contains all of its task's `lessonKeywords`; the informed path succeeds.
 */
export const builtinHouseholdDemoScripts: Readonly<Record<string, HouseholdDemoScript>> = {
  "household-builtin-01": {
    lessonKeywords: ["desklamp first", "desk 1"],
    naive: [
      "think: To solve the task, I need to find and take a mug, then find and use a desklamp.",
      "think: First I need a mug. Mugs are often on a desk, a shelf or a sidetable. I will start with desk 1.",
      "go to desk 1",
      "go to drawer 1",
      "open drawer 1",
      "go to shelf 1",
      "go to shelf 2",
      "take mug 1 from shelf 2",
      "think: Now I have the mug. Next I need a desklamp. It may be on a sidetable.",
      "go to sidetable 1",
      "use desklamp 1",
    ],
    informed: [
      "think: My memory says to find the desklamp first: desklamp 1 is on desk 1, and mug 1 was on shelf 2.",
      "go to desk 1",
      "think: desklamp 1 is here. Now I fetch mug 1 from shelf 2 and bring it back to desk 1.",
      "go to shelf 2",
      "take mug 1 from shelf 2",
      "go to desk 1",
      "use desklamp 1",
    ],
    reflection:
      "In this environment, my plan was to find a mug first and then find and use a desklamp. I passed desklamp 1 on desk 1 at the start but did not remember it; after taking mug 1 from shelf 2 I wandered to sidetable 1 and kept trying to use a desklamp that was not there. The task is to examine the mug with the desklamp, so I should find the desklamp first. In the next trial I will go to desk 1 to confirm desklamp 1 is there, then take mug 1 from shelf 2, carry it back to desk 1 and use desklamp 1.",
  },
  "household-builtin-02": {
    lessonKeywords: ["open drawer 1"],
    naive: [
      "think: To solve the task, I need to find and take a creditcard, then put it on coffeetable 1.",
      "think: A creditcard is small; it could be in a drawer, on the sidetable or on the sofa. I will start with drawer 1.",
      "go to drawer 1",
      "go to sidetable 1",
      "go to sofa 1",
      "go to drawer 1",
      "go to drawer 1",
    ],
    informed: [
      "think: My memory says drawer 1 is closed and I never opened it. This time I open drawer 1 and look inside.",
      "go to drawer 1",
      "open drawer 1",
      "take creditcard 1 from drawer 1",
      "go to coffeetable 1",
      "put creditcard 1 in/on coffeetable 1",
    ],
    reflection:
      "I went to drawer 1 and saw that it was closed, but I never opened it; I searched sidetable 1 and sofa 1 instead and then kept going to drawer 1 again, which did nothing. A closed receptacle has to be opened before I can see or take what is inside. In the next trial I will go to drawer 1, open drawer 1, look for the creditcard there, take it and put it on coffeetable 1.",
  },
  "household-builtin-03": {
    lessonKeywords: ["microwave 1"],
    naive: [
      "think: To solve the task, I need to find and take a potato, heat it on a stoveburner, then put it in countertop 1.",
      "go to fridge 1",
      "open fridge 1",
      "take potato 1 from fridge 1",
      "go to stoveburner 1",
      "heat potato 1 with stoveburner 1",
    ],
    informed: [
      "think: My memory says only the microwave heats things. I will take potato 1 from fridge 1 and heat it with microwave 1.",
      "go to fridge 1",
      "open fridge 1",
      "take potato 1 from fridge 1",
      "go to microwave 1",
      "heat potato 1 with microwave 1",
      "go to countertop 1",
      "put potato 1 in/on countertop 1",
    ],
    reflection:
      "I took potato 1 from fridge 1 and then tried three times to heat it with stoveburner 1, which did nothing: here only a microwave heats food. In the next trial I will take potato 1 from fridge 1, go to microwave 1, heat potato 1 with microwave 1, and then go to countertop 1 and put potato 1 in/on countertop 1.",
  },
  "household-builtin-04": {
    lessonKeywords: ["take tomato 1"],
    naive: [
      "think: To solve the task, I need to cool a tomato with fridge 1 and then put it in diningtable 1.",
      "go to countertop 1",
      "go to fridge 1",
      "cool tomato 1 with fridge 1",
    ],
    informed: [
      "think: My memory says I must hold the tomato before I can cool it. First I take tomato 1 from countertop 1.",
      "go to countertop 1",
      "take tomato 1 from countertop 1",
      "go to fridge 1",
      "cool tomato 1 with fridge 1",
      "go to diningtable 1",
      "put tomato 1 in/on diningtable 1",
    ],
    reflection:
      "I saw tomato 1 on countertop 1 but walked to fridge 1 without taking it, then tried three times to cool a tomato I was not holding, which did nothing. An object must be in my hands before I can cool it. In the next trial I will take tomato 1 from countertop 1 first, then go to fridge 1 and cool tomato 1 with fridge 1, then go to diningtable 1 and put tomato 1 in/on diningtable 1.",
  },
  "household-builtin-05": {
    lessonKeywords: ["clean soapbar 1 with sinkbasin 1"],
    naive: [
      "think: To solve the task, I need to find a soapbar and put it in a cabinet.",
      "go to countertop 1",
      "take soapbar 1 from countertop 1",
      "go to cabinet 1",
      "put soapbar 1 in/on cabinet 1",
      "think: I put the soapbar in the cabinet, so the task is done.",
    ],
    informed: [
      "think: My memory says the soapbar must be cleaned with sinkbasin 1 before it goes into the cabinet.",
      "go to countertop 1",
      "take soapbar 1 from countertop 1",
      "go to sinkbasin 1",
      "clean soapbar 1 with sinkbasin 1",
      "go to cabinet 1",
      "put soapbar 1 in/on cabinet 1",
    ],
    reflection:
      "I took soapbar 1 from countertop 1 and put it straight into cabinet 1, but the task asks for a clean soapbar and I never cleaned it, so I kept repeating that I was done. In the next trial I will take soapbar 1 from countertop 1, go to sinkbasin 1 and clean soapbar 1 with sinkbasin 1, and only then put it in/on cabinet 1.",
  },
  "household-builtin-06": {
    lessonKeywords: ["one at a time"],
    naive: [
      "think: To solve the task, I need to find two spoons and put them in drawer.",
      "go to diningtable 1",
      "take spoon 1 from diningtable 1",
      "take spoon 2 from diningtable 1",
    ],
    informed: [
      "think: My memory says I can carry only one spoon at a time, so I bring them to drawer 1 one at a time.",
      "go to diningtable 1",
      "take spoon 1 from diningtable 1",
      "go to drawer 1",
      "open drawer 1",
      "put spoon 1 in/on drawer 1",
      "go to diningtable 1",
      "take spoon 2 from diningtable 1",
      "go to drawer 1",
      "put spoon 2 in/on drawer 1",
    ],
    reflection:
      "I took spoon 1 from diningtable 1 and then kept trying to take spoon 2 as well, which did nothing because I can carry only one object at a time. In the next trial I will move them one at a time: take spoon 1, go to drawer 1, open drawer 1 and put spoon 1 in/on drawer 1, then go back to diningtable 1, take spoon 2 and put it in/on drawer 1 too.",
  },
};
