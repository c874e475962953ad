import { describe, expect, it } from "vitest";
import { adaptiveStop, reflectionSimilarity } from "@/lib/domain/adaptive-trials";
import { foldRun } from "@/lib/domain/fold-run";
import { MemoryRunStore } from "@/lib/db/memory-store";
import { createModelPort } from "@/lib/llm/model-port";
import { createServerContext } from "@/lib/server/app-context";
import { queuedMockModel } from "../helpers/mock-model";

const lessonA = "I answered without checking the second paragraph. Next time I will search for the director first and then look up the year before answering.";
const lessonA2 = "I answered without checking the second paragraph. Next time I will search for the director first, then look up the year before answering.";
const lessonB = "My search term was too vague, so the store returned the wrong opera; I should search the exact title of the composer's work.";

describe("near-duplicate reflections (Dice over bigrams, string-similarity-js)", () => {
  it("scores a reworded lesson near 1 and a different lesson well below the 0.85 threshold", () => {
    expect(reflectionSimilarity(lessonA, lessonA)).toBe(1);
    expect(reflectionSimilarity(lessonA, lessonA2)).toBeGreaterThan(0.9);
    expect(reflectionSimilarity(lessonA, lessonB)).toBeLessThan(0.6);
  });

  it("stops when the last k reflections all repeat each other, and only then", () => {
    const settings = { repeatWindow: 2, similarityThreshold: 0.85 };
    expect(adaptiveStop(settings, { reflections: [lessonA], spentUsd: 0 })).toBeNull();
    expect(adaptiveStop(settings, { reflections: [lessonB, lessonA], spentUsd: 0 })).toBeNull();
    expect(adaptiveStop(settings, { reflections: [lessonB, lessonA, lessonA2], spentUsd: 0 })?.reason).toBe("reflections-repeat");
    expect(adaptiveStop({ repeatWindow: 3, similarityThreshold: 0.85 }, { reflections: [lessonB, lessonA, lessonA2], spentUsd: 0 })).toBeNull();
  });

  it("stops at a per-task cost ceiling", () => {
    const settings = { taskCostCeilingUsd: 0.01, similarityThreshold: 0.85 };
    expect(adaptiveStop(settings, { reflections: [], spentUsd: 0.009 })).toBeNull();
    expect(adaptiveStop(settings, { reflections: [], spentUsd: 0.01 })).toMatchObject({ reason: "task-cost-ceiling" });
  });
});

describe("adaptive trials in a run", () => {
  it("ends the run before trial 3 when trials 1 and 2 reflect the same lesson, recorded as run-end.stopReason", async () => {
    const wrong = "Thought: I know this.\nAction: Finish[Nobody]";
    // Trial 1's Actor, its reflection, trial 2's Actor, its near-duplicate reflection — and no trial 3.
    const mock = queuedMockModel([wrong, lessonA, wrong, lessonA2]);
    const context = createServerContext({ store: new MemoryRunStore(), model: createModelPort({ resolveModel: () => mock, maxRetries: 0 }) });
    const run = await context.service.createRun({
      environment: "qa",
      taskSet: "builtin",
      taskId: "qa-builtin-01",
      strategy: "reflexion",
      modelId: "demo",
      maxTrials: 5,
      adaptiveTrials: { repeatWindow: 2, similarityThreshold: 0.85 },
    });
    await context.workers.untilSettled(run.rootBranchId);
    const events = (await context.service.events(run.id)).events;
    const state = foldRun(events);
    expect(state.status).toBe("ended");
    expect(state.trials).toHaveLength(2);
    expect(state.outcome).toBe("failure");
    expect(state.stop?.reason).toBe("reflections-repeat");
    const end = events.at(-1);
    expect(end?.type === "run-end" && end.data.stopReason).toBe("reflections-repeat");
    expect(mock.doStreamCalls).toHaveLength(4);
    expect(state.trials.map((trial) => trial.reflection?.text)).toEqual([lessonA, lessonA2]);
    await context.workers.stop();
  });
});
