import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { foldRun, type RunState } from "@/lib/domain/fold-run";
import { evaluateQa } from "@/lib/environments/qa/exact-match";
import { parseQaTask } from "@/lib/environments/qa/task";
import { qaEvaluationView } from "@/lib/graph/qa-scores";
import { hasHiddenCharacters, revealInvisible, visibleText } from "@/lib/graph/visible-chars";
import { QaEvaluationView } from "@/components/inspector/qa-evaluation-view";
import { twoTrialReflexionRun } from "./fixtures";

// Invisible and confusable characters in answers shown as markers, and F1 next to
// EM in the inspector's QA evaluation view.

describe("revealInvisible (pure)", () => {
  it("marks a zero-width space and keeps the text around it", () => {
    expect(revealInvisible("Sal\u200Blow")).toEqual([
      { kind: "text", text: "Sal" },
      { kind: "mark", char: "\u200B", code: "U+200B", name: "zero-width space", why: "invisible" },
      { kind: "text", text: "low" },
    ]);
    expect(visibleText("Sal\u200Blow")).toBe("Sal⟦U+200B⟧low");
  });

  it("marks no-break and typographic spaces, BOM, bidi controls and soft hyphens", () => {
    expect(visibleText("New\u00A0York\u2009City\uFEFF\u202Ex\u00AD")).toBe("New⟦U+00A0⟧York⟦U+2009⟧City⟦U+FEFF⟧⟦U+202E⟧x⟦U+00AD⟧");
  });

  it("marks Unicode dashes and quotes, which the official normalisation keeps (unlike ASCII - and ')", () => {
    expect(visibleText("1844–1846 ‘x’")).toBe("1844⟦U+2013⟧1846 ⟦U+2018⟧x⟦U+2019⟧");
    expect(hasHiddenCharacters("1844-1846 'x'")).toBe(false);
  });

  it("marks Cyrillic look-alikes in Latin text, but leaves Cyrillic text, accents, CJK and newlines alone", () => {
    // "Pаris" with a Cyrillic а (U+0430).
    expect(visibleText("P\u0430ris")).toBe("P⟦U+0430⟧ris");
    expect(hasHiddenCharacters("Москва")).toBe(false);
    expect(hasHiddenCharacters("Ærøskøbing — no, Ærø")).toBe(true); // the em dash
    expect(hasHiddenCharacters("Ærøskøbing, 東京\nline two\ttab")).toBe(false);
  });

  it("gives the text back when its segments are joined (astral characters whole)", () => {
    const text = "a\u200B😀b\u2060c";
    expect(revealInvisible(text).map((segment) => (segment.kind === "text" ? segment.text : segment.char)).join("")).toBe(text);
  });
});

/** A QA run state whose trial 1 was evaluated by our evaluator against `gold`. */
function qaState(gold: string, answer: string | null): RunState {
  const state = foldRun(twoTrialReflexionRun().log.events);
  const task = parseQaTask({ id: "t", question: "Q?", answer: gold, paragraphs: [{ title: "T", sentences: ["x"] }], supportingTitles: [] });
  const evaluation = evaluateQa(task, answer);
  return {
    ...state,
    config: state.config && { ...state.config, task: { ...state.config.task, answer: gold } },
    trials: state.trials.map((trial) => (trial.trial === 1 && trial.evaluation ? { ...trial, evaluation: { ...trial.evaluation, ...evaluation } } : trial)),
  };
}

describe("the inspector's QA evaluation view", () => {
  it("shows the recorded F1, precision and recall next to EM", () => {
    const view = qaEvaluationView(qaState("Barack Obama", "Obama"), 1);
    expect(view).toMatchObject({ prediction: "Obama", gold: "Barack Obama", em: false, scores: { f1: 2 / 3, precision: 1, recall: 0.5 } });
    const html = renderToStaticMarkup(createElement(QaEvaluationView, { state: qaState("Barack Obama", "Obama"), trial: 1 }));
    expect(html).toContain('data-testid="qa-f1">0.667<');
    expect(html).toContain("1.000 / 0.500");
  });

  it("says so when an evaluation was recorded without F1 (older and imported runs)", () => {
    const state = foldRun(twoTrialReflexionRun().log.events);
    expect(qaEvaluationView(state, 2)).toMatchObject({ em: true, scores: null });
    const html = renderToStaticMarkup(createElement(QaEvaluationView, { state, trial: 2 }));
    expect(html).toContain("recorded without F1");
  });

  it("draws a zero-width space in the answer as a marker", () => {
    const html = renderToStaticMarkup(createElement(QaEvaluationView, { state: qaState("river sallow", "river\u200Bsallow"), trial: 1 }));
    expect(html).toContain('data-testid="hidden-char"');
    expect(html).toContain(">U+200B<");
    expect(html).toContain("zero-width space");
  });

  it("is nothing for other families", () => {
    const state = foldRun(twoTrialReflexionRun().log.events);
    const household = { ...state, config: state.config && { ...state.config, environment: "household" as const } };
    expect(qaEvaluationView(household, 1)).toBeNull();
    expect(renderToStaticMarkup(createElement(QaEvaluationView, { state: household, trial: 1 }))).toBe("");
  });
});
