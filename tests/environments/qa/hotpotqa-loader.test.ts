import { describe, expect, it } from "vitest";
import { isAppError } from "@/lib/domain/errors";
import { evaluateQa } from "@/lib/environments/qa/exact-match";
import { loadHotpotQa } from "@/lib/environments/qa/hotpotqa-loader";
import { qaTaskSchema } from "@/lib/environments/qa/task";
import { readHotpotQaSample } from "./shared-data";

describe("loadHotpotQa on the Reflexion sample (HF datasets layout)", () => {
  const { tasks, problems } = loadHotpotQa(readHotpotQaSample());

  it("loads all 100 questions without problems", () => {
    expect(problems).toEqual([]);
    expect(tasks).toHaveLength(100);
    expect(new Set(tasks.map((task) => task.id)).size).toBe(100);
    for (const task of tasks) expect(qaTaskSchema.safeParse(task).success).toBe(true);
  });

  it("keeps the first record's facts", () => {
    const first = tasks[0]!;
    expect(first.id).toBe("5a7613c15542994ccc9186bf");
    expect(first.question).toBe("VIVA Media AG changed it's name in 2004. What does their new acronym stand for?");
    expect(first.answer).toBe("Gesellschaft mit beschränkter Haftung");
    expect(first.type).toBe("bridge");
    expect(first.level).toBe("hard");
    expect(first.supportingTitles).toEqual(["VIVA Media", "Gesellschaft mit beschränkter Haftung"]);
    expect(first.paragraphs.map((paragraph) => paragraph.title)).toEqual([
      "Constantin Medien",
      "VIVA Poland",
      "Viva (UK and Ireland)",
      "Blic",
      "Qontis",
      "VIVA Media",
      "ProSiebenSat.1 Media",
      "Gesellschaft mit beschränkter Haftung",
      "Mix Megapol",
      "John M. Keller",
    ]);
    expect(first.paragraphs.map((paragraph) => paragraph.sentences.length)).toEqual([1, 3, 2, 2, 5, 3, 4, 5, 7, 3]);
    expect(first.paragraphs[1]!.sentences[1]).toBe(" is a Polish 24h music and entertainment channel from Viacom International Media Networks Polska.");
  });

  it("has 10 paragraphs per question, 85 bridge and 15 comparison questions, each title listed once", () => {
    expect(new Set(tasks.map((task) => task.paragraphs.length))).toEqual(new Set([10]));
    expect(tasks.filter((task) => task.type === "bridge")).toHaveLength(85);
    expect(tasks.filter((task) => task.type === "comparison")).toHaveLength(15);
    // 249 supporting sentences in the file name 200 distinct (question, title) pairs.
    expect(tasks.reduce((sum, task) => sum + task.supportingTitles.length, 0)).toBe(200);
  });

  it("dedupes supporting titles listed once per sentence (last record)", () => {
    const last = tasks[99]!;
    expect(last.id).toBe("5a7ea14655429930675135ab");
    expect(last.answer).toBe("Oneida Limited");
    expect(last.supportingTitles).toEqual(["Pierrepont Noyes", "Oneida Community"]);
  });

  it("keeps answer-key artefacts, which exact match then forgives (Jonny\" Craig)", () => {
    const craig = tasks.find((task) => task.id === "5adf2fa35542993344016c11")!;
    expect(craig.answer).toBe('Jonny" Craig');
    expect(craig.type).toBe("comparison");
    expect(evaluateQa(craig, "Jonny Craig").verdict).toBe("pass");
  });

  it("honours limit", () => {
    const limited = loadHotpotQa(readHotpotQaSample(), { limit: 3 });
    expect(limited.tasks.map((task) => task.id)).toEqual(tasks.slice(0, 3).map((task) => task.id));
  });
});

describe("loadHotpotQa on the original HotpotQA layout", () => {
  const original = [
    {
      _id: "orig-1",
      question: "Which river runs through the town where the opera was staged?",
      answer: "River Sallow",
      type: "bridge",
      level: "medium",
      supporting_facts: [
        ["The Glass Orchard", 1],
        ["Dunmere", 1],
      ],
      context: [
        ["The Glass Orchard", ["The Glass Orchard is an opera.", " It was first staged in Dunmere."]],
        ["Dunmere", ["Dunmere is a town.", " The River Sallow runs through it."]],
      ],
    },
  ];

  it("converts pairs to the task shape", () => {
    const { tasks, problems } = loadHotpotQa(JSON.stringify(original));
    expect(problems).toEqual([]);
    expect(tasks).toEqual([
      {
        id: "orig-1",
        question: "Which river runs through the town where the opera was staged?",
        answer: "River Sallow",
        type: "bridge",
        level: "medium",
        supportingTitles: ["The Glass Orchard", "Dunmere"],
        paragraphs: [
          { title: "The Glass Orchard", sentences: ["The Glass Orchard is an opera.", " It was first staged in Dunmere."] },
          { title: "Dunmere", sentences: ["Dunmere is a town.", " The River Sallow runs through it."] },
        ],
      },
    ]);
  });
});

describe("loadHotpotQa and Unicode normalisation", () => {
  // "Zürich" written decomposed (u + U+0308 COMBINING DIAERESIS) and precomposed (U+00FC).
  const decomposed = "Zu\u0308rich";
  const precomposed = "Z\u00fcrich";

  it("stores question, answer, titles and sentences in NFC, so the two spellings are one", () => {
    const record = {
      id: "nfc-1",
      question: `Which lake is ${decomposed} on?`,
      answer: decomposed,
      supporting_facts: [[precomposed, 0]],
      context: [[decomposed, [`${decomposed} lies on Lake ${decomposed}.`]]],
    };
    const { tasks, problems } = loadHotpotQa(JSON.stringify([record]));
    expect(problems).toEqual([]);
    const task = tasks[0]!;
    expect(task.answer).toBe(precomposed);
    expect(task.question).toBe(`Which lake is ${precomposed} on?`);
    expect(task.paragraphs[0]!.title).toBe(precomposed);
    expect(task.paragraphs[0]!.sentences[0]).toBe(`${precomposed} lies on Lake ${precomposed}.`);
    expect(task.supportingTitles).toEqual([precomposed]);
    expect(evaluateQa(task, precomposed).verdict).toBe("pass");
  });

  it("normalises a task given directly (qaTaskSchema) to NFC", () => {
    const task = qaTaskSchema.parse({ id: "nfc-2", question: `Where is ${decomposed}?`, answer: decomposed, paragraphs: [{ title: decomposed, sentences: ["x"] }], supportingTitles: [precomposed] });
    expect(task.answer).toBe(precomposed);
    expect(task.paragraphs[0]!.title).toBe(precomposed);
  });
});

describe("loadHotpotQa on broken input", () => {
  const good = {
    id: "good-1",
    question: "Q?",
    answer: "A",
    supporting_facts: { title: ["T"], sent_id: [0] },
    context: { title: ["T"], sentences: [["A is here."]] },
  };
  const malformed = [
    good,
    { ...good, id: "no-answer", answer: "" },
    { ...good, id: undefined },
    { ...good, id: "bad-fact", supporting_facts: { title: ["Missing"], sent_id: [0] } },
    { ...good, id: "past-end", supporting_facts: { title: ["T"], sent_id: [3] } },
    { ...good, id: "ragged", context: { title: ["T", "U"], sentences: [["x"]] } },
    { ...good, id: "weird-context", context: "T: A is here." },
    null,
    { ...good, id: "good-1" },
    { ...good, id: "good-2", supporting_facts: [["T", 0]], context: [["T", ["Mixed layouts per record are fine."]]] },
  ];

  it("reports each broken record by index and id, and loads the rest", () => {
    const { tasks, problems } = loadHotpotQa(JSON.stringify(malformed));
    expect(tasks.map((task) => task.id)).toEqual(["good-1", "good-2"]);
    expect(problems).toHaveLength(8);
    expect(problems[0]).toMatch(/^record 1 \(id "no-answer"\): answer: expected a non-empty string$/);
    expect(problems[1]).toMatch(/^record 2: id: the record needs a non-empty `id` or `_id`$/);
    expect(problems[2]).toMatch(/^record 3 \(id "bad-fact"\): supporting fact title "Missing" is not one of the context titles$/);
    expect(problems[3]).toMatch(/^record 4 \(id "past-end"\): supporting fact \["T", 3\] points past the paragraph's 1 sentence/);
    expect(problems[4]).toMatch(/^record 5 \(id "ragged"\): context: .*same length/);
    expect(problems[5]).toMatch(/^record 6 \(id "weird-context"\): context: context must be \[\[title, \[sentences…\]\], …\]/);
    expect(problems[6]).toMatch(/^record 7: \(record\): /);
    expect(problems[7]).toBe('record 8 (id "good-1"): duplicate id; an earlier record already has it');
  });

  it("reports an empty array", () => {
    expect(loadHotpotQa("[]")).toEqual({ tasks: [], problems: ["The file contains no records."] });
  });

  it.each([
    ["not JSON", "{ this is not json", /not valid JSON/],
    ["a JSON object", JSON.stringify({ data: [good] }), /must be a JSON array.*top level is object/],
    ["JSON null", "null", /top level is null/],
  ])("throws AppError invalid-dataset for %s", (_, text, message) => {
    let caught: unknown;
    try {
      loadHotpotQa(text);
    } catch (error) {
      caught = error;
    }
    expect(isAppError(caught, "invalid-dataset")).toBe(true);
    expect((caught as Error).message).toMatch(message);
  });
});
