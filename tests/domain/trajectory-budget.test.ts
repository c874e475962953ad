import { describe, expect, it } from "vitest";
import type { TrajectoryStep } from "@/lib/domain/environment";
import { OMITTED_OBSERVATION } from "@/lib/domain/context-budget";
import { budgetTokens } from "@/lib/domain/tokenizer";
import { budgetTokensFloor, truncateLongestObservations, type TextMeasure } from "@/lib/domain/trajectory-budget";
import { renderTrajectory as renderQa } from "@/lib/environments/qa/prompts";
import { renderTrajectory as renderHousehold } from "@/lib/environments/household/prompts";
import { loggedSteps } from "../environments/qa/paper-logs";

/**
 * The loop as the reference writes it (and as this module did before it kept the rendering per
 * step): render and measure the whole trajectory, replace the longest observation, again.
 */
function fromScratch(steps: readonly TrajectoryStep[], render: (steps: readonly TrajectoryStep[]) => string, budget: number, placeholder: string, measure: TextMeasure): TrajectoryStep[] {
  const result = steps.map((step) => ({ ...step }));
  while (measure(render(result)) > budget) {
    let longest: TrajectoryStep | null = null;
    for (const step of result) {
      if (step.observation.length > placeholder.length && (longest === null || step.observation.length > longest.observation.length)) longest = step;
    }
    if (longest === null) break;
    longest.observation = placeholder;
  }
  return result;
}

/** The paper's HotpotQA ReAct trajectories (noahshinn/reflexion run logs in ../shared/data): consecutive numbered steps of one file. */
function paperTrajectories(): TrajectoryStep[][] {
  const out: TrajectoryStep[][] = [];
  let current: TrajectoryStep[] = [];
  let file = "";
  for (const logged of loggedSteps()) {
    if (logged.step === null || logged.observation === null) continue;
    if (logged.file !== file || logged.step !== (current.at(-1)?.step ?? 0) + 1) {
      if (current.length > 0) out.push(current);
      current = [];
      file = logged.file;
    }
    current.push({ step: logged.step, thought: logged.thought, actionText: logged.action, observation: logged.observation, state: null });
  }
  if (current.length > 0) out.push(current);
  return out;
}

describe("truncateLongestObservations keeps the from-scratch result", () => {
  const trajectories = paperTrajectories();

  it("on every trajectory of the paper's HotpotQA logs, at the reflection budget and tighter ones (tokens)", () => {
    expect(trajectories.length).toBeGreaterThan(100);
    let shortened = 0;
    for (const steps of trajectories.slice(0, 400)) {
      for (const budget of [1600, 600, 200]) {
        const expected = fromScratch(steps, renderQa, budget, OMITTED_OBSERVATION, budgetTokens);
        expect(truncateLongestObservations(steps, renderQa, budget, OMITTED_OBSERVATION, budgetTokens, budgetTokensFloor)).toEqual(expected);
        if (expected.some((step) => step.observation === OMITTED_OBSERVATION)) shortened += 1;
      }
    }
    // The tight budgets do shorten many of them, so the comparison covers partial truncation.
    expect(shortened).toBeGreaterThan(100);
  });

  it("with the character measure and the household render", () => {
    for (const steps of trajectories.slice(0, 200)) {
      for (const budget of [3000, 800]) {
        expect(truncateLongestObservations(steps, renderHousehold, budget, "[cut]")).toEqual(fromScratch(steps, renderHousehold, budget, "[cut]", (text) => text.length));
      }
    }
  });

  it("when the placeholder renders longer or denser than what it replaces", () => {
    // Whitespace the QA render folds away, and digits that o200k_base counts densely.
    const odd: TrajectoryStep[] = Array.from({ length: 30 }, (_, i) => ({
      step: i + 1,
      thought: `t${i}`,
      actionText: `Search[x${i}]`,
      observation: i % 3 === 0 ? " \n ".repeat(40) : i % 3 === 1 ? "7391 0482 ".repeat(12) : "plain words here ".repeat(8),
      state: null,
    }));
    for (const budget of [50, 300, 600, 900, 1200]) {
      expect(truncateLongestObservations(odd, renderQa, budget, OMITTED_OBSERVATION, budgetTokens, budgetTokensFloor)).toEqual(fromScratch(odd, renderQa, budget, OMITTED_OBSERVATION, budgetTokens));
    }
  });

  it("with a render that is not per step (it takes the whole-trajectory path)", () => {
    const lastOnly = (steps: readonly TrajectoryStep[]) => `${steps.length} steps; last: ${steps.at(-1)?.observation ?? ""}; all: ${steps.map((s) => s.observation).join("|")}`;
    for (const steps of trajectories.slice(0, 50)) {
      expect(truncateLongestObservations(steps, lastOnly, 400, "[cut]", budgetTokens)).toEqual(fromScratch(steps, lastOnly, 400, "[cut]", budgetTokens));
    }
  });

  it("never modifies its input", () => {
    const steps = trajectories[0]!;
    const copy = structuredClone(steps);
    truncateLongestObservations(steps, renderQa, 10, OMITTED_OBSERVATION, budgetTokens, budgetTokensFloor);
    expect(steps).toEqual(copy);
  });

  it("budgetTokensFloor is a lower bound of budgetTokens", () => {
    for (const steps of trajectories.slice(0, 100)) {
      const text = renderQa(steps);
      expect(budgetTokens(text)).toBeGreaterThanOrEqual(budgetTokensFloor(text.length));
    }
  });
});
