import { describe, expect, it } from "vitest";
import { compareRunNames, type CompareNameInput } from "@/lib/graph/compare-names";

const run = (extra: Partial<CompareNameInput> = {}): CompareNameInput => ({
  strategy: "Reflexion",
  modelId: "demo",
  arm: null,
  templates: { actor: { id: "qa/react", version: 1 }, reflector: { id: "qa/reflect", version: 1 } },
  ...extra,
});

describe("compareRunNames", () => {
  it("two arms of an A/B (same strategy, different reflector versions) get their arm labels and template versions, not 'Reflexion' twice", () => {
    const names = compareRunNames([run({ arm: "A" }), run({ arm: "B", templates: { actor: { id: "qa/react", version: 1 }, reflector: { id: "tpl-abc", version: 2 } } })]);
    expect(names).toEqual(["A · Reflexion · reflector qa/reflect v1", "B · Reflexion · reflector tpl-abc v2"]);
    expect(new Set(names).size).toBe(2);
  });

  it("adds the model only when models differ, and numbers names that are still equal", () => {
    expect(compareRunNames([run(), run({ strategy: "ReAct only" })])).toEqual(["Reflexion", "ReAct only"]);
    expect(compareRunNames([run(), run({ modelId: "gpt" })])).toEqual(["Reflexion · demo", "Reflexion · gpt"]);
    expect(compareRunNames([run(), run()])).toEqual(["Reflexion #1", "Reflexion #2"]);
  });
});
