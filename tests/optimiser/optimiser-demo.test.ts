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
import { optimiserScoresForTemplate } from "@/lib/server/optimiser/lineage";
import { templateLineage } from "@/lib/server/template-lineage";

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

    const scores = await optimiserScoresForTemplate(context.optimisations, record.request.targetTemplateId);
    expect(scores.get(builtIn.version.id)).toMatchObject({ round: 0, optimisationId: record.id, train: { rate: 0 } });
    const lineage = lineageResponseSchema.parse(await templateLineage(context.templates, record.request.targetTemplateId, (id) => scores.get(id) ?? null));
    expect(lineage.nodes).toHaveLength(4);
    for (const node of lineage.nodes) {
      const candidate = candidates.find((c) => c.versionId === node.versionId)!;
      expect(node).toMatchObject({ parentId: candidate.parentId, score: { round: candidate.round, train: candidate.train, pVsParent: candidate.pVsParent, onFront: candidate.onFront } });
    }
    // Its evaluation experiments carry the optimisation as their origin: lists show only the source unless asked.
    expect((await context.experiments.list()).map((item) => item.id)).toEqual([experimentId]);
    const all = await context.experiments.list(50, { withDerived: true });
    expect(all.length).toBeGreaterThan(1);
    expect(all.filter((item) => item.id !== experimentId).every((item) => item.origin?.kind === "optimisation" && item.origin.id === record.id)).toBe(true);
    process.stdout.write(`two-round demo optimisation: ${elapsed} ms; train best ${start!.train!.rate} → ${best(1)} → ${best(2)}; held-out ${tested.map((c) => `${c.heldOut!.rate} vs ${c.parentHeldOut!.rate} p=${c.pVsParent}`).join(", ")}\n`);
  }, 120_000);

  it("a small token budget stops at a boundary (budget-spent); after a restart on the same SQLite file, resume finishes the rest", async () => {
    const env = { REFLEXION_DB_PATH: path.join(dir, "budget.sqlite") };
    const first = demo({ env });
    const experimentId = await source(first, 1);
    const created = await first.optimiser.create({ experimentId, role: "actor", rounds: 2, candidatesPerRound: 1, budget: { tokens: 1 }, failuresPerProposal: 4 });
    const stopped = await first.optimiser.run(created.id, inProcessDriver(first));
    expect(stopped.status).toBe("budget-spent");
    expect(stopped.detail).toMatch(/tokens used of 1\b.*resume it with a larger budget/);
    // The page resumes with its button; the stored reason names no CLI command.
    expect(stopped.detail).not.toContain("npm run cli");
    // Stopped at the first boundary after the budget ran out: the starting version was evaluated, nothing proposed.
    expect(stopped.candidates.map((c) => [c.key, c.status])).toEqual([["0:0", "evaluated"]]);
    expect(stopped.spend.tokens).toBeGreaterThan(1);
    await first.close();

    const second = demo({ env });
    expect((await second.optimiser.get(created.id)).status).toBe("budget-spent");
    const again = await second.optimiser.run((await second.optimiser.resume(created.id, { budget: { tokens: stopped.spend.tokens + 1 } })).id, inProcessDriver(second));
    // The new budget allows one more step: the proposal of round 1 (its evaluation would cross it).
    expect(again.status).toBe("budget-spent");
    expect(again.candidates.map((c) => [c.key, c.status])).toEqual([["0:0", "evaluated"], ["1:0", "proposed"]]);
    const done = await second.optimiser.run((await second.optimiser.resume(created.id, { budget: null })).id, inProcessDriver(second));
    expect(done.status, done.detail ?? "").toBe("done");
    expect(done.candidates.map((c) => [c.key, c.status])).toEqual([["0:0", "evaluated"], ["1:0", "evaluated"], ["2:0", "evaluated"]]);
    // Resuming kept what was done: the round-1 candidate is the same version, evaluated once.
    expect(done.candidates[1]!.versionId).toBe(again.candidates[1]!.versionId);
    expect(done.candidates[0]!.trainExperimentId).toBe(stopped.candidates[0]!.trainExperimentId);
  }, 120_000);

  it("a reply with no template is a failed candidate and the optimisation goes on; when every proposal failed it ends no-candidate", async () => {
    const context = demo({ store: new MemoryRunStore(), templates: new MemoryTemplateStore() });
    const experimentId = await source(context, 1);
    const { version: meta } = await context.templates.create({ name: "terse meta-prompt", family: "qa", role: "optimiser", text: "Improve this {role} prompt for {family} tasks:\n{template}\n\nFailures:\n{failures}\n" });
    const created = await context.optimiser.create({ experimentId, role: "actor", rounds: 2, candidatesPerRound: 1, metaPromptVersion: meta.id });
    const record = await context.optimiser.run(created.id, inProcessDriver(context));
    expect(record.status).toBe("no-candidate");
    expect(record.detail).toMatch(/^No new candidate: all 2 proposal\(s\) failed/);
    const proposals = record.candidates.filter((c) => c.round > 0);
    expect(proposals.map((c) => c.key)).toEqual(["1:0", "2:0"]);
    for (const candidate of proposals) {
      expect(candidate).toMatchObject({ status: "failed", versionId: null, train: null });
      expect(candidate.error).toMatch(/no template between <template> and <\/template>/);
      expect(candidate.tokens).toBeGreaterThan(0);
    }
  }, 60_000);

  it("a reflector asking only for a general lesson fails the demo's second trials; optimising it asks for specific reflections: train and held-out success rise", async () => {
    const context = demo({ store: new MemoryRunStore(), templates: new MemoryTemplateStore() });
    const builtIn = await context.templates.resolve("qa/reflect");
    const generic = builtIn.version.text.replace("then write a new, concise, high-level plan that avoids it. Refer to the specific searches or answers that went wrong.", "then state a general lesson.");
    expect(generic).not.toBe(builtIn.version.text);
    const { version } = await context.templates.create({ name: "general lesson", family: "qa", role: "reflector", strategy: "reflexion", text: generic, parentId: builtIn.version.id });
    const record = await context.experiments.start({ name: "generic reflector", environment: "qa", taskSet: "builtin", maxTrials: 2, arms: [{ label: "generic", strategy: "reflexion", modelId: "demo", templateVersions: { reflector: version.id } }] }, { start: false });
    await inProcessDriver(context)(record.id);
    const created = await context.optimiser.create({ experimentId: record.id, role: "reflector", rounds: 2, candidatesPerRound: 1, failuresPerProposal: 6 });
    expect(created.request.startVersionId).toBe(version.id);
    expect(created.request.targetTemplateId).toBe(version.templateId);
    const done = await context.optimiser.run(created.id, inProcessDriver(context));
    expect(done.status, done.detail ?? "").toBe("done");
    const [start, first, second] = done.candidates;
    expect(start!.train!.rate).toBe(0);
    expect(first!.train!.rate).toBeGreaterThan(start!.train!.rate);
    expect(second!.parentId).toBe(first!.versionId);
    expect(second!.train!.rate).toBeGreaterThanOrEqual(first!.train!.rate);
    // Asked for the failing step and the next action, the demo's reflections help the held-out tasks too.
    expect(first!.heldOut!.rate).toBeGreaterThan(first!.parentHeldOut!.rate);
    expect(first!.pVsParent).toBeLessThan(1);
    const tested = done.candidates.filter((c) => c.pVsParent !== null);
    process.stdout.write(`reflector demo optimisation: train ${start!.train!.rate} → ${first!.train!.rate} → ${second!.train!.rate}; held-out ${tested.map((c) => `${c.heldOut!.rate} vs parent ${c.parentHeldOut!.rate}, p=${c.pVsParent}`).join("; ")}\n`);
  }, 120_000);

  it("a process that dies during an evaluation leaves it recorded; resume finishes that same experiment instead of starting another", async () => {
    const context = demo({ store: new MemoryRunStore(), templates: new MemoryTemplateStore() });
    const experimentId = await source(context, 1);
    const created = await context.optimiser.create({ experimentId, role: "actor", rounds: 1, candidatesPerRound: 1 });
    const dying = async () => {
      throw new Error("the process was killed");
    };
    const failed = await context.optimiser.run(created.id, dying);
    expect(failed.status).toBe("failed");
    expect(failed.detail).toBe("the process was killed");
    const trainExperimentId = failed.candidates[0]!.trainExperimentId;
    expect(trainExperimentId).not.toBeNull();
    expect(failed.candidates[0]!.status).toBe("proposed");

    const before = (await context.experiments.list(50, { withDerived: true })).length;
    const done = await context.optimiser.run((await context.optimiser.resume(created.id)).id, inProcessDriver(context));
    expect(done.status, done.detail ?? "").toBe("done");
    expect(done.candidates[0]).toMatchObject({ trainExperimentId, status: "evaluated" });
    // Only the new steps started experiments: round 1's train evaluation and its held-out test.
    expect((await context.experiments.list(50, { withDerived: true })).length).toBe(before + 2);
  }, 60_000);

  it("with repeats, every evaluation runs each task that many times and its interval is the bootstrap over tasks and repetitions", async () => {
    const context = demo({ store: new MemoryRunStore(), templates: new MemoryTemplateStore() });
    const experimentId = await source(context, 1);
    const created = await context.optimiser.create({ experimentId, role: "actor", rounds: 1, candidatesPerRound: 1, repeats: 2 });
    const done = await context.optimiser.run(created.id, inProcessDriver(context));
    expect(done.status, done.detail ?? "").toBe("done");
    const [start, candidate] = done.candidates;
    for (const evaluated of [start!, candidate!]) {
      expect(evaluated.train).toMatchObject({ n: 8, repeats: 2 });
      const summary = await context.experiments.summary(evaluated.trainExperimentId!);
      expect(summary.experiment.definition.repeats).toBe(2);
      expect(summary.arms[0]!.intervalMethod).toBe("bootstrap");
      expect(summary.cells).toHaveLength(16);
      for (const share of Object.values(evaluated.trainByTask!)) expect([0, 0.5, 1]).toContain(share);
    }
    expect(candidate!.heldOut).toMatchObject({ n: 4, repeats: 2 });
  }, 60_000);
});
