import { afterAll, describe, expect, it } from "vitest";
import { MemoryRunStore } from "@/lib/db/memory-store";
import { MemoryTemplateStore } from "@/lib/db/memory-templates";
import { codeDemoScriptBook } from "@/lib/environments/code/demo-script";
import { demoOptimiserBook } from "@/lib/environments/demo-optimiser-book";
import { householdDemoScriptBook } from "@/lib/environments/household/demo-script";
import { qaDemoScriptBook } from "@/lib/environments/qa/demo-script";
import { createModelPort } from "@/lib/llm/model-port";
import { createServerContext, type ServerContext } from "@/lib/server/app-context";
import { inProcessDriver } from "@/lib/server/optimiser/experiment-driver";
import { optimiserScoresForTemplate } from "@/lib/server/optimiser/lineage";

const books = [demoOptimiserBook, codeDemoScriptBook, qaDemoScriptBook, householdDemoScriptBook];
const contexts: ServerContext[] = [];
afterAll(async () => {
  for (const context of contexts) await context.close();
});

/** A QA source experiment whose reflector (a saved, non-built-in version) asks only for "a general lesson". */
async function genericReflector() {
  const context = createServerContext({ model: createModelPort({ demoScriptBooks: books }), startWorkers: false, store: new MemoryRunStore(), templates: new MemoryTemplateStore() });
  contexts.push(context);
  const builtIn = await context.templates.resolve("qa/reflect");
  const generic = builtIn.version.text.replace("then write a new, concise, high-level plan that avoids it. Refer to the specific searches or answers that went wrong.", "then state a general lesson.");
  const { version } = await context.templates.create({ name: "general lesson", family: "qa", role: "reflector", strategy: "reflexion", text: generic, parentId: builtIn.version.id });
  const source = await context.experiments.start({ name: "generic reflector", environment: "qa", taskSet: "builtin", maxTrials: 2, arms: [{ label: "generic", strategy: "reflexion", modelId: "demo", templateVersions: { reflector: version.id } }] }, { start: false });
  await inProcessDriver(context)(source.id);
  return { context, sourceId: source.id };
}

describe("optimising the same experiment again", () => {
  it("a proposal equal to a version an earlier optimisation saved is evaluated again (proposedAgain), and every proposal gets a result line", async () => {
    const { context, sourceId } = await genericReflector();
    const request = { experimentId: sourceId, role: "reflector" as const, rounds: 2, candidatesPerRound: 1, failuresPerProposal: 6 };
    const first = await context.optimiser.run((await context.optimiser.create(request)).id, inProcessDriver(context));
    expect(first.status, first.detail ?? "").toBe("done");

    const said: string[] = [];
    const second = await context.optimiser.run((await context.optimiser.create(request)).id, inProcessDriver(context), (message) => said.push(message));
    expect(second.status, second.detail ?? "").toBe("done");
    const proposals = second.candidates.filter((c) => c.round > 0);
    const firstVersions = new Set(first.candidates.map((c) => c.versionId));
    const again = proposals.filter((c) => c.proposedAgain);
    expect(again.length).toBeGreaterThan(0);
    for (const candidate of again) {
      expect(firstVersions.has(candidate.versionId)).toBe(true);
      expect(candidate).toMatchObject({ status: "evaluated", error: null });
      expect(candidate.train).not.toBeNull();
    }
    for (const candidate of proposals) {
      const proposing = said.findIndex((line) => line.startsWith(`[${candidate.key}] proposing`));
      expect(proposing, said.join("\n")).toBeGreaterThanOrEqual(0);
      const result = said.slice(proposing + 1).find((line) => line.startsWith(`[${candidate.key}] `));
      expect(result, said.join("\n")).toMatch(/saved|proposed again|no candidate/);
    }
  }, 120_000);

  it("lineage: a version keeps the score of the optimisation that proposed it, not a later one that started from it", async () => {
    const { context, sourceId } = await genericReflector();
    const first = await context.optimiser.run((await context.optimiser.create({ experimentId: sourceId, role: "reflector", rounds: 1, candidatesPerRound: 1 })).id, inProcessDriver(context));
    const proposed = first.candidates.find((c) => c.round === 1 && c.status === "evaluated")!;
    expect(proposed).toBeDefined();
    const later = await context.optimiser.create({ experimentId: sourceId, role: "reflector", rounds: 1, candidatesPerRound: 1, startVersion: proposed.versionId!, seed: 7 });
    const second = await context.optimiser.run(later.id, inProcessDriver(context));
    expect(second.candidates[0]).toMatchObject({ round: 0, versionId: proposed.versionId });
    expect(second.candidates[0]!.train).not.toBeNull();

    const scores = await optimiserScoresForTemplate(context.optimisations, first.request.targetTemplateId);
    expect(scores.get(proposed.versionId!)).toMatchObject({ optimisationId: first.id, round: 1, pVsParent: proposed.pVsParent, train: proposed.train });
    // The starting version no optimisation proposed keeps the newest round-0 score.
    expect(scores.get(first.request.startVersionId)).toMatchObject({ optimisationId: first.id, round: 0 });
  }, 120_000);
});
