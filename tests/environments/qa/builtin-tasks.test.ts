import { describe, expect, it } from "vitest";
import { builtinQaTasks } from "@/lib/environments/qa/builtin-tasks";
import { normalizeAnswer } from "@/lib/environments/qa/exact-match";
import { parseQaTask, joinSentences, type QaTask } from "@/lib/environments/qa/task";
import { qaEnvironment } from "@/lib/environments/qa";

function pageText(task: QaTask, title: string): string {
  const paragraph = task.paragraphs.find((candidate) => candidate.title === title);
  if (paragraph === undefined) throw new Error(`${task.id} has no page ${title}`);
  return joinSentences(paragraph.sentences);
}

/** True when the normalised answer occurs as whole words in the normalised text. */
function mentions(text: string, answer: string): boolean {
  return ` ${normalizeAnswer(text)} `.includes(` ${normalizeAnswer(answer)} `);
}

describe("builtinQaTasks", () => {
  it("has at least 12 tasks with stable, unique ids qa-builtin-NN", () => {
    expect(builtinQaTasks.length).toBeGreaterThanOrEqual(12);
    expect(builtinQaTasks.map((task) => task.id)).toEqual(
      builtinQaTasks.map((_, index) => `qa-builtin-${String(index + 1).padStart(2, "0")}`),
    );
  });

  it("every task passes the family's own validation unchanged", () => {
    for (const task of builtinQaTasks) expect(qaEnvironment.parseTask(JSON.parse(JSON.stringify(task)))).toEqual(task);
  });

  it.each(builtinQaTasks.map((task) => [task.id, task] as const))(
    "%s: 3–5 paragraphs with unique titles, 2 supporting, short answer not in the question",
    (_, task) => {
      expect(task.paragraphs.length).toBeGreaterThanOrEqual(3);
      expect(task.paragraphs.length).toBeLessThanOrEqual(5);
      const titles = task.paragraphs.map((paragraph) => paragraph.title.toLowerCase());
      expect(new Set(titles).size).toBe(titles.length);
      expect(task.supportingTitles).toHaveLength(2);
      expect(task.answer.split(" ").length).toBeLessThanOrEqual(4);
      expect(mentions(task.question, task.answer)).toBe(false);
    },
  );

  it.each(builtinQaTasks.map((task) => [task.id, task] as const))(
    "%s is a real two-hop: the question's page names the bridge page, and only the bridge page has the answer",
    (_, task) => {
      const [firstHop, secondHop] = task.supportingTitles as [string, string];
      expect(task.question).toContain(firstHop.replace(/ \(.*\)$/, ""));
      expect(task.question).not.toContain(secondHop);
      expect(pageText(task, firstHop)).toContain(secondHop);
      expect(mentions(pageText(task, firstHop), task.answer)).toBe(false);
      expect(mentions(pageText(task, secondHop), task.answer)).toBe(true);
      // A Search on each hop's exact title finds its page.
      const episode = qaEnvironment.startEpisode(task);
      for (const title of [firstHop, secondHop]) {
        const { observation } = episode.step(qaEnvironment.parseAction(`Search[${title}]`));
        expect(observation).toBe(pageText(task, title));
      }
    },
  );

  it("parseQaTask rejects a supporting title that names no paragraph", () => {
    const broken = { ...builtinQaTasks[0]!, supportingTitles: ["Nowhere"] };
    expect(() => parseQaTask(broken)).toThrow(/supportingTitles\.0: supporting title "Nowhere" is not the title of any paragraph/);
  });
});
