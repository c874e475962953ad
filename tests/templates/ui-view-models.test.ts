import { describe, expect, it } from "vitest";
import { pairedExactTest } from "@/lib/domain/paired-test";
import type { TemplateListItem, TemplateVersion } from "@/lib/domain/template-library";
import { armsFromDrafts } from "@/lib/query/experiment-form";
import { abOtherOptions, abProblem } from "@/lib/query/template-ab";
import { baseVersionRef, builtInCounterpart, formatP, groupTemplates, labelsByVersion, pairedTestSentence, pairedTestVerdict, versionTitle } from "@/lib/query/template-library-view";
import { templateVersionsRequest, versionOptions } from "@/lib/query/template-picker";
import { placeholderSpans, unknownVariableMarkers, usedVariables, variableCompletionAt } from "@/lib/query/template-variables";

/** The template workbench's view models: variables, library grouping, labels, pickers, A/B choices and the paired-test line. */

const version = (id: string, number: number, parentId: string | null = null, text = `text ${id}`): TemplateVersion => ({
  id,
  templateId: "t",
  number,
  parentId,
  text,
  message: "",
  createdAt: "2026-12-01T12:00:00.000Z",
  builtIn: false,
});

const item = (overrides: Partial<TemplateListItem> & Pick<TemplateListItem, "id">): TemplateListItem => ({
  name: overrides.id,
  family: "qa",
  role: "reflector",
  strategy: null,
  builtIn: false,
  source: null,
  labels: {},
  createdAt: "2026-12-01T12:00:00.000Z",
  latestVersion: version(`tv-${overrides.id}`, 1),
  versionCount: 1,
  ...overrides,
});

describe("template variables", () => {
  const known = ["feedback", "memory", "question", "scratchpad"];

  it("finds every {name} with its UTF-16 offsets and whether the role fills it", () => {
    const text = "Q: {question}\n— {memroy} and {question}{ not a slot }";
    const spans = placeholderSpans(text, known);
    expect(spans.map((span) => [span.name, span.known, text.slice(span.start, span.end)])).toEqual([
      ["question", true, "{question}"],
      ["memroy", false, "{memroy}"],
      ["question", true, "{question}"],
    ]);
  });

  it("marks each unknown occurrence, suggesting the name a typo was meant to be (the Steer tab's check)", () => {
    const markers = unknownVariableMarkers("{memroy} {hidden_tests} {memory}", known);
    expect(markers).toHaveLength(2);
    expect(markers[0]).toMatchObject({ start: 0, end: 8, meant: "memory" });
    expect(markers[0]!.message).toBe("{memroy} is not a placeholder this role fills: it will be sent to the model as literal text. Did you mean {memory}?");
    expect(markers[1]!.meant).toBeNull();
    expect(markers[1]!.message).toContain("Known: {feedback}, {memory}, {question}, {scratchpad}.");
    // While the names are not loaded nothing is called unknown.
    expect(unknownVariableMarkers("{memroy}", [])).toEqual([]);
  });

  it("completes the role's names after a typed {, case-insensitively, knowing whether } follows", () => {
    const text = "Reflect on {scr} and {";
    expect(variableCompletionAt(text, "Reflect on {scr".length, known)).toEqual({ from: "Reflect on {".length, prefix: "scr", names: ["scratchpad"], closed: true });
    expect(variableCompletionAt(text, text.length, known)?.names).toEqual(known);
    expect(variableCompletionAt("{SCR", 4, known)?.names).toEqual(["scratchpad"]);
    expect(variableCompletionAt("no brace here", 5, known)).toBeNull();
    expect(variableCompletionAt("{zzz", 4, known)).toBeNull();
  });

  it("lists the known names a text uses once each, in order of first use", () => {
    expect(usedVariables("{scratchpad} {feedback} {scratchpad} {oops}", known)).toEqual(["scratchpad", "feedback"]);
  });
});

describe("library view", () => {
  it("groups by family × role × strategy: QA before household before code, Actor before Self-Reflection, built-ins first", () => {
    const groups = groupTemplates([
      item({ id: "code-r", family: "code", role: "reflector" }),
      item({ id: "mine", name: "A mine" }),
      item({ id: "qa/reflect", name: "Z built-in", builtIn: true }),
      item({ id: "qa/react-actor", role: "actor", builtIn: true }),
      item({ id: "qa/cot-reflect", strategy: "cot", builtIn: true }),
      item({ id: "hh", family: "household", role: "actor" }),
    ]);
    expect(groups.map((group) => group.key)).toEqual(["qa/actor/*", "qa/reflector/*", "qa/reflector/cot", "household/actor/*", "code/reflector/*"]);
    expect(groups[1]!.templates.map((template) => template.id)).toEqual(["qa/reflect", "mine"]);
  });

  it("names versions by number, labels and latest", () => {
    const template = { labels: { candidate: "tv-2", baseline: "tv-1", best: "tv-2" } };
    expect(labelsByVersion(template).get("tv-2")).toEqual(["best", "candidate"]);
    expect(versionTitle({ id: "tv-2", number: 2 }, template, 2)).toBe("v2 · best, candidate, latest");
    expect(versionTitle({ id: "tv-3", number: 3 }, template, 4)).toBe("v3");
  });

  it("diffs against the built-in a template was made from, else its own first version", () => {
    // Made from a built-in: its first version's parent is outside the template.
    expect(baseVersionRef({ builtIn: false }, [version("tv-b", 2, "tv-a"), version("tv-a", 1, "tv-builtin")])).toBe("tv-builtin");
    expect(baseVersionRef({ builtIn: true }, [version("tv-2", 2, "tv-1"), version("tv-1", 1)])).toBe("tv-1");
    expect(baseVersionRef({ builtIn: false }, [version("tv-1", 1)])).toBeNull();
    expect(baseVersionRef({ builtIn: false }, [])).toBeNull();
  });
});

describe("the built-in a template stands beside", () => {
  it("is the built-in of the same family × role × strategy, else of any strategy; none for a built-in", () => {
    const items = [
      item({ id: "qa/reflect", builtIn: true }),
      item({ id: "qa/cot-reflect", builtIn: true, strategy: "cot" }),
      item({ id: "qa/react-actor", builtIn: true, role: "actor" }),
      item({ id: "hh/reflect", builtIn: true, family: "household" }),
      item({ id: "mine" }),
    ];
    expect(builtInCounterpart(items, { id: "mine", family: "qa", role: "reflector", strategy: null, builtIn: false })?.id).toBe("qa/reflect");
    expect(builtInCounterpart(items, { id: "mine-cot", family: "qa", role: "reflector", strategy: "cot", builtIn: false })?.id).toBe("qa/cot-reflect");
    expect(builtInCounterpart(items, { id: "mine-l", family: "qa", role: "reflector", strategy: "last-attempt", builtIn: false })?.id).toBe("qa/reflect");
    expect(builtInCounterpart(items, { id: "qa/reflect", family: "qa", role: "reflector", strategy: null, builtIn: true })).toBeNull();
    expect(builtInCounterpart(items, { id: "c", family: "code", role: "reflector", strategy: null, builtIn: false })).toBeNull();
  });
});

describe("the paired-test line", () => {
  it("gives the sample size, the discordant counts and the p-value, and reads a small difference as no evidence", () => {
    // 12 tasks, 3 solved by A only, 1 by B only: exact McNemar p = 0.625.
    const test = pairedExactTest(12, 3, 1);
    expect(pairedTestSentence(test)).toBe(
      "n = 12 tasks, 3 vs 1 discordant (solved by A only vs B only), p = 0.63: no evidence of a difference (too few tasks differ to tell; run more tasks)",
    );
    // A one-task difference is never a win.
    expect(pairedTestVerdict(pairedExactTest(3, 0, 1))).toMatch(/^no evidence of a difference/);
  });

  it("calls a difference evidence only below 5 %, naming the arm that solves more", () => {
    const test = pairedExactTest(20, 0, 6);
    expect(test.pValue).toBeCloseTo(0.03125, 6);
    expect(pairedTestVerdict(test, { a: "baseline", b: "candidate" })).toBe("evidence that candidate solves more tasks (at the 5% level)");
    expect(pairedTestVerdict(pairedExactTest(20, 8, 2))).toBe("no evidence of a difference");
    expect(pairedTestVerdict(pairedExactTest(5, 0, 0))).toBe("the arms solved the same tasks; no difference to test");
    expect(pairedTestVerdict(pairedExactTest(0, 0, 0))).toBe("no task has ended in both arms yet");
  });

  it("formats p-values in two significant digits", () => {
    expect(formatP(0.625)).toBe("0.63");
    expect(formatP(0.0385742)).toBe("0.039");
    expect(formatP(1)).toBe("1");
    expect(formatP(0.0001)).toBe("< 0.001");
  });
});

describe("template version pickers", () => {
  const library = [
    item({ id: "qa/reflect", name: "HotpotQA reflector", builtIn: true }),
    item({ id: "mine", name: "Concrete plan", latestVersion: version("tv-m3", 3), labels: { baseline: "tv-m1", candidate: "tv-m3" } }),
    item({ id: "cot-only", name: "CoT reflector", strategy: "cot" }),
    item({ id: "actor", role: "actor" }),
    item({ id: "hh", family: "household" }),
  ];

  it("offers the family × role templates that fit the strategy, as version ids (latest and each label)", () => {
    const options = versionOptions(library, "qa", "reflector", "reflexion");
    expect(options.map((option) => [option.versionId, option.label])).toEqual([
      ["tv-qa/reflect", "HotpotQA reflector (built-in) — v1 (latest)"],
      ["tv-m3", "Concrete plan — v3 (latest, candidate)"],
      ["tv-m1", "Concrete plan — (baseline)"],
    ]);
    expect(versionOptions(library, "qa", "reflector", "cot").map((option) => option.templateId)).toContain("cot-only");
  });

  it("sends only the roles a version was picked for, nothing when none was", () => {
    expect(templateVersionsRequest({ actor: "", reflector: "tv-m3" })).toEqual({ reflector: "tv-m3" });
    expect(templateVersionsRequest({})).toBeUndefined();
  });

  it("puts an arm's picked versions into its request", () => {
    const built = armsFromDrafts(
      [
        { label: "A", strategy: "reflexion", modelId: null, memoryWindow: "", templates: { reflector: "tv-m1" } },
        { label: "B", strategy: "reflexion", modelId: null, memoryWindow: "" },
      ],
      "demo",
      undefined,
    );
    expect(built.problem).toBeNull();
    expect(built.arms[0]).toMatchObject({ label: "A", templateVersions: { reflector: "tv-m1" } });
    expect(built.arms[1]).not.toHaveProperty("templateVersions");
  });
});

describe("Compare versions (A/B) form", () => {
  const versions = [version("tv-2", 2, "tv-1"), version("tv-1", 1, "tv-builtin")];
  const base = {
    template: { ...item({ id: "qa/reflect", name: "HotpotQA reflector", builtIn: true }) },
    version: { ...version("tv-builtin", 1), builtIn: true },
  };

  it("offers the built-in it was made from first, then its other versions, then other templates; never the current one", () => {
    const options = abOtherOptions({
      template: { id: "mine", name: "Mine" },
      versions,
      current: { id: "tv-2" },
      base,
      library: [item({ id: "mine" }), item({ id: "qa/reflect", builtIn: true, latestVersion: version("tv-builtin", 1) }), item({ id: "other", name: "Other" })],
    });
    expect(options.map((option) => option.versionId)).toEqual(["tv-builtin", "tv-1", "tv-other"]);
    expect(options[0]).toMatchObject({ label: "Built-in: HotpotQA reflector v1", short: "HotpotQA reflector v1" });
  });

  it("offers other templates' labelled versions as well as their newest", () => {
    const options = abOtherOptions({
      template: { id: "mine", name: "Mine" },
      versions,
      current: { id: "tv-2" },
      base: null,
      library: [item({ id: "other", name: "Other", labels: { vague: "tv-other-1", accepted: "tv-other" } })],
    });
    expect(options.map((option) => [option.versionId, option.label])).toEqual([
      ["tv-1", "This template: v1"],
      ["tv-other", "Other template: Other v1"],
      ["tv-other-1", "Other template: Other @vague"],
    ]);
  });

  it("says what to do before it can start", () => {
    const ok = { other: "tv-1", current: "tv-2", dirty: false, taskCount: 3, trials: 3, modelId: "demo" };
    expect(abProblem(ok)).toBeNull();
    expect(abProblem({ ...ok, dirty: true })).toMatch(/save them as a version first/);
    expect(abProblem({ ...ok, other: "tv-2" })).toMatch(/same version/);
    expect(abProblem({ ...ok, taskCount: 0 })).toBe("Tick at least one task.");
    expect(abProblem({ ...ok, trials: 0 })).toMatch(/whole number from 1 to 50/);
  });
});
