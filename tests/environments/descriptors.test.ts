import { readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { relative, resolve } from "node:path";
import madge from "madge";
import { describe, expect, it } from "vitest";
import { environmentIdSchema } from "@/lib/domain/config";
import { FAMILY_DESCRIPTORS, familyDescriptor, familyIds, findFamilyDescriptor } from "@/lib/environments/descriptors";
import { availableEnvironments, environmentEntry } from "@/lib/environments/registry";
import { strategyHint, strategyLabel, STRATEGY_HINTS, STRATEGY_LABELS } from "@/components/ui/strategy-labels";
import { familyName, metricName } from "@/components/experiments/labels";
import { groupByFamily } from "@/components/imports/importable-files";

const root = resolve(__dirname, "../..");

/** The families shipped today, in family order. Assertions about them hold whatever families are added later. */
const BUILT_IN = ["qa", "household", "code", "open"];
const isBuiltIn = (id: string) => BUILT_IN.includes(id);
const builtIns = () => FAMILY_DESCRIPTORS.filter((descriptor) => isBuiltIn(descriptor.id));
const tsConfig = resolve(root, "tsconfig.json");
const FORBIDDEN_PACKAGES = /^(react|react-dom|next)(\/|$)/;
const IMPORT_SPECIFIER = /(?:from\s+|import\s*\(\s*|require\s*\(\s*|^import\s+)["']([^"']+)["']/gm;

/**
 * What makes `entry` unfit for a client bundle: every file it reaches (madge's graph, type-only
 * imports included) that imports a Node built-in, React or Next, or that is a family's server
 * part (a file of lib/environments/<family>/ other than descriptor.ts and its client/ modules).
 */
async function impurities(entry: string): Promise<string[]> {
  const graph = (await madge(resolve(root, entry), { baseDir: root, fileExtensions: ["ts", "tsx"], tsConfig })).obj();
  const problems: string[] = [];
  for (const file of Object.keys(graph)) {
    const path = relative(root, resolve(root, file));
    if (/^lib\/environments\/[^/]+\/(?!descriptor\.ts$|client\/)/.test(path)) problems.push(`${path}: a family's server part`);
    for (const match of readFileSync(resolve(root, path), "utf8").matchAll(IMPORT_SPECIFIER)) {
      const specifier = match[1]!;
      if (specifier.startsWith("node:") || builtinModules.includes(specifier)) problems.push(`${path}: imports ${specifier}`);
      if (FORBIDDEN_PACKAGES.test(specifier)) problems.push(`${path}: imports ${specifier}`);
    }
  }
  return problems;
}

describe("the family descriptors (client registry)", () => {
  it("reach no Node module, no React or Next and no family server part", async () => {
    expect(await impurities("lib/environments/descriptors.ts")).toEqual([]);
  });

  it("the purity check flags the server registry, which reaches the sandbox and the families' worlds", async () => {
    const problems = await impurities("lib/environments/registry.ts");
    expect(problems.some((problem) => /imports node:/.test(problem))).toBe(true);
    expect(problems.some((problem) => problem.startsWith("lib/environments/qa/") && problem.endsWith("a family's server part"))).toBe(true);
  });

  it("has one descriptor per task family, each under its own id, in family order", () => {
    expect([...familyIds()].sort()).toEqual([...availableEnvironments()].sort());
    for (const id of familyIds()) {
      expect(familyDescriptor(id).id).toBe(id);
      expect(environmentIdSchema.safeParse(id).success).toBe(true);
    }
    // The built-in families keep their order; a family added later may sit anywhere (its `order`).
    expect(familyIds().filter(isBuiltIn)).toEqual(BUILT_IN);
    expect(new Set(FAMILY_DESCRIPTORS.map((d) => d.order)).size).toBe(FAMILY_DESCRIPTORS.length);
  });

  it("throws naming the known families for an unknown id", () => {
    expect(() => familyDescriptor("chess" as never)).toThrow(new RegExp(`Unknown task family "chess"\\. Known: ${familyIds().join(", ")}\\.`));
  });

  it("keeps the names, metrics and flags the UI showed", () => {
    expect(BUILT_IN.map(familyName)).toEqual(["Multi-hop QA (HotpotQA style)", "Household (ALFWorld style)", "Code (HumanEval / MBPP style)", "Open tasks (LLM judge)"]);
    expect(BUILT_IN.map((id) => familyDescriptor(id).shortLabel)).toEqual(["Multi-hop QA", "Household", "Code", "Open tasks"]);
    expect(FAMILY_DESCRIPTORS.every((d) => d.label.startsWith(d.shortLabel) && d.heading.startsWith(d.shortLabel))).toBe(true);
    expect(findFamilyDescriptor("chess")).toBeUndefined();
    expect(BUILT_IN.map(metricName)).toEqual(["EM", "Success", "pass@1", "Judged pass"]);
    expect(builtIns().filter((d) => d.metric.oracle).map((d) => d.id)).toEqual(["qa"]);
    expect(builtIns().filter((d) => d.hiddenTests).map((d) => d.id)).toEqual(["code"]);
    expect(strategyLabel("none", "code")).toBe("Simple (no memory)");
    expect(strategyLabel("none", "qa")).toBe(STRATEGY_LABELS.none);
    expect(strategyHint("reflexion", "code")).toMatch(/Ω = 1 by default/);
    expect(strategyHint("reflexion", "household")).toBe(STRATEGY_HINTS.reflexion);
  });

  it("says how each family's steps read and which paper logs can be forked", () => {
    const ids = (keep: (d: (typeof FAMILY_DESCRIPTORS)[number]) => boolean) => builtIns().filter(keep).map((d) => d.id);
    expect(ids((d) => d.step.actionSyntax === "command")).toEqual(["household"]);
    expect(ids((d) => d.step.thinkIsAction)).toEqual(["household"]);
    expect(ids((d) => d.step.alwaysShowsThought)).toEqual(["qa"]);
    expect(ids((d) => d.step.actionIsCode)).toEqual(["code"]);
    expect(ids((d) => d.paperLogNotForkable === null)).toEqual(["qa"]);
    expect(ids((d) => d.evaluationView === "answer-match")).toEqual(["qa"]);
    expect(ids((d) => d.evaluationView === "tests")).toEqual(["code"]);
  });

  it("orders the paper's logs HotpotQA, ALFWorld, programming", () => {
    const file = (family: "qa" | "household" | "code", path: string) => ({ family, path }) as Parameters<typeof groupByFamily>[0][number];
    const groups = groupByFamily([file("code", "b"), file("qa", "z"), file("household", "h"), file("qa", "a")]);
    expect(groups.map((group) => [group.family, group.files.map((f) => f.path)])).toEqual([
      ["qa", ["a", "z"]],
      ["household", ["h"]],
      ["code", ["b"]],
    ]);
  });
});

describe("the server registry", () => {
  it("builds every entry from its family's descriptor", () => {
    expect([...availableEnvironments()].sort()).toEqual([...familyIds()].sort());
    for (const id of availableEnvironments()) {
      const entry = environmentEntry(id);
      const descriptor = familyDescriptor(id);
      expect(entry.descriptor).toBe(descriptor);
      expect(entry.label).toBe(descriptor.label);
      expect(entry.importFormats).toBe(descriptor.importFormats);
      expect(entry.hiddenTests).toBe(descriptor.hiddenTests);
      expect(entry.family.id).toBe(id);
    }
  });
});
