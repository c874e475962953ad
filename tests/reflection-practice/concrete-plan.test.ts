import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { concreteAction, namesConcreteAction } from "@/components/reflection-practice/concrete-plan";

/** The paper's runs, read in place from ../shared/data/reflexion (never copied; `REFLEXION_DATA_ROOT` names another data root). */
const REFLEXION_DATA = path.resolve(process.env.REFLEXION_DATA_ROOT ?? "../shared/data", "reflexion");

function files(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const full = path.join(dir, name);
      return statSync(full).isDirectory() ? files(full) : [full];
    });
}

/** Every reflection of the paper's runs, by source: ALFWorld/WebShop memories, HotpotQA and programming `reflections[]`. */
function paperReflections(): Map<string, string[]> {
  const found = new Map<string, string[]>();
  const add = (file: string, text: string) => {
    const source = path.relative(REFLEXION_DATA, file).split(path.sep).slice(0, 2).join("/");
    found.set(source, [...(found.get(source) ?? []), text]);
  };
  for (const file of files(REFLEXION_DATA)) {
    const name = path.basename(file);
    if (/^env_results_trial_\d+\.json$/.test(name)) {
      for (const env of JSON.parse(readFileSync(file, "utf8")) as { memory?: string[] }[]) for (const text of env.memory ?? []) add(file, text);
    } else if (name.endsWith(".jsonl")) {
      for (const line of readFileSync(file, "utf8").split("\n")) {
        if (line.trim() === "") continue;
        const row = JSON.parse(line) as { reflections?: unknown };
        if (Array.isArray(row.reflections)) for (const text of row.reflections) if (typeof text === "string") add(file, text);
      }
    }
  }
  return found;
}

describe("a plan names a concrete action", () => {
  it("refuses wishes: think harder, be careful, search more carefully, double-check my answer", () => {
    for (const vague of [
      "Think harder before answering.",
      "I should think harder before answering the question.",
      "Next time I should be more careful and double check my answer before I submit it.",
      "I must try harder and search more carefully.",
      "I will look at things more closely next time.",
      "Make sure to answer correctly; focus on the task and avoid the same mistake.",
      "I should have thought about it more before answering.",
      "Next time I should look for more information.",
      // Concrete, but it recounts the trial: no plan.
      "I answered Dunmere, which was wrong.",
      "I looped on Search[Port Averly explorer ship].",
    ]) {
      expect(concreteAction(vague), vague).toBeNull();
    }
  });

  it("accepts an action in the family's form or a verb with its object", () => {
    expect(concreteAction("Next time, Search[Port Averly] first.")).toBe("Search[Port Averly]");
    expect(concreteAction("I should search the town's page and read it again before I answer.")).toBe("search town");
    expect(concreteAction("Look up the river that flows through Dunmere.")).toBe("look river");
    expect(concreteAction("Check the tests before returning.")).toBe("check test");
    expect(concreteAction("Go to desk 1 first: the lamp is there.")).toBe("go desk");
    expect(concreteAction("The function should handle negative numbers.")).toBe("handl neg");
    expect(namesConcreteAction("I should have searched for the air dates of the episodes instead.")).toBe(true);
  });

  it("counts nearly every real plan of the paper's runs (HotpotQA, ALFWorld, WebShop ≥ 95 %); code reflections that only diagnose are no plan", () => {
    const bySource = paperReflections();
    let total = 0;
    const rates: Record<string, string> = {};
    for (const [source, texts] of bySource) {
      const hits = texts.filter(namesConcreteAction).length;
      total += texts.length;
      rates[source] = `${hits}/${texts.length}`;
      // Many programming reflections only diagnose ("The implementation is incorrect because it sums…"): no plan, rightly.
      const floor = source.includes("programming_runs") ? 0.75 : 0.95;
      expect(hits / texts.length, `${source}: ${hits} of ${texts.length}`).toBeGreaterThanOrEqual(floor);
    }
    expect(total, JSON.stringify(rates)).toBeGreaterThan(5000);
    expect(Object.keys(rates).length).toBeGreaterThanOrEqual(4);
  });
});
