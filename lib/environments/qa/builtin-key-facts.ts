import type { KeyFact } from "@/lib/domain/key-facts";

/**
 * The key facts of each built-in QA task (builtin-tasks.ts), keyed by task id:
 * what a reflection must state for the offline demo model's Actor to take the
 * task's informed path (lib/domain/key-facts.ts, decision 0022). `react` is
 * for the ReAct strategies, `cot` for `cot` / `cot-gold-context`, whose lesson
 * differs on four tasks (02, 04, 07, 10: the answer was right but worded so
 * that exact match failed).
 *
 * Written by hand from each task's question and its typical mistake, not from
 * the scripted reflection's words: every fact lists the wordings a person
 * might use. The scripted reflection (builtin-demo-scripts.ts) states every
 * fact; a reflection with the lesson keywords removed does not
 * (tests/environments/key-facts.test.ts).
 */
export interface QaTaskKeyFacts {
  react: readonly KeyFact[];
  cot: readonly KeyFact[];
}

/** The two facts of a CoT "phrasing discrepancy" lesson: the wording failed exact match; answer with the `thing`'s name alone. */
function phrasingFacts(thing: string, extra: readonly string[] = []): KeyFact[] {
  return [
    {
      id: "wording",
      any: ["phrasing", "phrased", "exact match", "wording", "worded", "extra words", "too many words", "whole phrase", "whole sentence", "sentence", "format", "formatted", ...extra],
      says: "that the answer failed exact match on its wording, not on its facts",
    },
    {
      id: "name-only",
      any: [`${thing}s name`, `name of ${thing}`, `${thing} name`, "name alone", "only name", "just name", "name only", "nothing but name", "only the name", `${thing} alone`, `only ${thing}`, `just ${thing}`],
      says: `to answer with the ${thing}'s name alone`,
    },
  ];
}

function search(id: string, names: readonly string[], says: string): KeyFact {
  return { id, any: names, says };
}

const F01: KeyFact[] = [
  search("search-next", ["Dunmere"], "the town to search next: Dunmere"),
  { id: "answer-type", any: ["river", "waterway", "stream"], says: "that the question asks for a river, not the town" },
];
const F03: KeyFact[] = [
  search("search-next", ["Carrow University", "Carrow"], "the university to search next: Carrow University"),
  { id: "answer-type", any: ["founded", "founding", "foundation", "established", "establishment", "set up", "opened"], says: "that the answer is the year the university was founded" },
];
const F05: KeyFact[] = [
  search("search-next", ["Velk"], "the island to search next: Velk"),
  {
    id: "answer-type",
    any: ["island", "birthplace", "born", "came from", "comes from", "home island", "people speak", "spoken there", "spoken on", "inhabitants", "locals"],
    says: "that the question is about the language of his birthplace, not of a translation",
  },
];
const F06: KeyFact[] = [
  search("search-next", ["Hallam Bridge"], "the bridge to search: Hallam Bridge"),
  {
    id: "answer-type",
    any: ["designed", "designer", "engineer", "architect", "not guess", "dont guess", "never guess", "without checking", "instead of guessing", "check"],
    says: "to answer with who actually designed it, not a guess from its name",
  },
];
const F08: KeyFact[] = [
  search("search-next", ["Orme and Pickett", "Orme Pickett"], "the company to search: Orme and Pickett Works"),
  { id: "answer-type", any: ["city", "town", "based", "headquarters", "headquartered", "offices", "located", "location"], says: "that the answer is the city where the company was based, not the company" },
];
const F09: KeyFact[] = [
  search("search-next", ["Cora Valine", "Valine"], "the actress to search: Cora Valine"),
  {
    id: "answer-type",
    any: ["birth name", "born with", "born as", "name at birth", "real name", "given name", "original name", "legal name", "birth certificate", "maiden name"],
    says: "that the question asks for her birth name, not her stage name",
  },
];
const F11: KeyFact[] = [
  search("search-next", ["Fenwick Hale"], "the detective to search: Fenwick Hale"),
  { id: "answer-type", any: ["detective", "sleuth", "investigator", "character", "created", "creation", "not author", "not writer"], says: "that the dog is her detective's, not the writer's own" },
];
const F12: KeyFact[] = [
  search("search-next", ["Marsh Hill School", "Marsh Hill"], "the school to search: Marsh Hill School"),
  { id: "answer-type", any: ["closed", "closure", "closing", "shut", "shut down", "shutdown"], says: "that the answer is the year the school closed, not her championship year" },
];

/** Key facts per built-in QA task id. */
export const builtinQaKeyFacts: Readonly<Record<string, QaTaskKeyFacts>> = {
  "qa-builtin-01": { react: F01, cot: F01 },
  "qa-builtin-02": {
    react: [
      search("search-next", ["Port Averly"], "the page to search first: Port Averly"),
      {
        id: "exact-title",
        any: ["exact title", "exact name", "page title", "page name", "title of page", "name of page", "full title", "actual title", "real title", "titles", "not description", "not descriptions", "instead of description", "rather than description", "not phrase"],
        says: "that Search needs a page's exact title, not a description",
      },
    ],
    cot: phrasingFacts("ship"),
  },
  "qa-builtin-03": { react: F03, cot: F03 },
  "qa-builtin-04": {
    react: [
      search("search-next", ["Mount Orrel", "Orrel"], "the mountain to search: Mount Orrel (where the railway ends)"),
      {
        id: "not-orrin",
        any: ["exactly", "exact", "precisely", "letter for letter", "not Orrin", "instead of Orrin", "rather than Orrin", "spelling", "spelled", "spelt", "similar name", "different mountain", "wrong mountain", "mixed up", "confused"],
        says: "that Mount Orrin is a different mountain with a similar name: copy the name exactly",
      },
    ],
    cot: [
      phrasingFacts("height")[0]!,
      { id: "unit", any: ["metres", "meters", "metre", "meter", "unit in full", "full unit", "spell out unit", "whole unit", "not abbreviate", "dont abbreviate", "without abbreviating"], says: "to write the height's unit in full, in metres" },
    ],
  },
  "qa-builtin-05": { react: F05, cot: F05 },
  "qa-builtin-06": { react: F06, cot: F06 },
  "qa-builtin-07": {
    react: [
      search("search-next", ["Kettle Lane Quartet"], "the page to search: the full title Kettle Lane Quartet (Kettle Lane is a street)"),
      { id: "answer-type", any: ["instrument", "played", "plays", "play"], says: "that the answer is the instrument its founder played" },
    ],
    cot: phrasingFacts("instrument"),
  },
  "qa-builtin-08": { react: F08, cot: F08 },
  "qa-builtin-09": { react: F09, cot: F09 },
  "qa-builtin-10": {
    react: [
      search(
        "search-next",
        ["search Ostwick", "search for Ostwick", "look up Ostwick", "lookup Ostwick", "Ostwick page", "page for Ostwick", "page on Ostwick", "Ostwick first", "Ostwick itself", "start with Ostwick", "start from Ostwick", "begin with Ostwick"],
        "to search the exact title Ostwick first",
      ),
      { id: "answer-type", any: ["country", "nation", "which land"], says: "that Ostwick is a capital: the dish is its country's" },
    ],
    cot: phrasingFacts("dish"),
  },
  "qa-builtin-11": { react: F11, cot: F11 },
  "qa-builtin-12": { react: F12, cot: F12 },
};

/**
 * The key facts of built-in QA task `taskId` (the chain-of-thought ones when `chainOfThought`: the
 * run's strategy is a CoT Actor's, decision 0008), or null when the task is not built in. The
 * server registry's `demoKeyFacts` (lib/environments/demo-key-facts.ts reads it).
 */
export function qaDemoKeyFacts(taskId: string, chainOfThought: boolean): readonly KeyFact[] | null {
  const facts = builtinQaKeyFacts[taskId];
  return facts ? (chainOfThought ? facts.cot : facts.react) : null;
}
