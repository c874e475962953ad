import { describe, expect, it } from "vitest";
import { parseAction } from "@/lib/environments/qa/action-parser";
import { builtinQaTasks } from "@/lib/environments/qa/builtin-tasks";
import {
  EPISODE_OVER_OBSERVATION,
  INVALID_ACTION_OBSERVATION,
  LOOKUP_WITHOUT_PAGE_OBSERVATION,
  notFoundObservation,
  startQaEpisode,
} from "@/lib/environments/qa/environment";
import { loadHotpotQa } from "@/lib/environments/qa/hotpotqa-loader";
import type { QaTask } from "@/lib/environments/qa/task";
import { editDistance, rankSimilarTitles } from "@/lib/environments/qa/title-similarity";
import { readHotpotQaSample } from "./shared-data";

const glassOrchard = builtinQaTasks.find((task) => task.id === "qa-builtin-01")!;
/** The first task of the Reflexion HotpotQA sample (10 paragraphs). */
const vivaTask = loadHotpotQa(readHotpotQaSample()).tasks[0]!;

/** A task whose page has several sentences mentioning "river", for the Lookup cursor. */
const riverTask: QaTask = {
  id: "fixture-river",
  question: "Which river?",
  answer: "Sallow",
  supportingTitles: ["Dunmere"],
  paragraphs: [
    {
      title: "Dunmere",
      sentences: ["Dunmere is a town.", "The River Sallow runs through it.", "Its mills stood by the river.", "A fair is held there."],
    },
    { title: "Lowen Valley", sentences: ["The Lowen Valley has no river of note."] },
  ],
};

/** Runs action texts through parseAction and one episode; returns the observations. */
function play(task: QaTask, ...actions: string[]): string[] {
  const episode = startQaEpisode(task);
  return actions.map((action) => episode.step(parseAction(action)).observation);
}

describe("Search", () => {
  it("returns the whole paragraph of the matching title", () => {
    expect(play(glassOrchard, "Search[Dunmere]")).toEqual([
      "Dunmere is a market town in the Lowen Valley. The River Sallow runs through the town centre and once powered its wool mills. A wool fair has been held in Dunmere every autumn since 1790.",
    ]);
  });

  it("matches titles case-insensitively, trimmed, whitespace-collapsed and without copied quotes", () => {
    const [exact] = play(glassOrchard, "Search[The Glass Orchard]");
    expect(play(glassOrchard, "Search[  the glass   ORCHARD ]")).toEqual([exact]);
    expect(play(glassOrchard, "Search['The Glass Orchard']")).toEqual([exact]);
    expect(exact).toMatch(/^The Glass Orchard is a chamber opera/);
  });

  it("keeps HotpotQA's own sentence spacing when rebuilding a paragraph", () => {
    const viva = vivaTask.paragraphs.find((paragraph) => paragraph.title === "VIVA Poland")!;
    expect(play(vivaTask, "Search[VIVA Poland]")).toEqual([viva.sentences.join("").trim()]);
    expect(play(vivaTask, "Search[VIVA Poland]")[0]).toContain('(earlier "VIVApolska!") is a Polish 24h music');
  });

  it("lists up to 5 similar titles, closest first, when no title matches", () => {
    expect(play(glassOrchard, "Search[Glass Orchard opera]")).toEqual([
      "Could not find [Glass Orchard opera]. Similar: ['The Glass Orchard', 'The Glass Orchard (novel)', 'Dunmere', 'Dunmore']",
    ]);
    const observation = play(vivaTask, "Search[Viva Media AG]")[0]!;
    expect(observation).toMatch(/^Could not find \[Viva Media AG\]\. Similar: \['VIVA Media', /);
    expect(observation.match(/', '/g)).toHaveLength(4); // 5 titles out of 10
  });

  it("quotes similar titles like a Python list, and a Search copied with those quotes still matches", () => {
    expect(notFoundObservation("x", ["Hobb's Bakery", "Plain", `Both '"`])).toBe(
      `Could not find [x]. Similar: ["Hobb's Bakery", 'Plain', 'Both \\'"']`,
    );
    const bakery: QaTask = { ...riverTask, paragraphs: [{ title: "Hobb's Bakery", sentences: ["Opened in 1862."] }], supportingTitles: [] };
    expect(play(bakery, `Search["Hobb's Bakery"]`)).toEqual(["Opened in 1862."]);
  });

  it("a failed Search leaves no page for Lookup, as in the reference", () => {
    expect(play(glassOrchard, "Search[Dunmere]", "Search[Nowhere]", "Lookup[river]")).toEqual([
      expect.any(String),
      expect.stringMatching(/^Could not find \[Nowhere\]/),
      LOOKUP_WITHOUT_PAGE_OBSERVATION,
    ]);
  });
});

describe("Lookup", () => {
  it("needs a found page first", () => {
    expect(play(riverTask, "Lookup[river]")).toEqual([
      "The last page Searched was not found, so you cannot Lookup a keyword in it. Please try one of the similar pages given.",
    ]);
  });

  it("walks the matching sentences with a cursor, then says No More Results.", () => {
    expect(play(riverTask, "Search[Dunmere]", "Lookup[river]", "Lookup[River]", "Lookup[river]", "Lookup[river]")).toEqual([
      expect.any(String),
      "(Result 1 / 2) The River Sallow runs through it.",
      "(Result 2 / 2) Its mills stood by the river.",
      "No More Results.",
      "No More Results.",
    ]);
  });

  it("a new keyword restarts the cursor, and so does a new Search", () => {
    expect(
      play(riverTask, "Search[Dunmere]", "Lookup[river]", "Lookup[fair]", "Lookup[river]", "Search[Dunmere]", "Lookup[river]"),
    ).toEqual([
      expect.any(String),
      "(Result 1 / 2) The River Sallow runs through it.",
      "(Result 1 / 1) A fair is held there.",
      "(Result 1 / 2) The River Sallow runs through it.",
      expect.any(String),
      "(Result 1 / 2) The River Sallow runs through it.",
    ]);
  });

  it("says No Results. when no sentence has the keyword", () => {
    expect(play(riverTask, "Search[Dunmere]", "Lookup[castle]")[1]).toBe("No Results.");
  });

  it("returns trimmed HotpotQA sentences", () => {
    expect(play(vivaTask, "Search[VIVA Media]", "Lookup[viacom]")[1]).toBe(
      "(Result 1 / 1) It was founded for broadcast of VIVA Germany as VIVA Media AG in 1993 and has been owned by their original concurrent Viacom, the parent company of MTV, since 2004.",
    );
  });
});

describe("Finish and invalid actions", () => {
  it("Finish ends the episode and records the answer; the verdict is not in the observation", () => {
    const episode = startQaEpisode(glassOrchard);
    expect(episode.step(parseAction("Finish[Dunmere]"))).toEqual({
      observation: "Episode finished, answer submitted: Dunmere",
      done: true,
      answer: "Dunmere",
    });
    expect(episode.step(parseAction("Search[Dunmere]"))).toEqual({ observation: EPISODE_OVER_OBSERVATION, done: true, answer: "Dunmere" });
  });

  // `search[Dunmere]` used to be here: the verb's case is no longer a reason to reject an action (decision 0014).
  it.each(["Compare[a, b]", "", "Search Dunmere", "Search[Dunmere"])("%j is an Invalid Action observation, not the end", (text) => {
    const episode = startQaEpisode(glassOrchard);
    expect(episode.step(parseAction(text))).toEqual({ observation: INVALID_ACTION_OBSERVATION, done: false, answer: null });
    expect(INVALID_ACTION_OBSERVATION).toBe("Invalid Action. Valid Actions are Lookup[<topic>] Search[<topic>] and Finish[<answer>].");
  });

  it("is deterministic: replaying the same actions gives the same observations", () => {
    const actions = ["Search[Glass Orchard]", "Lookup[x]", "Search[The Glass Orchard]", "Lookup[staged]", "Lookup[staged]", "Finish[Dunmere]"];
    expect(play(glassOrchard, ...actions)).toEqual(play(glassOrchard, ...actions));
  });
});

describe("title similarity", () => {
  it("computes Levenshtein distances", () => {
    expect(editDistance("kitten", "sitting")).toBe(3);
    expect(editDistance("", "abc")).toBe(3);
    expect(editDistance("Orrel", "Orrel")).toBe(0);
  });

  it("ranks by shared words, then spelling, then original order, ignoring case and accents", () => {
    const titles = ["Mount Orrin", "Silverline (band)", "Mount Orrel", "Gesellschaft mit beschränkter Haftung"];
    expect(rankSimilarTitles("mount orel", titles, 2)).toEqual(["Mount Orrel", "Mount Orrin"]);
    expect(rankSimilarTitles("beschrankter", titles, 1)).toEqual(["Gesellschaft mit beschränkter Haftung"]);
    expect(rankSimilarTitles("zzz", ["b", "a"], 5)).toEqual(["b", "a"]);
  });
});
