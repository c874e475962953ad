import { describe, expect, it } from "vitest";
import { budgetExhausted, budgetPauseDetail, spendText, suggestedBudget } from "@/lib/domain/budget";
import { foldRun } from "@/lib/domain/fold-run";
import { budgetResumeDrafts } from "@/lib/server/budget-resume";
import { makeRunConfig } from "../helpers/run-config";
import { showsLiveDot, trialChipLabel, trialChipState } from "@/components/run/run-messages";

/** A budget-exhausted run must not look as if it were running, and its hints must fit an unpriced model. */
describe("budget-exhausted run messages", () => {
  it("a trial without an outcome on a budget-exhausted run is stopped, not running…; no green live dot", () => {
    expect(trialChipState(null, "budget-exhausted")).toBe("out-of-budget");
    expect(trialChipLabel(trialChipState(null, "budget-exhausted"))).toBe("stopped: out of budget");
    expect(trialChipState(null, "running")).toBe("running");
    expect(showsLiveDot("budget-exhausted")).toBe(false);
    expect(showsLiveDot("paused")).toBe(false);
    expect(showsLiveDot("running")).toBe(true);
  });

  it("the banner's detail does not repeat its headline or the resume instruction", () => {
    const detail = budgetExhausted({ tokens: 500 }, { usd: 0, tokens: 1010 });
    expect(detail).toMatch(/^Budget exhausted: 1,010 tokens used of 500/);
    expect(budgetPauseDetail(detail ?? "")).toBe("1,010 tokens used of 500.");
    expect(budgetPauseDetail("Something else.")).toBe("Something else.");
  });

  it("an unpriced model's spend says cost unknown, and the suggestion is a token budget", () => {
    expect(spendText({ usd: 0, tokens: 1010 }, 3)).toBe("cost unknown, 1,010 tokens");
    expect(spendText({ usd: 0.004, tokens: 1010 }, 1)).toBe("at least $0.004, 1,010 tokens");
    expect(spendText({ usd: 0.004, tokens: 1010 }, 0)).toBe("$0.004, 1,010 tokens");
    expect(suggestedBudget({ tokens: 500 }, { usd: 0, tokens: 1010 }, 3)).toEqual({ tokens: 3000 });
    expect(suggestedBudget({ usd: 0.01 }, { usd: 0, tokens: 1010 }, 3)).toEqual({ tokens: 3000 });
    expect(suggestedBudget({ usd: 0.001 }, { usd: 0.0012, tokens: 1010 }, 0)).toEqual({ usd: 0.01 });
  });

  it("the 409 for a spent token-only budget on an unpriced model suggests a larger token budget, not { usd: 0.01 }", () => {
    const state = foldRun([]);
    state.config = makeRunConfig({ budget: { tokens: 500 } });
    state.spend = { usd: 0, tokens: 1010 };
    state.totals.unpricedCalls = 2;
    expect(() => budgetResumeDrafts(state, true, undefined)).toThrow('The run\'s budget is spent (cost unknown, 1,010 tokens so far): resume with a higher budget (e.g. {"budget":{"tokens":3000}}), or none.');
  });
});
