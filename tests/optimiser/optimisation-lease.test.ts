import { hostname } from "node:os";
import { afterAll, describe, expect, it } from "vitest";
import { MemoryRunStore } from "@/lib/db/memory-store";
import { MemoryTemplateStore } from "@/lib/db/memory-templates";
import { optimisationPhase } from "@/lib/domain/optimiser/types";
import { codeDemoScriptBook } from "@/lib/environments/code/demo-script";
import { demoOptimiserBook } from "@/lib/environments/demo-optimiser-book";
import { householdDemoScriptBook } from "@/lib/environments/household/demo-script";
import { qaDemoScriptBook } from "@/lib/environments/qa/demo-script";
import { createModelPort } from "@/lib/llm/model-port";
import { createServerContext, type ServerContext } from "@/lib/server/app-context";
import { inProcessDriver } from "@/lib/server/optimiser/experiment-driver";
import { OptimiserService } from "@/lib/server/optimiser/optimiser-service";

const books = [demoOptimiserBook, codeDemoScriptBook, qaDemoScriptBook, householdDemoScriptBook];
const contexts: ServerContext[] = [];
afterAll(async () => {
  for (const context of contexts) await context.close();
});

/** A context on memory stores with a finished QA source experiment (four tasks, one trial). */
async function setUp() {
  const context = createServerContext({ model: createModelPort({ demoScriptBooks: books }), startWorkers: false, store: new MemoryRunStore(), templates: new MemoryTemplateStore() });
  contexts.push(context);
  const source = await context.experiments.start({ name: "source", environment: "qa", taskSet: "builtin", taskIds: ["qa-builtin-01", "qa-builtin-02", "qa-builtin-03", "qa-builtin-04"], maxTrials: 1, arms: [{ label: "reflexion", strategy: "reflexion", modelId: "demo" }] }, { start: false });
  await inProcessDriver(context)(source.id);
  /** A second process on the same stores (another lease owner), e.g. the CLI next to the web server. */
  const other = (options: ConstructorParameters<typeof OptimiserService>[1] = {}) =>
    new OptimiserService({ store: context.optimisations, templates: context.templates, experiments: context.experiments, runs: context.service, model: context.engineDeps.model }, { leaseOwner: "other-host:4242:cafe", ...options });
  return { context, sourceId: source.id, other };
}

describe("optimisation leases", () => {
  it("a second process is refused (told the holder and when its lease expires) while the first holds the lease; nothing is run twice", async () => {
    const { context, sourceId, other } = await setUp();
    const created = await context.optimiser.create({ experimentId: sourceId, role: "actor", rounds: 1, candidatesPerRound: 1, trainFraction: 0.5 });
    expect(created.lease?.owner).toBe(context.optimiser.leaseOwner);
    expect(optimisationPhase(created)).toBe("running");

    const second = other();
    const refusal = second.resume(created.id);
    await expect(refusal).rejects.toMatchObject({ code: "conflict" });
    await expect(refusal).rejects.toThrow(new RegExp(`worked on by ${context.optimiser.leaseOwner}.*lease expires at \\d{4}-\\d\\d-\\d\\dT`));
    await expect(second.run(created.id, inProcessDriver(context))).rejects.toMatchObject({ code: "conflict" });

    const done = await context.optimiser.run(created.id, inProcessDriver(context));
    expect(done.status, done.detail ?? "").toBe("done");
    const stored = await context.optimiser.get(created.id);
    expect(stored.lease ?? null).toBeNull();
    expect(optimisationPhase(stored)).toBe("done");
    const evaluations = (await context.experiments.list(50, { withDerived: true })).filter((experiment) => experiment.name.startsWith(created.id));
    expect(evaluations.length).toBeGreaterThanOrEqual(2);
    expect(new Set(evaluations.map((experiment) => experiment.name)).size).toBe(evaluations.length);
  }, 60_000);

  it("an optimisation whose holder stopped renewing reads as interrupted, and another process may then resume it", async () => {
    const { context, sourceId, other } = await setUp();
    const crashed = other({ leaseTtlMs: 30, leaseRenewMs: 60_000 });
    const created = await crashed.create({ experimentId: sourceId, role: "actor", rounds: 1, candidatesPerRound: 1, trainFraction: 0.5 });
    await expect(context.optimiser.resume(created.id)).rejects.toMatchObject({ code: "conflict" });
    await new Promise((resolve) => setTimeout(resolve, 60));
    const stale = await context.optimiser.get(created.id);
    expect(stale.status).toBe("running");
    expect(optimisationPhase(stale)).toBe("interrupted");

    const resumed = await context.optimiser.resume(created.id);
    expect(resumed.lease?.owner).toBe(context.optimiser.leaseOwner);
    const done = await context.optimiser.run(created.id, inProcessDriver(context));
    expect(done.status, done.detail ?? "").toBe("done");
    await crashed.releaseAll();
  }, 60_000);

  it("a holder on this host whose process is gone (killed with -9) is taken over at once, as runs do", async () => {
    const { context, sourceId, other } = await setUp();
    const killed = other({ leaseOwner: `${hostname()}:2147483:dead`, leaseTtlMs: 60_000, leaseRenewMs: 60_000 });
    const created = await killed.create({ experimentId: sourceId, role: "actor", rounds: 1, candidatesPerRound: 1, trainFraction: 0.5 });
    const resumed = await context.optimiser.resume(created.id);
    expect(resumed.lease?.owner).toBe(context.optimiser.leaseOwner);
    await context.optimiser.release(created.id);
    await killed.releaseAll();
  }, 60_000);
});
