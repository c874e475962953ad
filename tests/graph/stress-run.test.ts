import { describe, expect, it } from "vitest";
import { foldRun } from "@/lib/domain/fold-run";
import { FAMILY_DESCRIPTORS } from "@/lib/environments/descriptors";
import { defaultStressFamily, stressFamilies, stressRunEvents } from "@/lib/graph/stress-run";
import { parseStressParams } from "@/app/stress/stress-params";

/**
 * The stress page's synthetic runs: which families they imitate comes from the descriptors'
 * `stressRun` scripts (lib/environments/<family>/client/stress-run.ts), not from family names.
 */

const withScript = FAMILY_DESCRIPTORS.filter((descriptor) => descriptor.stressRun !== null);
const withoutScript = FAMILY_DESCRIPTORS.filter((descriptor) => descriptor.stressRun === null);

describe("the stress-run generator", () => {
  it("imitates exactly the families with a stress-run script, one of them the page's default", () => {
    expect(stressFamilies()).toEqual(withScript.map((descriptor) => descriptor.id));
    expect(withScript.filter((descriptor) => descriptor.stressRun?.pageDefault).map((descriptor) => descriptor.id)).toEqual([defaultStressFamily()]);
  });

  it.each(withScript.map((descriptor) => descriptor.id))("draws a %s run that folds: failed trials reflected on, the last one solved", (family) => {
    const script = withScript.find((descriptor) => descriptor.id === family)!.stressRun!;
    const events = stressRunEvents({ trials: 3, family });
    const state = foldRun(events);
    expect(state.config?.environment).toBe(family);
    expect(state.config?.taskId).toBe(script.task.id);
    const outcomes = events.filter((event) => event.type === "trial-end").map((event) => (event.data as { outcome: string }).outcome);
    expect(outcomes).toEqual([script.failure.outcome, script.failure.outcome, "success"]);
    expect(events.filter((event) => event.type === "reflection-end")).toHaveLength(2);
    expect(events.filter((event) => event.type === "evaluation-end").every((event) => (event.data as { oracle: boolean }).oracle === script.evaluator.oracle)).toBe(true);
  });

  it.each(withoutScript.map((descriptor) => descriptor.id))("refuses %s, which has no script, naming the families it can imitate", (family) => {
    expect(() => stressRunEvents({ trials: 2, family })).toThrow(new RegExp(`cannot imitate the "${family}" family; it can imitate: ${stressFamilies().join(", ")}`));
  });
});

describe("the stress page's query", () => {
  it("keeps a family the generator imitates and falls back to the default for any other", () => {
    for (const family of stressFamilies()) expect(parseStressParams({ family }).family).toBe(family);
    expect(parseStressParams({}).family).toBe(defaultStressFamily());
    expect(parseStressParams({ family: "chess" }).family).toBe(defaultStressFamily());
    for (const descriptor of withoutScript) expect(parseStressParams({ family: descriptor.id }).family).toBe(defaultStressFamily());
  });

  it("turns the replay mode on with replay=1 only", () => {
    expect(parseStressParams({ trials: "1750", replay: "1" })).toMatchObject({ trials: 1750, replay: true });
    expect(parseStressParams({}).replay).toBe(false);
    expect(parseStressParams({ replay: "yes" }).replay).toBe(false);
  });
});
