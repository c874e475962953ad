import type { TrajectoryStep } from "@/lib/domain/environment";
import { finishObservation, notFoundObservation } from "./environment";
import { mismatchFeedback, NO_ANSWER_FEEDBACK } from "./exact-match";

/**
 * The few-shot examples of the QA prompts, written for this project about
 * invented facts that appear in no built-in task (so the examples never give a
 * task's answer away). They are stored as structured steps and rendered by
 * prompts.ts with the same `renderTrajectory` as the live scratchpad, so they
 * have exactly the scratchpad's format. Observations use the environment's own
 * wording (`notFoundObservation`, `finishObservation`).
 */

/** A worked Actor example: a question and its steps. */
export interface QaActorExample {
  question: string;
  steps: TrajectoryStep[];
}

/** A worked Self-Reflection example: a failed trial, the Evaluator's feedback and the reflection. */
export interface QaReflectionExample extends QaActorExample {
  feedback: string;
  reflection: string;
}

function steps(...items: [thought: string, actionText: string, observation: string][]): TrajectoryStep[] {
  return items.map(([thought, actionText, observation], index) => ({ step: index + 1, thought, actionText, observation }));
}

/** Three successful ReAct trajectories: a plain bridge, a failed search recovered via the similar titles, and a Lookup. */
export const qaActorExamples: QaActorExample[] = [
  {
    question: "What colour is the flag of the province where Lake Imber lies?",
    steps: steps(
      [
        "I need the province where Lake Imber lies, then the colour of that province's flag.",
        "Search[Lake Imber]",
        "Lake Imber is a glacial lake in the province of Tarnwold. It is fed by meltwater from the Corse Glacier.",
      ],
      [
        "Lake Imber lies in Tarnwold. Now I need the colour of the flag of Tarnwold.",
        "Search[Tarnwold]",
        "Tarnwold is a mountainous province in the north. Its capital is Fesk. The provincial flag is plain orange with a white star.",
      ],
      ["The flag of Tarnwold is orange with a white star, so its colour is orange.", "Finish[orange]", finishObservation("orange")],
    ),
  },
  {
    question: "Who wrote the words of the song sung at the opening of the Quarry Games?",
    steps: steps(
      [
        "I need the song sung at the opening of the Quarry Games, then who wrote its words.",
        "Search[Quarry Games opening song]",
        notFoundObservation("Quarry Games opening song", ["Quarry Games", "Quarry Games (1974 film)", "Stone Song", "Opening Day", "Quarrymen's Hall"]),
      ],
      [
        "There is no page with that title, but Quarry Games is one of the similar titles. I will search it.",
        "Search[Quarry Games]",
        "The Quarry Games are a sporting festival held every four years in the town of Lisk. Events include stone lifting and rope pulling. Each festival opens with the Stone Song.",
      ],
      [
        "The opening song is the Stone Song. Now I need who wrote its words.",
        "Search[Stone Song]",
        "The Stone Song is a choral piece composed in 1931 by Nils Arden. Its words were written by the schoolteacher Ruth Callow. It is sung in the dialect of Lisk.",
      ],
      ["Nils Arden wrote the music, but the words were written by Ruth Callow.", "Finish[Ruth Callow]", finishObservation("Ruth Callow")],
    ),
  },
  {
    question: "In what year did the bakery that first sold the Wexham bun open?",
    steps: steps(
      [
        "I need the bakery that first sold the Wexham bun, then the year that bakery opened.",
        "Search[Wexham bun]",
        "The Wexham bun is a sweet roll filled with currants and spice. It was first sold in 1890 by Hobb's Bakery in the village of Wexham. It is eaten at harvest festivals.",
      ],
      [
        "The Wexham bun was first sold by Hobb's Bakery in 1890. That is the bun's year, not the bakery's, so I need the page of Hobb's Bakery.",
        "Search[Hobb's Bakery]",
        "Hobb's Bakery is a family bakery in Wexham. Its ovens are still fired with wood. Ada Hobb opened the shop in 1862 after working in a mill. It supplies bread to three villages.",
      ],
      [
        "The page is long. I will look up the sentence about when the shop opened.",
        "Lookup[opened]",
        "(Result 1 / 1) Ada Hobb opened the shop in 1862 after working in a mill.",
      ],
      ["Hobb's Bakery opened in 1862.", "Finish[1862]", finishObservation("1862")],
    ),
  },
];

/** Two failed trials with their reflections: a wrong `Finish`, and a search loop that ran out of steps. */
export const qaReflectionExamples: QaReflectionExample[] = [
  {
    question: "In which town was the architect of the Greyfield Library born?",
    steps: steps(
      [
        "I need the architect of the Greyfield Library.",
        "Search[Greyfield Library]",
        "The Greyfield Library is a public library opened in 1907. It was designed by the architect Oskar Lenn. It stands in the town of Greyfield.",
      ],
      ["The library stands in Greyfield. So the answer is Greyfield.", "Finish[Greyfield]", finishObservation("Greyfield")],
    ),
    feedback: mismatchFeedback("Greyfield"),
    reflection:
      "I answered Greyfield, the town where the library stands, but the question asks where its architect was born. I stopped after the first page. I should search the architect named there, Oskar Lenn, and answer with the town of his birth.",
  },
  {
    question: "How many strings does the instrument played by the folk singer Mira Tolk have?",
    steps: steps(
      [
        "I need the instrument Mira Tolk plays.",
        "Search[Mira Tolk instrument]",
        notFoundObservation("Mira Tolk instrument", ["Mira Tolk", "Tolk (instrument)", "Folk harp", "Mira (ship)", "Instrument"]),
      ],
      [
        "That page does not exist. I will try a different description.",
        "Search[instrument played by Mira Tolk]",
        notFoundObservation("instrument played by Mira Tolk", ["Mira Tolk", "Instrument", "Tolk (instrument)", "Folk harp", "Mira (ship)"]),
      ],
      [
        "Still nothing. I will search for the strings.",
        "Search[Mira Tolk strings]",
        notFoundObservation("Mira Tolk strings", ["Mira Tolk", "Tolk (instrument)", "Folk harp", "Instrument", "Mira (ship)"]),
      ],
    ),
    feedback: NO_ANSWER_FEEDBACK,
    reflection:
      "I searched for descriptions instead of page titles, ignored the similar titles offered, and ran out of steps. Mira Tolk was listed as a page, so I should search Mira Tolk first, find the instrument she plays, and then search that instrument for its number of strings.",
  },
];

/** A context paragraph of a chain-of-thought example: a page title and its text. */
export interface QaContextParagraph {
  title: string;
  text: string;
}

/**
 * A worked chain-of-thought example (strategies `cot`, `cot-gold-context`): one
 * Thought, then `Finish[answer]`. `context` holds the supporting paragraphs of
 * the with-context examples and is empty for the closed-book ones.
 */
export interface QaCotExample {
  context: QaContextParagraph[];
  question: string;
  thought: string;
  answer: string;
}

/** A failed chain-of-thought trial with the Evaluator's feedback and its reflection. */
export interface QaCotReflectionExample extends QaCotExample {
  feedback: string;
  reflection: string;
}

/**
 * Three closed-book examples (`cot`): a bridge, a comparison and a small
 * calculation, about well-known real facts (a closed-book model answers from
 * what it knows, so invented facts would make no sense here).
 */
export const qaCotExamples: QaCotExample[] = [
  {
    context: [],
    question: "Which ocean lies off the coast of the country whose capital is Lisbon?",
    thought:
      "Lisbon is the capital of Portugal. Portugal's only coast faces west and south onto the Atlantic Ocean. So the answer is Atlantic Ocean.",
    answer: "Atlantic Ocean",
  },
  {
    context: [],
    question: "Who was born first, Wolfgang Amadeus Mozart or Ludwig van Beethoven?",
    thought: "Mozart was born in 1756 and Beethoven in 1770. 1756 is earlier, so Mozart was born first.",
    answer: "Wolfgang Amadeus Mozart",
  },
  {
    context: [],
    question: "In which century was the author of Don Quixote born?",
    thought: "Don Quixote was written by Miguel de Cervantes, who was born in 1547. The year 1547 falls in the 16th century.",
    answer: "16th century",
  },
];

/**
 * Three with-context examples (`cot-gold-context`): a bridge, a comparison and a
 * yes/no question, about invented facts of the same world as the ReAct
 * examples (none of a built-in task's).
 */
export const qaCotContextExamples: QaCotExample[] = [
  {
    context: [
      { title: "Corse Glacier", text: "The Corse Glacier is the longest glacier in Tarnwold. It was first mapped in 1874 by the surveyor Ivo Stael." },
      { title: "Ivo Stael", text: "Ivo Stael (1839–1901) was a surveyor and mountaineer. He was born in the fishing port of Marl and died in Fesk." },
    ],
    question: "In which town was the surveyor who first mapped the Corse Glacier born?",
    thought: "The Corse Glacier was first mapped by the surveyor Ivo Stael. Ivo Stael was born in the fishing port of Marl. So the answer is Marl.",
    answer: "Marl",
  },
  {
    context: [
      { title: "Lisk Tower", text: "Lisk Tower is a stone watchtower above the town of Lisk. It was completed in 1702." },
      { title: "Fesk Cathedral", text: "Fesk Cathedral is the largest church in Tarnwold. Building began in 1610 and the cathedral was finished in 1688." },
    ],
    question: "Which was completed first, Lisk Tower or Fesk Cathedral?",
    thought: "Lisk Tower was completed in 1702 and Fesk Cathedral was finished in 1688. 1688 is earlier, so Fesk Cathedral was completed first.",
    answer: "Fesk Cathedral",
  },
  {
    context: [
      { title: "Stone Song", text: "The Stone Song is a choral piece composed in 1931 by Nils Arden. Its words were written by the schoolteacher Ruth Callow." },
      { title: "Nils Arden", text: "Nils Arden (1898–1960) was a composer and organist. He was born in Lisk and taught music in Fesk." },
    ],
    question: "Was the composer of the Stone Song born in Lisk?",
    thought: "The Stone Song was composed by Nils Arden, and Nils Arden was born in Lisk. So the answer is yes.",
    answer: "yes",
  },
];

/**
 * Two failed closed-book trials with their reflections: a right answer that
 * failed exact match on its phrasing, and a wrong step in the reasoning.
 */
export const qaCotReflectionExamples: QaCotReflectionExample[] = [
  {
    context: [],
    question: "Which river flows through the capital of Hungary?",
    thought: "The capital of Hungary is Budapest, and the Danube flows through Budapest.",
    answer: "The Danube flows through Budapest",
    feedback: mismatchFeedback("The Danube flows through Budapest"),
    reflection:
      "My reasoning was right, but I answered with a whole sentence, so my answer did not match the answer key even though it named the right river. This was a phrasing discrepancy, not a wrong fact. Next time I should answer with the name alone, Danube, and nothing else.",
  },
  {
    context: [],
    question: "In which country was the inventor of the telephone born?",
    thought: "The telephone was invented by Alexander Graham Bell, who did his work in the United States. So the answer is United States.",
    answer: "United States",
    feedback: mismatchFeedback("United States"),
    reflection:
      "I answered with the country where Alexander Graham Bell worked, but the question asks where he was born. I mixed up where an inventor made his name with his birthplace. Next time I should reason about the birthplace itself: Bell was born in Edinburgh, so the answer is Scotland.",
  },
];

/**
 * Two failed with-context trials with their reflections: an answer with an
 * extra detail that failed exact match, and a chain stopped one step early.
 */
export const qaCotContextReflectionExamples: QaCotReflectionExample[] = [
  {
    context: [
      { title: "Wexham bun", text: "The Wexham bun is a sweet roll filled with currants and spice. It was first sold in 1890 by Hobb's Bakery in the village of Wexham." },
      { title: "Hobb's Bakery", text: "Hobb's Bakery is a family bakery in Wexham. Ada Hobb opened the shop in 1862 after working in a mill." },
    ],
    question: "Who opened the bakery that first sold the Wexham bun?",
    thought: "The Wexham bun was first sold by Hobb's Bakery, and Ada Hobb opened that shop in 1862.",
    answer: "Ada Hobb, in 1862",
    feedback: mismatchFeedback("Ada Hobb, in 1862"),
    reflection:
      "The context gave the right person, Ada Hobb, but I added the year to my answer, so it did not match the answer key exactly: a phrasing discrepancy rather than a wrong fact. Next time I should answer with exactly what the question asks for, here only the person's name.",
  },
  {
    context: [
      { title: "Lake Imber", text: "Lake Imber is a glacial lake in the province of Tarnwold. It is fed by meltwater from the Corse Glacier." },
      { title: "Tarnwold", text: "Tarnwold is a mountainous province in the north. Its capital is Fesk." },
    ],
    question: "What is the capital of the province where Lake Imber lies?",
    thought: "Lake Imber lies in the province of Tarnwold. So the answer is Tarnwold.",
    answer: "Tarnwold",
    feedback: mismatchFeedback("Tarnwold"),
    reflection:
      "I answered Tarnwold, the province where Lake Imber lies, but the question asks for that province's capital, so I stopped one step early. Next time I should follow the chain to its end in the context: the Tarnwold paragraph names its capital, Fesk.",
  },
];
