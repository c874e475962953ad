import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";
import { familyIds } from "@/lib/environments/descriptors";

/**
 * The one-folder-per-family guard (eslint.config.mjs, docs/adding-a-family.md): a comparison with
 * a task family's id fails `npm run lint` everywhere but in the family's own folder
 * (lib/environments/<family>/) and the two registries; tests and e2e may assert ids.
 */

const SAMPLE = [
  "declare const config: { environment: string; strategy: string };",
  'export const qa = config.environment === "qa";',
  'export const notCode = "code" !== config.environment;',
  'export const loose = config.environment == "household";',
  'export function step(environment: string): number { switch (environment) { case "open": return 1; default: return 0; } }',
  'export const other = config.environment === "chess";',
  'export const listed = ["qa", "code"].length;',
  'export const reflexion = config.strategy === "reflexion";',
  "",
].join("\n");
const FAMILY_LINES = [2, 3, 4, 5];
const STRATEGY_LINE = 8;

const eslint = new ESLint({ cwd: process.cwd() });

async function messages(filePath: string) {
  const [result] = await eslint.lintText(SAMPLE, { filePath });
  const all = result?.messages ?? [];
  return {
    family: all.filter((message) => message.message.startsWith("A task family's id is compared only in its own folder")).map((message) => message.line),
    strategy: all.filter((message) => message.message.startsWith("Strategy behaviour is not re-implemented here")).map((message) => message.line),
  };
}

describe("the family-literal guard (eslint.config.mjs)", () => {
  it.each([
    "components/sample.tsx",
    "lib/graph/sample.ts",
    "lib/domain/sample.ts",
    "lib/server/sample.ts",
    "lib/query/sample.ts",
    "lib/environments/sample.ts",
    "lib/methods/sample/descriptor.ts",
    "app/sample/page.tsx",
    "bin/sample.ts",
    "scripts/sample.mjs",
    "bench/sample.bench.ts",
  ])("flags each comparison with a family's id in %s", async (filePath) => {
    expect((await messages(filePath)).family).toEqual(FAMILY_LINES);
  });

  it.each(["lib/environments/qa/sample.ts", "lib/environments/household/client/sample.ts", "lib/environments/descriptors.ts", "lib/environments/registry.ts", "tests/sample.test.ts", "e2e/sample.spec.ts"])(
    "accepts them in %s (a family's folder, a registry, tests)",
    async (filePath) => {
      expect((await messages(filePath)).family).toEqual([]);
    },
  );

  it("guards every registered family (the rule reads the family folders)", async () => {
    const sample = ["declare const id: string;", ...familyIds().map((id) => `export const is_${id.replace(/\W/g, "_")} = id === "${id}";`), ""].join("\n");
    const [result] = await eslint.lintText(sample, { filePath: "components/sample.tsx" });
    const flagged = (result?.messages ?? []).filter((message) => message.message.startsWith("A task family's id is compared only in its own folder"));
    expect(flagged.map((message) => message.line)).toEqual(familyIds().map((_, index) => index + 2));
  });

  it("adds to the strategy-literal guard where both apply, and leaves it alone in the registries", async () => {
    expect(await messages("components/sample.tsx")).toEqual({ family: FAMILY_LINES, strategy: [STRATEGY_LINE] });
    expect(await messages("lib/environments/registry.ts")).toEqual({ family: [], strategy: [STRATEGY_LINE] });
    expect(await messages("lib/environments/qa/sample.ts")).toEqual({ family: [], strategy: [] });
  });
});
