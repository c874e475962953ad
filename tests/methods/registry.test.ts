import { readFileSync } from "node:fs";
import { relative, resolve } from "node:path";
import madge from "madge";
import { describe, expect, it } from "vitest";
import { strategySchema } from "@/lib/domain/config";
import { fixedLimitsOf, strategyBehaviour } from "@/lib/domain/strategies";
import type { MemoryItem } from "@/lib/domain/events";
import { METHOD_DESCRIPTORS, METHOD_IDS, methodDescriptor } from "@/lib/methods/registry";
import { startQaEpisode } from "@/lib/environments/qa/environment";
import { builtinQaTasks, qaEnvironment } from "@/lib/environments/qa";
import { STRATEGY_HINTS, STRATEGY_LABELS } from "@/components/ui/strategy-labels";

const root = resolve(__dirname, "../..");
const IMPORT_SPECIFIER = /(?:from\s+|import\s*\(\s*|require\s*\(\s*|^import\s+)["']([^"']+)["']/gm;

const memory = (count: number): MemoryItem[] => Array.from({ length: count }, (_, k) => ({ id: `m${k}`, text: `reflection ${k + 1}`, trial: k + 1 }));

describe("the method registry", () => {
  it("reaches nothing but lib/methods files, which import nothing but relative types", async () => {
    const graph = (await madge(resolve(root, "lib/methods/registry.ts"), { baseDir: root, fileExtensions: ["ts"], tsConfig: resolve(root, "tsconfig.json") })).obj();
    const files = Object.keys(graph).map((file) => relative(root, resolve(root, file)));
    expect(files.length).toBe(METHOD_DESCRIPTORS.length + 2);
    for (const file of files) {
      expect(file.startsWith("lib/methods/")).toBe(true);
      for (const match of readFileSync(resolve(root, file), "utf8").matchAll(IMPORT_SPECIFIER)) expect(match[1]!.startsWith(".")).toBe(true);
    }
  });

  it("is the strategy schema's list, in registry order, one folder per id", () => {
    expect(strategySchema.options).toEqual(METHOD_IDS);
    // Today's methods keep their order (pickers, `--strategy`); a method added later may go anywhere.
    const today = ["none", "reflexion", "last-attempt", "last-attempt-and-reflexion", "cot", "cot-gold-context"];
    expect(METHOD_IDS.filter((id) => today.includes(id))).toEqual(today);
    for (const id of METHOD_IDS) {
      expect(methodDescriptor(id).id).toBe(id);
      expect(readFileSync(resolve(root, `lib/methods/${id}/descriptor.ts`), "utf8")).toContain(`id: "${id}"`);
    }
    expect(() => methodDescriptor("mcts-nope" as never)).toThrow(/Unknown method "mcts-nope"\. Registered: none, reflexion/);
  });

  it("gives every strategy its label and hint from its descriptor", () => {
    for (const method of METHOD_DESCRIPTORS) {
      expect(STRATEGY_LABELS[method.id]).toBe(method.label);
      expect(STRATEGY_HINTS[method.id]).toBe(method.hint);
    }
  });
});

describe("strategy behaviour derived from each descriptor", () => {
  it.each(METHOD_IDS)("%s: reflects, remembers and fixes limits as its descriptor says", (id) => {
    const method = methodDescriptor(id);
    const behaviour = strategyBehaviour(id);
    expect(behaviour.reflectsAfterFailure).toBe(method.reflects === "after-failure");
    expect(behaviour.includesLastAttempt).toBe(method.remembers.lastAttempt);
    expect(fixedLimitsOf(id, {})).toEqual({ stepsPerTrial: method.trial.stepsPerTrial, memoryWindow: method.remembers.fixedMemoryWindow });
    // Five reflections, a run window of 3: the method's own window (if any) wins, and a method
    // that keeps no reflections in the prompt shows none, even of a hand-written memory.
    const { inContext, evicted } = behaviour.memoryForTrial(memory(5), 3);
    const shown = method.remembers.reflections ? (method.remembers.fixedMemoryWindow ?? 3) : 0;
    expect(inContext.map((item) => item.text)).toEqual(memory(5).slice(5 - shown).map((item) => item.text));
    expect(evicted.length).toBe(method.remembers.reflections ? 5 - shown : 0);
  });

  it("a method without tools takes the QA family's Search away; a ReAct method keeps it", () => {
    const task = builtinQaTasks[0]!;
    const noTools = METHOD_DESCRIPTORS.filter((method) => !method.trial.usesTools);
    expect(noTools.length).toBeGreaterThan(0);
    for (const method of METHOD_DESCRIPTORS) {
      const observation = startQaEpisode(task, { strategy: method.id }).step(qaEnvironment.parseAction("Search[Dunmere]")).observation;
      if (method.trial.usesTools) expect(observation).not.toMatch(/Without tools/);
      else expect(observation).toMatch(/Without tools the only valid action is Finish/);
    }
  });
});
