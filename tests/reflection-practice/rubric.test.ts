import { describe, expect, it } from "vitest";
import { assessReflection, mistakeCandidates, MAX_WORDS, PRACTICE_MAX_CHARS, practiceCharCount } from "@/components/reflection-practice/rubric";
import { foldRun, type TrialView } from "@/lib/domain/fold-run";
import { keyFactsResponseSchema } from "@/lib/domain/key-facts";
import { MemoryRunStore } from "@/lib/db/memory-store";
import { householdDemoScriptBook } from "@/lib/environments/household";
import { qaDemoScriptBook } from "@/lib/environments/qa";
import { keyFactsFor, reflectionHelps } from "@/lib/environments/demo-key-facts";
import { createModelPort } from "@/lib/llm/model-port";
import { createServerContext } from "@/lib/server/app-context";
import { GET } from "@/app/api/key-facts/route";
import { demoMockModel } from "../helpers/mock-model";
import { CORRECT_PARAPHRASES } from "../demo/paraphrases";

/** Trial 1 of a demo run (it fails), as the UI folds it. */
async function failedTrial(environment: "qa" | "household", taskId: string): Promise<TrialView> {
  const mock = demoMockModel([qaDemoScriptBook, householdDemoScriptBook]);
  const context = createServerContext({ store: new MemoryRunStore(), model: createModelPort({ resolveModel: () => mock, maxRetries: 0 }) });
  const run = await context.service.createRun({ environment, taskSet: "builtin", taskId, strategy: "reflexion", modelId: "demo", maxTrials: 2 });
  await context.workers.untilSettled(run.rootBranchId);
  const trial = foldRun((await context.service.events(run.id)).events).trials[0];
  if (!trial) throw new Error("no trial");
  return trial;
}

describe("the write-your-own-reflection rubric", () => {
  it("QA: names the wrong answer, says what instead, fits memory, and would help exactly when reflectionHelps says so", async () => {
    const trial = await failedTrial("qa", "qa-builtin-01");
    expect(mistakeCandidates(trial)).toContain("Dunmere");
    const facts = keyFactsFor({ environment: "qa", taskId: "qa-builtin-01" });
    const good = CORRECT_PARAPHRASES["qa-builtin-01"]!;
    const rubric = assessReflection(good, trial, facts);
    expect(rubric.namesMistake).toMatchObject({ ok: true, mentioned: ["Dunmere"] });
    expect(rubric.saysInstead.ok).toBe(true);
    expect(rubric.length.ok).toBe(true);
    expect(rubric.helps).toEqual(reflectionHelps({ environment: "qa", taskId: "qa-builtin-01" }, good));
    expect(rubric.helps.helps).toBe(true);

    const vague = assessReflection("I should be more careful.", trial, facts);
    expect(vague.namesMistake.ok).toBe(false);
    expect(vague.saysInstead.ok).toBe(false);
    expect(vague.length.ok).toBe(false);
    expect(vague.helps).toMatchObject({ known: true, helps: false, missing: ["search-next", "answer-type"] });

    // Names the mistake and a plan, but not the fact the demo needs: helps says no, and why.
    const halfway = assessReflection("I answered Dunmere, which was wrong. Next time I should search the town's page and read it again before I answer.", trial, facts);
    expect(halfway.namesMistake.ok).toBe(true);
    expect(halfway.saysInstead.ok).toBe(true);
    expect(halfway.helps).toMatchObject({ helps: false, matched: ["search-next"], missing: ["answer-type"] });

    const long = assessReflection(`${"Dunmere river ".repeat(MAX_WORDS)}`, trial, facts);
    expect(long.length).toMatchObject({ ok: false, words: 2 * MAX_WORDS });
  }, 30_000);

  it("household: the looped action is a mistake candidate", async () => {
    const trial = await failedTrial("household", "household-builtin-01");
    expect(mistakeCandidates(trial)).toContain("use desklamp 1");
    const rubric = assessReflection("I kept trying to use desklamp 1 at the sidetable. Go to the lamp first: it is on desk 1.", trial, keyFactsFor({ environment: "household", taskId: "household-builtin-01" }));
    expect(rubric.namesMistake.ok).toBe(true);
    expect(rubric.helps.helps).toBe(true);
  }, 30_000);

  it("names the mistake only when the text says it: a scattered plan that reuses its words is no mention", async () => {
    const trial = await failedTrial("qa", "qa-builtin-02");
    expect(mistakeCandidates(trial)).toContain("Search[Port Averly explorer ship]");
    const facts = keyFactsFor({ environment: "qa", taskId: "qa-builtin-02" });
    // Every word of the looped search, but as a plan about other searches: not the mistake.
    const plan = assessReflection("Next time I should search the exact title Port Averly first, then search that explorer to find his ship.", trial, facts);
    expect(plan.namesMistake.mentioned).toEqual([]);
    expect(plan.namesMistake.ok).toBe(false);
    // The search itself, with or without its Search[…] wrapper: a mention.
    const bare = assessReflection("I kept searching Port Averly explorer ship, a page that does not exist. I should search Port Averly instead.", trial, facts);
    expect(bare.namesMistake.mentioned).toEqual(["Port Averly explorer ship"]);
    const wrapped = assessReflection("I looped on Search[Port Averly explorer ship]. I should search Port Averly instead.", trial, facts);
    expect(wrapped.namesMistake.ok).toBe(true);
  }, 30_000);

  it("a task without key facts: not known, never helps", async () => {
    const trial = await failedTrial("qa", "qa-builtin-01");
    expect(assessReflection("Search Dunmere for the river.", trial, null).helps).toEqual({ known: false, facts: [], helps: false, matched: [], missing: [] });
  }, 30_000);
});

describe("the practice box's counter", () => {
  it("counts characters against the limit and says when it is reached", () => {
    expect(PRACTICE_MAX_CHARS).toBe(2000);
    expect(practiceCharCount(0)).toBe("0 / 2,000 characters");
    expect(practiceCharCount(1234)).toBe("1,234 / 2,000 characters");
    expect(practiceCharCount(2000)).toBe("2,000 / 2,000 characters (the limit)");
  });
});

describe("GET /api/key-facts", () => {
  it("serves a built-in task's facts (the CoT ones for cot strategies), known: false for others, 400 for a bad family", async () => {
    const react = keyFactsResponseSchema.parse(await (await GET(new Request("http://x/api/key-facts?environment=qa&taskId=qa-builtin-02"))).json());
    expect(react.facts.map((fact) => fact.id)).toEqual(["search-next", "exact-title"]);
    const cot = keyFactsResponseSchema.parse(await (await GET(new Request("http://x/api/key-facts?environment=qa&taskId=qa-builtin-02&strategy=cot"))).json());
    expect(cot.facts.map((fact) => fact.id)).toEqual(["wording", "name-only"]);
    const unknown = keyFactsResponseSchema.parse(await (await GET(new Request("http://x/api/key-facts?environment=code&taskId=HumanEval/0"))).json());
    expect(unknown).toEqual({ known: false, facts: [] });
    expect((await GET(new Request("http://x/api/key-facts?environment=chess&taskId=x"))).status).toBe(400);
  });
});

describe("says what to do instead", () => {
  it("is no plan for 'think harder before answering', and a plan for a search with its object", async () => {
    const trial = await failedTrial("qa", "qa-builtin-01");
    const facts = keyFactsFor({ environment: "qa", taskId: "qa-builtin-01" });
    const vague = assessReflection("I answered Dunmere, which was wrong. Next time I should think harder before answering.", trial, facts);
    expect(vague.namesMistake.ok).toBe(true);
    expect(vague.saysInstead).toEqual({ ok: false, action: null });
    const plan = assessReflection("I answered Dunmere, which was wrong. Next time I should look up the river of the town before answering.", trial, facts);
    expect(plan.saysInstead).toEqual({ ok: true, action: "look river" });
  }, 30_000);
});
