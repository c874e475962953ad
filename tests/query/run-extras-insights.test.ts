import { describe, expect, it } from "vitest";
import { runExtrasRequest } from "@/lib/query/run-extras";

describe("the forms' ExpeL insights field", () => {
  it("becomes the request's insights store; empty adds nothing", () => {
    expect(runExtrasRequest({ insightsStore: " insights-qa " })).toEqual({ request: { insights: { store: "insights-qa" } }, problem: null });
    expect(runExtrasRequest({ insightsStore: "" }).request).toEqual({});
  });

  it("names the field when the store name is not one", () => {
    expect(runExtrasRequest({ insightsStore: "no spaces" })).toEqual({ request: {}, problem: "ExpeL insights from: a store name is letters, digits, '.', '_' or '-' (up to 64)." });
  });
});
