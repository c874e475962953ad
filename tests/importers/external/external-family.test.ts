import { describe, expect, it } from "vitest";
import { familyDescriptor, familyIds, runnableFamilyIds } from "@/lib/environments/descriptors";
import { EXTERNAL_FAMILY_ID } from "@/lib/environments/external/descriptor";
import { availableEnvironments, environmentEntry, runnableEnvironments } from "@/lib/environments/registry";
import { traceProvenanceLabel } from "@/lib/domain/provenance";
import { provenanceTitle, recordedLabel } from "@/components/provenance/recorded-badge";

describe("the external family (imported agent traces)", () => {
  it("is registered but only imported: not runnable, not forkable, no oracle, no task files", () => {
    expect(familyIds()).toContain(EXTERNAL_FAMILY_ID);
    expect(availableEnvironments()).toContain(EXTERNAL_FAMILY_ID);
    expect(runnableFamilyIds()).not.toContain(EXTERNAL_FAMILY_ID);
    expect(runnableEnvironments()).not.toContain(EXTERNAL_FAMILY_ID);
    const descriptor = familyDescriptor(EXTERNAL_FAMILY_ID);
    expect(descriptor).toMatchObject({ runsImportedOnly: true, metric: { name: "Score from the trace", oracle: false }, hiddenTests: false });
    expect(descriptor.paperLogNotForkable).toMatch(/world .* is not here to continue in/);
    const entry = environmentEntry(EXTERNAL_FAMILY_ID);
    expect(() => entry.importTaskSet("[]")).toThrow(/cli import-traces/);
    expect(() => entry.family.startEpisode(entry.family.parseTask(entry.builtinTasks[0]))).toThrow(/cannot be run or continued here/);
  });

  it("reads and writes actions as tool(input)", () => {
    const { family } = environmentEntry(EXTERNAL_FAMILY_ID);
    expect(family.parseAction('search({"q": "x"})')).toEqual({ ok: true, action: { type: "search", argument: '{"q": "x"}' }, text: 'search({"q": "x"})' });
    expect(family.parseAction("just words").ok).toBe(false);
  });

  it("labels a trace's provenance with its format and file, not as the authors' 2023 log", () => {
    const provenance = { kind: "external-trace" as const, label: "Imported traces: a.jsonl", source: "a.jsonl", recordedBy: "agent" as const, year: 2026, model: "openai:gpt-4o-mini", notes: [], logSummary: null, traceFormat: "otlp", traceId: "abc" };
    expect(traceProvenanceLabel(provenance)).toBe("Imported trace (OTLP, file a.jsonl)");
    expect(recordedLabel(provenance)).toBe("Imported trace (OTLP, file a.jsonl)");
    expect(provenanceTitle(provenance)).toMatch(/^Imported trace \(OTLP, file a\.jsonl\) — an outside agent's recorded attempt[\s\S]*Trace: abc/);
    expect(provenanceTitle(provenance)).not.toMatch(/authors/);
  });
});

describe("a new run of the external family", () => {
  it("is refused before anything is recorded, pointing at the trace import", async () => {
    const { createServerContext } = await import("@/lib/server/app-context");
    const { MemoryRunStore } = await import("@/lib/db/memory-store");
    const store = new MemoryRunStore();
    const context = createServerContext({ store, startWorkers: false, env: {} });
    await expect(context.service.createRun({ environment: EXTERNAL_FAMILY_ID, taskSet: "builtin", taskId: "sample-trace-task", strategy: "reflexion", modelId: "demo" })).rejects.toMatchObject({
      code: "invalid-input",
      message: expect.stringMatching(/only imported, never run here.*cli import-traces/),
    });
    expect(await store.listRuns(10)).toEqual([]);
  });
});

describe("modelIdOf", () => {
  it("keeps a provider the app knows, in either spelling, and calls the rest OpenAI-compatible", async () => {
    const { modelIdOf } = await import("@/lib/importers/external/map-trace");
    expect(["openai:gpt-4o-mini", "openai/gpt-4o-mini", "Anthropic:claude-3-5-haiku", "gpt-4o-mini", "mistral_ai:mistral-large", "together/meta-llama/Llama-3", "my model", null, "compatible:local"].map(modelIdOf)).toEqual([
      "openai:gpt-4o-mini",
      "openai:gpt-4o-mini",
      "anthropic:claude-3-5-haiku",
      "compatible:gpt-4o-mini",
      "compatible:mistral_ai:mistral-large",
      "compatible:together/meta-llama/Llama-3",
      "compatible:my-model",
      "compatible:unknown-model",
      "compatible:local",
    ]);
  });
});
