import type { QaDemoScript } from "./demo-script-types";

/**
 * The demo model's script for each built-in task (builtin-tasks.ts), keyed by
 * task id. Kept apart from the tasks so the task set stays plain data that any
 * model can be run on. Every reflection only uses facts the failed trial's
 * trajectory showed, as a real Self-Reflection model would, and contains all
 * of its task's `lessonKeywords`.
 *
 * `cot` is the one-step chain-of-thought script (strategies `cot` and
 * `cot-gold-context`): the naive answer repeats the ReAct mistake in one
 * Thought, or, for four tasks (02, 04, 07, 10), gives the right fact worded so
 * that exact match fails (a "phrasing discrepancy", reference §2.8); the CoT
 * reflection names that lesson and contains all of `cot.lessonKeywords`.
 */
export const builtinQaDemoScripts: Readonly<Record<string, QaDemoScript>> = {
  "qa-builtin-01": {
    lessonKeywords: ["Dunmere", "river"],
    naiveOutcome: "wrong-answer",
    naive: [
      { thought: "I need to find where The Glass Orchard was first staged.", action: "Search[The Glass Orchard]" },
      { thought: "The Glass Orchard was first staged in Dunmere. So the answer is Dunmere.", action: "Finish[Dunmere]" },
    ],
    informed: [
      { thought: "The question asks for a river, not a town. First I need the town where The Glass Orchard was first staged.", action: "Search[The Glass Orchard]" },
      { thought: "It was first staged in Dunmere. Now I need the river that runs through Dunmere.", action: "Search[Dunmere]" },
      { thought: "The River Sallow runs through Dunmere. So the answer is River Sallow.", action: "Finish[River Sallow]" },
    ],
    reflection:
      "I answered Dunmere, the town where The Glass Orchard was first staged, but the question asks for the river that runs through that town. Next time I should search Dunmere once I have found it and answer with the river named on its page.",
    cot: {
      lessonKeywords: ["Dunmere", "river"],
      naive: { thought: "The Glass Orchard was first staged at the Corn Exchange in Dunmere. So the answer is Dunmere.", action: "Finish[Dunmere]" },
      informed: { thought: "The Glass Orchard was first staged in Dunmere, and the question asks for the river that runs through that town, not the town. The River Sallow runs through Dunmere. So the answer is River Sallow.", action: "Finish[River Sallow]" },
      reflection:
        "I answered Dunmere, the town where The Glass Orchard was first staged, but the question asks for the river that runs through that town. Next time I should take one more step, from Dunmere to the river that runs through it, and answer with the river's name.",
    },
  },
  "qa-builtin-02": {
    lessonKeywords: ["exact title", "Port Averly"],
    naiveOutcome: "halted",
    naive: [
      { thought: "I need the explorer who founded Port Averly. I will search for the founder directly.", action: "Search[founder of Port Averly]" },
      { thought: "That page does not exist. I will search for the explorer's ship instead.", action: "Search[Port Averly explorer ship]" },
    ],
    informed: [
      { thought: "Descriptions are not page titles, so I will search the exact title Port Averly to find its founder.", action: "Search[Port Averly]" },
      { thought: "Port Averly was founded by the explorer Marta Quell. Now I need the ship she commanded.", action: "Search[Marta Quell]" },
      { thought: "Marta Quell commanded the ship Grey Heron. So the answer is Grey Heron.", action: "Finish[Grey Heron]" },
    ],
    reflection:
      'I searched for descriptions such as "founder of Port Averly", which are not page titles, and repeated the same failed search until the trial was stopped for looping. I should search the exact title Port Averly, read the founder\'s name there, and then search that explorer to find the ship.',
    cot: {
      lessonKeywords: ["phrasing", "ship's name"],
      naive: { thought: "Port Averly was founded by the explorer Marta Quell, who commanded the ship Grey Heron. So the answer is the ship Grey Heron, commanded by Marta Quell.", action: "Finish[the ship Grey Heron, commanded by Marta Quell]" },
      informed: { thought: "Port Averly was founded by Marta Quell, who commanded the Grey Heron. My note says to give only the ship's name. So the answer is Grey Heron.", action: "Finish[Grey Heron]" },
      reflection:
        "My reasoning reached the right ship, but I answered with a whole phrase about it, so the answer failed exact match on its phrasing, not on the facts. Next time I should answer with the ship's name alone and no other words.",
    },
  },
  "qa-builtin-03": {
    lessonKeywords: ["Carrow University", "founded"],
    naiveOutcome: "wrong-answer",
    naive: [
      { thought: "I need to find the painter of Harvest at Lennick and the university they attended.", action: "Search[Harvest at Lennick]" },
      { thought: "Harvest at Lennick was completed in 1893. So the answer is 1893.", action: "Finish[1893]" },
    ],
    informed: [
      { thought: "I need the university attended by the painter of Harvest at Lennick, then the year that university was founded.", action: "Search[Harvest at Lennick]" },
      { thought: "The painter Edda Voss studied at Carrow University. Now I need the year Carrow University was founded.", action: "Search[Carrow University]" },
      { thought: "Carrow University was founded in 1821. So the answer is 1821.", action: "Finish[1821]" },
    ],
    reflection:
      "I answered 1893, the year the painting was completed, but the question asks when the painter's university was founded. I should take the university named on the painting's page, Carrow University, search it, and answer with the year it was founded.",
    cot: {
      lessonKeywords: ["Carrow University", "founded"],
      naive: { thought: "Harvest at Lennick was completed in 1893. So the answer is 1893.", action: "Finish[1893]" },
      informed: { thought: "Harvest at Lennick was painted by Edda Voss, who studied at Carrow University, and the question asks when that university was founded. Carrow University was founded in 1821. So the answer is 1821.", action: "Finish[1821]" },
      reflection:
        "I answered 1893, the year the painting was completed, but the question asks when the painter's university was founded. Next time I should follow the painter Edda Voss to Carrow University and answer with the year it was founded.",
    },
  },
  "qa-builtin-04": {
    lessonKeywords: ["Mount Orrel", "exactly"],
    naiveOutcome: "wrong-answer",
    naive: [
      { thought: "I need to find where the Silverline railway ends.", action: "Search[Silverline railway]" },
      { thought: "The railway ends on Mount Orrin. Now I need its height.", action: "Search[Mount Orrin]" },
      { thought: "The summit of Mount Orrin stands at 410 metres. So the answer is 410 metres.", action: "Finish[410 metres]" },
    ],
    informed: [
      { thought: "I need the mountain where the Silverline railway ends, then its height.", action: "Search[Silverline railway]" },
      { thought: "The upper terminus is on Mount Orrel. I must copy that name exactly, because Mount Orrin is a different hill.", action: "Search[Mount Orrel]" },
      { thought: "The summit of Mount Orrel stands at 2,317 metres. So the answer is 2,317 metres.", action: "Finish[2,317 metres]" },
    ],
    reflection:
      "I searched Mount Orrin, a different hill with a similar name, instead of Mount Orrel, where the railway actually ends, so my height was wrong. I should copy the mountain's name exactly from the railway's page, search Mount Orrel, and answer with its height.",
    cot: {
      lessonKeywords: ["phrasing", "metres"],
      naive: { thought: "The Silverline railway ends on Mount Orrel, whose summit stands at 2,317 metres. So the answer is 2317 m.", action: "Finish[2317 m]" },
      informed: { thought: "The Silverline railway ends on Mount Orrel, whose summit stands at 2,317 metres. My note says to write the unit in full. So the answer is 2,317 metres.", action: "Finish[2,317 metres]" },
      reflection:
        "I found the right mountain and height, but I abbreviated the unit as m, so my answer failed exact match on its phrasing although the number was right. Next time I should write the height with its unit in full, in metres.",
    },
  },
  "qa-builtin-05": {
    lessonKeywords: ["Velk", "island"],
    naiveOutcome: "wrong-answer",
    naive: [
      { thought: "I need to find out about the poet Tomas Brenn.", action: "Search[Tomas Brenn]" },
      { thought: "His best known collection is Salt Letters. Its page may say which language he wrote in.", action: "Search[Salt Letters]" },
      { thought: "Salt Letters was translated into English. So the answer is English.", action: "Finish[English]" },
    ],
    informed: [
      { thought: "I need the place where Tomas Brenn was born, then the language spoken there.", action: "Search[Tomas Brenn]" },
      { thought: "Tomas Brenn was born on the island of Velk. Now I need the language most people speak on Velk.", action: "Search[Velk]" },
      { thought: "Most people on Velk speak Velkan. So the answer is Velkan.", action: "Finish[Velkan]" },
    ],
    reflection:
      "I followed his poetry collection Salt Letters and answered English, the language it was translated into, but the question is about the island where Tomas Brenn was born. I should search that island, Velk, and answer with the language most of its people speak.",
    cot: {
      lessonKeywords: ["Velk", "island"],
      naive: { thought: "Tomas Brenn's best known collection, Salt Letters, was translated into English. So the answer is English.", action: "Finish[English]" },
      informed: { thought: "Tomas Brenn was born on the island of Velk, and the question asks what most people there speak. Most people on Velk speak Velkan. So the answer is Velkan.", action: "Finish[Velkan]" },
      reflection:
        "I answered English, the language Salt Letters was translated into, but the question is about the island where Tomas Brenn was born. Next time I should start from his birthplace, Velk, and answer with the language most people on that island speak.",
    },
  },
  "qa-builtin-06": {
    lessonKeywords: ["Hallam Bridge", "designed"],
    naiveOutcome: "wrong-answer",
    naive: [
      { thought: "I need the bridge that carries the Old Post Road over the River Mell.", action: "Search[Old Post Road]" },
      { thought: "The road crosses the river on the Hallam Bridge. It is probably named after its designer, so I will search Hallam.", action: "Search[Hallam]" },
      { thought: "There is a page for Peter Hallam, the person the bridge must be named after. So the answer is Peter Hallam.", action: "Finish[Peter Hallam]" },
    ],
    informed: [
      { thought: "I need the bridge that carries the Old Post Road over the River Mell, then who designed it.", action: "Search[Old Post Road]" },
      { thought: "The road crosses the River Mell on the Hallam Bridge. I will search the bridge itself instead of guessing from its name.", action: "Search[Hallam Bridge]" },
      { thought: "Hallam Bridge was designed by the engineer Rosa Tindale. So the answer is Rosa Tindale.", action: "Finish[Rosa Tindale]" },
    ],
    reflection:
      "I guessed that Hallam Bridge was named after its designer and answered Peter Hallam, a novelist, without checking. I should search Hallam Bridge itself and answer with the engineer who designed it.",
    cot: {
      lessonKeywords: ["Hallam Bridge", "designed"],
      naive: { thought: "The Old Post Road crosses the River Mell on the Hallam Bridge, which must be named after its designer, Peter Hallam. So the answer is Peter Hallam.", action: "Finish[Peter Hallam]" },
      informed: { thought: "The Old Post Road crosses the River Mell on the Hallam Bridge. A bridge's name need not be its designer's: Hallam Bridge was designed by the engineer Rosa Tindale. So the answer is Rosa Tindale.", action: "Finish[Rosa Tindale]" },
      reflection:
        "I guessed from its name that Hallam Bridge was designed by Peter Hallam, a novelist. Next time I should not infer a designer from a name, and should answer with the engineer who actually designed Hallam Bridge.",
    },
  },
  "qa-builtin-07": {
    lessonKeywords: ["Kettle Lane Quartet", "instrument"],
    naiveOutcome: "halted",
    naive: [
      { thought: "I need the founder of the Kettle Lane Quartet. I will search Kettle Lane.", action: "Search[Kettle Lane]" },
      { thought: "This page is about a street. I will look up who founded it.", action: "Lookup[founder]" },
    ],
    informed: [
      { thought: "I need the founder of the Kettle Lane Quartet, so I will search the full title, not just Kettle Lane.", action: "Search[Kettle Lane Quartet]" },
      { thought: "The quartet was founded by Anselm Drey. Now I need the instrument he played.", action: "Search[Anselm Drey]" },
      { thought: "Anselm Drey played the viola. So the answer is viola.", action: "Finish[viola]" },
    ],
    reflection:
      'I searched Kettle Lane, which is a street, and kept looking up "founder" on that page until the trial was stopped for looping. I should search the full title Kettle Lane Quartet, find its founder, and then search the founder to find the instrument he played.',
    cot: {
      lessonKeywords: ["phrasing", "instrument's name"],
      naive: { thought: "The Kettle Lane Quartet was founded by Anselm Drey, who played the viola. So the answer is that he played the viola.", action: "Finish[he played the viola]" },
      informed: { thought: "The Kettle Lane Quartet was founded by Anselm Drey, who played the viola. My note says to give only the instrument's name. So the answer is viola.", action: "Finish[viola]" },
      reflection:
        "My reasoning found the right instrument, but I answered with a sentence, so the answer failed exact match on its phrasing. Next time I should answer with the instrument's name alone.",
    },
  },
  "qa-builtin-08": {
    lessonKeywords: ["Orme and Pickett", "city"],
    naiveOutcome: "wrong-answer",
    naive: [
      { thought: "I need the company that built the locomotive Bright Tansy.", action: "Search[Bright Tansy]" },
      { thought: "Bright Tansy was built by the Orme and Pickett Works. So the answer is Orme and Pickett Works.", action: "Finish[Orme and Pickett Works]" },
    ],
    informed: [
      { thought: "I need the company that built Bright Tansy, then the place where that company was based.", action: "Search[Bright Tansy]" },
      { thought: "It was built by the Orme and Pickett Works. Now I need where that company was based.", action: "Search[Orme and Pickett Works]" },
      { thought: "Its offices and main factory were in Hollin. So the answer is Hollin.", action: "Finish[Hollin]" },
    ],
    reflection:
      "I answered with the company, Orme and Pickett Works, but the question asks for the city where that company was based. I should search Orme and Pickett Works and answer with the city where its offices were.",
    cot: {
      lessonKeywords: ["Orme and Pickett", "city"],
      naive: { thought: "Bright Tansy was built by the Orme and Pickett Works. So the answer is Orme and Pickett Works.", action: "Finish[Orme and Pickett Works]" },
      informed: { thought: "Bright Tansy was built by the Orme and Pickett Works, and the question asks for the city where that company was based. Its offices and main factory were in the port city of Hollin. So the answer is Hollin.", action: "Finish[Hollin]" },
      reflection:
        "I answered with the company, Orme and Pickett Works, but the question asks for the city where that company was based. Next time I should take the extra step from the company to the city of its offices and answer with the city.",
    },
  },
  "qa-builtin-09": {
    lessonKeywords: ["Cora Valine", "birth name"],
    naiveOutcome: "wrong-answer",
    naive: [
      { thought: "I need the actress who played Queen Maud in The Winter Crown.", action: "Search[The Winter Crown]" },
      { thought: "Queen Maud is played by Cora Valine. So the answer is Cora Valine.", action: "Finish[Cora Valine]" },
    ],
    informed: [
      { thought: "I need the actress who played Queen Maud in The Winter Crown, then the name she was born with.", action: "Search[The Winter Crown]" },
      { thought: "Queen Maud is played by Cora Valine, which may be a stage name. I need to read her own page.", action: "Search[Cora Valine]" },
      { thought: "Cora Valine was born Dorothea Pim. So the answer is Dorothea Pim.", action: "Finish[Dorothea Pim]" },
    ],
    reflection:
      "I answered Cora Valine, the actress's stage name, but the question asks for her birth name. I should search Cora Valine and answer with the name she was born with.",
    cot: {
      lessonKeywords: ["Cora Valine", "birth name"],
      naive: { thought: "Queen Maud in The Winter Crown is played by Cora Valine. So the answer is Cora Valine.", action: "Finish[Cora Valine]" },
      informed: { thought: "Queen Maud is played by Cora Valine, which is a stage name, and the question asks for her birth name. Cora Valine was born Dorothea Pim. So the answer is Dorothea Pim.", action: "Finish[Dorothea Pim]" },
      reflection:
        "I answered Cora Valine, the actress's stage name, but the question asks for her birth name. Next time I should answer with the name Cora Valine was born with.",
    },
  },
  "qa-builtin-10": {
    lessonKeywords: ["search Ostwick", "country"],
    naiveOutcome: "halted",
    naive: [
      { thought: "I need the national dish of the place whose capital is Ostwick. I will search for it directly.", action: "Search[national dish of Ostwick]" },
      { thought: "The page was not found. I will look up the national dish instead.", action: "Lookup[national dish]" },
      { thought: "I cannot look it up there. I will search for the dish again.", action: "Search[Ostwick national dish]" },
    ],
    informed: [
      { thought: "A description is not a page title. I will search Ostwick to find which state it is the capital of.", action: "Search[Ostwick]" },
      { thought: "Ostwick is the capital of Fennmark. Now I need the national dish of Fennmark.", action: "Search[Fennmark]" },
      { thought: "The national dish of Fennmark is eel pie. So the answer is eel pie.", action: "Finish[eel pie]" },
    ],
    reflection:
      'I searched for descriptions such as "national dish of Ostwick" and looked up a keyword when no page had been found, then repeated the same failed search until the trial was stopped for looping. I should search Ostwick, read which country it is the capital of, and then search that country for its national dish.',
    cot: {
      lessonKeywords: ["phrasing", "dish's name"],
      naive: { thought: "Ostwick is the capital of Fennmark, whose national dish is eel pie, usually served with mustard. So the answer is eel pie with mustard.", action: "Finish[eel pie with mustard]" },
      informed: { thought: "Ostwick is the capital of Fennmark, whose national dish is eel pie. My note says to give only the dish's name. So the answer is eel pie.", action: "Finish[eel pie]" },
      reflection:
        "My reasoning reached the right dish, but I added how it is served, so my answer did not match the answer key exactly: a phrasing discrepancy, not a wrong fact. Next time I should answer with the dish's name alone.",
    },
  },
  "qa-builtin-11": {
    lessonKeywords: ["Fenwick Hale", "detective"],
    naiveOutcome: "wrong-answer",
    naive: [
      { thought: "I need to find out about the writer Agnes Lyle and a dog.", action: "Search[Agnes Lyle]" },
      { thought: "Agnes Lyle lived with her terrier, Pepper. So the answer is Pepper.", action: "Finish[Pepper]" },
    ],
    informed: [
      { thought: "I need the character created by Agnes Lyle, then that character's dog.", action: "Search[Agnes Lyle]" },
      { thought: "She created Fenwick Hale. The terrier Pepper was her own dog, so I need his page.", action: "Search[Fenwick Hale]" },
      { thought: "Fenwick Hale works with his spaniel, Biscuit. So the answer is Biscuit.", action: "Finish[Biscuit]" },
    ],
    reflection:
      "I answered Pepper, which was Agnes Lyle's own dog, but the question asks for the dog of the detective she created. I should search the detective, Fenwick Hale, and answer with his dog's name.",
    cot: {
      lessonKeywords: ["Fenwick Hale", "detective"],
      naive: { thought: "Agnes Lyle lived with her terrier, Pepper. So the answer is Pepper.", action: "Finish[Pepper]" },
      informed: { thought: "Agnes Lyle created the detective Fenwick Hale; Pepper was her own terrier. Fenwick Hale works with his spaniel, Biscuit. So the answer is Biscuit.", action: "Finish[Biscuit]" },
      reflection:
        "I answered Pepper, Agnes Lyle's own dog, but the question asks for the dog of the detective she created. Next time I should answer with the dog of her detective, Fenwick Hale.",
    },
  },
  "qa-builtin-12": {
    lessonKeywords: ["Marsh Hill School", "closed"],
    naiveOutcome: "wrong-answer",
    naive: [
      { thought: "I need to find out about the chess player Lena Ruusk.", action: "Search[Lena Ruusk]" },
      { thought: "She won the Fennmark championship in 1962 as a pupil. So the answer is 1962.", action: "Finish[1962]" },
    ],
    informed: [
      { thought: "I need the school Lena Ruusk attended, then the year that school shut.", action: "Search[Lena Ruusk]" },
      { thought: "She was a pupil at Marsh Hill School. Now I need its page.", action: "Search[Marsh Hill School]" },
      { thought: "I will look up when the school closed.", action: "Lookup[closed]" },
      { thought: "Marsh Hill School closed in 1987. So the answer is 1987.", action: "Finish[1987]" },
    ],
    reflection:
      "I answered 1962, the year Lena Ruusk won the championship, but the question asks when her school closed. I should search Marsh Hill School and answer with the year it closed.",
    cot: {
      lessonKeywords: ["Marsh Hill School", "closed"],
      naive: { thought: "Lena Ruusk won the Fennmark championship in 1962 as a pupil. So the answer is 1962.", action: "Finish[1962]" },
      informed: { thought: "Lena Ruusk was a pupil at Marsh Hill School, and the question asks when that school closed. Marsh Hill School closed in 1987. So the answer is 1987.", action: "Finish[1987]" },
      reflection:
        "I answered 1962, the year Lena Ruusk won the championship, but the question asks when her school closed. Next time I should answer with the year Marsh Hill School closed.",
    },
  },
};
