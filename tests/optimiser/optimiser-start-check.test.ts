import { afterAll, describe, expect, it } from "vitest";
import { MemoryRunStore } from "@/lib/db/memory-store";
import { MemoryTemplateStore } from "@/lib/db/memory-templates";
import { templateProblem } from "@/lib/domain/optimiser/template-problem";
import { codeDemoScriptBook } from "@/lib/environments/code/demo-script";
import { demoOptimiserBook } from "@/lib/environments/demo-optimiser-book";
import { householdDemoScriptBook } from "@/lib/environments/household/demo-script";
import { qaDemoScriptBook } from "@/lib/environments/qa/demo-script";
import { createModelPort } from "@/lib/llm/model-port";
import { createServerContext, type ServerContext } from "@/lib/server/app-context";
import { inProcessDriver } from "@/lib/server/optimiser/experiment-driver";
import { templateRulesFor } from "@/lib/server/template-rules";

const books = [demoOptimiserBook, codeDemoScriptBook, qaDemoScriptBook, householdDemoScriptBook];
const contexts: ServerContext[] = [];
afterAll(async () => {
  for (const context of contexts) await context.close();
});

describe("the optimiser's template check", () => {
  it("refuses a start version the check refuses (saved with allowUnknown) before anything runs, saying what is missing and what to do", async () => {
    const context = createServerContext({ model: createModelPort({ demoScriptBooks: books }), startWorkers: false, store: new MemoryRunStore(), templates: new MemoryTemplateStore() });
    contexts.push(context);
    const source = await context.experiments.start({ name: "source", environment: "qa", taskSet: "builtin", taskIds: ["qa-builtin-01", "qa-builtin-02"], maxTrials: 1, arms: [{ label: "reflexion", strategy: "reflexion", modelId: "demo" }] }, { start: false });
    await inProcessDriver(context)(source.id);
    const { version } = await context.templates.create({ name: "no placeholders", family: "qa", role: "reflector", strategy: "reflexion", text: "Think about what went wrong.", allowUnknown: true });
    const before = (await context.experiments.list(50, { withDerived: true })).length;

    const refusal = context.optimiser.create({ experimentId: source.id, role: "reflector", startVersion: version.id });
    await expect(refusal).rejects.toMatchObject({ code: "invalid-input" });
    await expect(refusal).rejects.toThrow(new RegExp(`start version ${version.id}.*leaves out \\{`, "s"));
    await expect(refusal).rejects.toThrow(/--start <version>.*template workbench/s);
    await expect(refusal).rejects.not.toThrow(/allowUnknown/);
    expect(await context.optimiser.list()).toEqual([]);
    expect((await context.experiments.list(50, { withDerived: true })).length).toBe(before);
  }, 60_000);

  it("words a refused proposal without any API field", () => {
    const problem = templateProblem("Think about what went wrong.", templateRulesFor("qa", "reflector"), "The proposed template");
    expect(problem).toMatch(/^The proposed template leaves out \{/s);
    expect(problem).not.toMatch(/allowUnknown|--allow-unknown/);
    expect(templateProblem("{reflections}", null, "The proposed template")).toBeNull();
  });
});
