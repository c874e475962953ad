import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { MemoryRunStore } from "@/lib/db/memory-store";
import { MemoryTemplateStore } from "@/lib/db/memory-templates";
import { lineageResponseSchema } from "@/lib/domain/template-lineage";
import { codeDemoScriptBook } from "@/lib/environments/code/demo-script";
import { demoOptimiserBook } from "@/lib/environments/demo-optimiser-book";
import { householdDemoScriptBook } from "@/lib/environments/household/demo-script";
import { qaDemoScriptBook } from "@/lib/environments/qa/demo-script";
import { createModelPort } from "@/lib/llm/model-port";
import { createServerContext, type ServerContext, type ServerContextOptions } from "@/lib/server/app-context";
import { inProcessDriver } from "@/lib/server/optimiser/experiment-driver";
import { templateLineage } from "@/lib/server/optimiser/lineage";

const books = [demoOptimiserBook, codeDemoScriptBook, qaDemoScriptBook, householdDemoScriptBook];
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "optimiser-"));
const contexts: ServerContext[] = [];
afterAll(async () => {
  for (const context of contexts) await context.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function demo(options: ServerContextOptions = {}): ServerContext {
  const context = createServerContext({ model: createModelPort({ demoScriptBooks: books }), startWorkers: false, ...options });
  contexts.push(context);
  return context;
}

/** A finished source experiment: QA built-in, one reflexion arm on the demo model. */
async function source(context: ServerContext, maxTrials: number): Promise<string> {
  const record = await context.experiments.start({ name: "source", environment: "qa", taskSet: "builtin", maxTrials, arms: [{ label: "reflexion", strategy: "reflexion", modelId: "demo" }] }, { start: false });
  await inProcessDriver(context)(record.id);
  return record.id;
}

describe("the reflective optimiser on the demo model", () => {
  it("two rounds: candidates saved with their parents in a new template, train success rises, the front is tested on held-out tasks", async () => {
    const context = demo({ store: new MemoryRunStore(), templates: new MemoryTemplateStore() });
    const experimentId = await source(context, 1);
    const started = Date.now();
    const created = await context.optimiser.create({ experimentId, role: "actor", rounds: 2, candidatesPerRound: 2, failuresPerProposal: 3, trainFraction: 0.7, seed: 3 });
    const record = await context.optimiser.run(created.id, inProcessDriver(context));
    const elapsed = Date.now() - started;
    expect(record.status, record.detail ?? "").toBe("done");
    expect(record.split.train).toHaveLength(8);
    expect(record.split.heldOut).toHaveLength(4);

    const builtIn = await context.templates.resolve("qa/react-actor");
    const [start, ...candidates] = record.candidates;
    expect(start).toMatchObject({ key: "0:0", versionId: builtIn.version.id, train: { rate: 0 } });
    expect(candidates.map((c) => c.key)).toEqual(["1:0", "1:1", "2:0", "2:1"]);
    for (const candidate of candidates) {
      expect(candidate.status, candidate.error ?? "").toBe("evaluated");
      expect(candidate.failuresRead.length).toBeGreaterThan(0);
      expect(candidate.train).not.toBeNull();
      expect(candidate.tokens).toBeGreaterThan(0);
    }
    // Round 1 mutates the built-in; round 2 mutates round-1 candidates. None is a version of the built-in.
    expect(candidates.filter((c) => c.round === 1).every((c) => c.parentId === builtIn.version.id)).toBe(true);
    const roundOne = new Set(candidates.filter((c) => c.round === 1).map((c) => c.versionId));
    expect(candidates.filter((c) => c.round === 2).every((c) => roundOne.has(c.parentId))).toBe(true);
    expect((await context.templates.detail("qa/react-actor")).versions).toHaveLength(1);
    const target = await context.templates.detail(record.request.targetTemplateId);
    expect(target.template.builtIn).toBe(false);
    expect(target.versions.find((v) => v.number === 1)?.parentId).toBe(builtIn.version.id);

    const best = (round: number) => Math.max(...candidates.filter((c) => c.round === round).map((c) => c.train!.rate));
    expect(best(1)).toBeGreaterThan(start!.train!.rate);
    expect(best(2)).toBeGreaterThan(best(1));

    const tested = candidates.filter((c) => c.pVsParent !== null);
    expect(tested.length).toBeGreaterThan(0);
    for (const candidate of tested) {
      expect(candidate.onFront).toBe(true);
      expect(candidate.pVsParent).toBeGreaterThanOrEqual(0);
      expect(candidate.parentHeldOut).not.toBeNull();
      expect(candidate.heldOut!.n).toBe(4);
      expect(candidate.heldOut!.interval[0]).toBeLessThanOrEqual(candidate.heldOut!.rate);
    }

    const lineage = lineageResponseSchema.parse(await templateLineage(context.templates, context.optimisations, record.request.targetTemplateId));
    expect(lineage.nodes[0]).toMatchObject({ versionId: builtIn.version.id, score: { round: 0, optimisationId: record.id } });
    expect(lineage.nodes.filter((node) => node.score?.train)).toHaveLength(5);
    process.stdout.write(`two-round demo optimisation: ${elapsed} ms; train best ${start!.train!.rate} → ${best(1)} → ${best(2)}; held-out ${tested.map((c) => `${c.heldOut!.rate} vs ${c.parentHeldOut!.rate} p=${c.pVsParent}`).join(", ")}\n`);
  }, 120_000);
});
