import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { extrasOpenAfter, RunExtrasFields } from "@/components/costs/run-extras-fields";

/** The "Budget, early stop and memory" section must not close while someone types. */
describe("RunExtrasFields disclosure", () => {
  it("stays open when the last field is cleared", () => {
    let open = extrasOpenAfter(false, {});
    expect(open).toBe(false);
    open = extrasOpenAfter(open, { budgetUsd: "0" });
    expect(open).toBe(true);
    // Backspace over the only value: the section stays open.
    open = extrasOpenAfter(open, { budgetUsd: "" });
    expect(open).toBe(true);
    expect(extrasOpenAfter(true, {})).toBe(true);
  });

  it("opens when a field arrives with a value (a preset, a copied arm), closed otherwise", () => {
    const render = (value: Record<string, string>) => renderToStaticMarkup(createElement(RunExtrasFields, { value, onChange: () => undefined, inputClass: "" }));
    expect(render({})).not.toMatch(/<details[^>]* open=""/);
    expect(render({ warmStore: "team-qa" })).toMatch(/<details[^>]* open=""/);
    expect(render({ warmStore: "  " })).not.toMatch(/<details[^>]* open=""/);
  });
});
