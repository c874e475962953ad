import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";
import { METHOD_IDS } from "@/lib/methods/registry";

/**
 * The guard of DESIGN.md §8 "A rule lives in one place": outside the method folders
 * (lib/methods/<id>/) and the family folders, code that compares a strategy's name
 * (instead of reading its method descriptor) fails `npx eslint .`.
 */

const SAMPLE = [
  "declare const config: { strategy: string };",
  'export const none = config.strategy === "none";',
  'export const epm = "last-attempt" !== config.strategy;',
  'export const loose = config.strategy == "reflexion";',
  'export function steps(strategy: string): number { switch (strategy) { case "cot": return 1; default: return 6; } }',
  'export const other = config.strategy === "a strategy we do not have";',
  "",
].join("\n");

const eslint = new ESLint({ cwd: process.cwd() });

async function guardMessages(filePath: string) {
  const [result] = await eslint.lintText(SAMPLE, { filePath });
  return (result?.messages ?? []).filter((message) => message.message.includes("read the method's descriptor"));
}

describe("the strategy-rule guard (eslint.config.mjs)", () => {
  it.each([
    "components/sample.tsx",
    "lib/graph/sample.ts",
    "lib/server/sample.ts",
    "lib/query/sample.ts",
    "lib/store/sample.ts",
    "lib/domain/sample.ts",
    "lib/engine/sample.ts",
    "lib/importers/sample.ts",
    "lib/environments/registry.ts",
    "app/sample/page.tsx",
    "bin/sample.ts",
  ])(
    "flags each strategy-name comparison in %s",
    async (filePath) => {
      const messages = await guardMessages(filePath);
      expect(messages.map((message) => message.line)).toEqual([2, 3, 4, 5]);
    },
  );

  it.each(["lib/methods/reflexion/sample.ts", "lib/environments/qa/sample.ts"])("leaves %s, a method or family folder, alone", async (filePath) => {
    expect(await guardMessages(filePath)).toEqual([]);
  });
});

describe("the strategy-rule guard follows the registry", () => {
  it("flags a comparison with every registered method's id (the guard reads lib/methods' folders)", async () => {
    const sample = METHOD_IDS.map((id, index) => `export const is${index} = (strategy: string) => strategy === ${JSON.stringify(id)};`).join("\n");
    const [result] = await eslint.lintText(`${sample}\n`, { filePath: "lib/graph/sample.ts" });
    const lines = (result?.messages ?? []).filter((message) => message.message.includes("read the method's descriptor")).map((message) => message.line);
    expect(lines).toEqual(METHOD_IDS.map((_, index) => index + 1));
  });
});
