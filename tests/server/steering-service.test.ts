import { describe, expect, it } from "vitest";
import { foldRun } from "@/lib/domain/fold-run";
import { MemoryRunStore } from "@/lib/db/memory-store";
import { qaDemoScriptBook } from "@/lib/environments/qa";
import { createModelPort } from "@/lib/llm/model-port";
import { createServerContext } from "@/lib/server/app-context";
import { demoMockModel } from "../helpers/mock-model";

function setup() {
  const mock = demoMockModel([qaDemoScriptBook]);
  const context = createServerContext({ store: new MemoryRunStore(), model: createModelPort({ resolveModel: () => mock, maxRetries: 0 }) });
  return { context, mock };
}

async function pausedBeforeFirstCall(context: ReturnType<typeof setup>["context"]) {
  const run = await context.service.createRun({
    environment: "qa",
    taskSet: "builtin",
    taskId: "qa-builtin-01",
    strategy: "reflexion",
    modelId: "demo",
    breakpoints: { beforeModelCall: { actor: true } },
  });
  await context.workers.untilSettled(run.rootBranchId);
  return run;
}

const stateOf = async (context: ReturnType<typeof setup>["context"], runId: string) => foldRun((await context.service.events(runId)).events);

describe("steering through the run service", () => {
  it("records prompt, model and action edits with old and new values, and skips edits that change nothing", async () => {
    const { context } = setup();
    const run = await pausedBeforeFirstCall(context);
    const before = await stateOf(context, run.id);
    await context.service.edit(run.id, { kind: "prompt", role: "actor", text: `${before.config!.templates.actor.text}\nBe brief.` });
    await context.service.edit(run.id, { kind: "model", role: "reflector", temperature: 0.3 });
    await context.service.edit(run.id, { kind: "model", role: "reflector", temperature: 0.3 }); // no change: no event
    await context.service.edit(run.id, { kind: "action", text: "Search[Dunmere]", note: "skip the first hop" });
    const events = (await context.service.events(run.id)).events;
    const edits = events.filter((e) => ["prompt-edit", "settings-edit", "action-edit"].includes(e.type));
    expect(edits.map((e) => e.type)).toEqual(["prompt-edit", "settings-edit", "action-edit"]);
    expect(edits[0]).toMatchObject({ data: { role: "actor", oldTemplate: { version: 1 }, newTemplate: { version: 2 } } });
    expect(edits[1]).toMatchObject({ data: { target: "model", role: "reflector", oldValue: { temperature: 0 }, newValue: { temperature: 0.3 } } });
    expect(edits[2]).toMatchObject({ data: { trial: 1, step: 1, text: "Search[Dunmere]" } });
  });

  it("refuses edits while running and after the end", async () => {
    const { context } = setup();
    const run = await context.service.createRun({ environment: "qa", taskSet: "builtin", taskId: "qa-builtin-01", strategy: "none", modelId: "demo" });
    await context.workers.untilSettled(run.rootBranchId);
    await expect(context.service.edit(run.id, { kind: "action", text: "Finish[x]" })).rejects.toThrow(/only while the run is paused/);
    await expect(context.service.cancel(run.id)).rejects.toThrow(/nothing to cancel/);
  });

  it("Step runs one action and pauses; Cancel ends a paused run as cancelled", async () => {
    const { context, mock } = setup();
    const run = await pausedBeforeFirstCall(context);
    await context.service.resume(run.id, null, { step: true });
    await context.workers.untilSettled(run.rootBranchId);
    let state = await stateOf(context, run.id);
    expect(mock.doStreamCalls).toHaveLength(1);
    expect(state.pause?.reason).toBe("step");
    await context.service.cancel(run.id);
    state = await stateOf(context, run.id);
    expect(state).toMatchObject({ status: "ended", outcome: "cancelled" });
  });
});
