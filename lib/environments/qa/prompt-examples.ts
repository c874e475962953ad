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
