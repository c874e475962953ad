import { describe, expect, it } from "vitest";
import type { BundleImportInput } from "@/lib/db/bundle-store";
import { MemoryRunStore } from "@/lib/db/memory-store";
import type { RunStore } from "@/lib/db/store";
import { MemoryTemplateStore } from "@/lib/db/memory-templates";
import { createServerContext } from "@/lib/server/app-context";
import { countingDemo } from "../bundles/helpers";

/** A finished demo run, recorded on an in-memory store, as a bundle import would carry it. */
async function recordedRun(): Promise<BundleImportInput["runs"][number] & { cacheKey: string }> {
  const store = new MemoryRunStore();
  const context = createServerContext({ store, model: countingDemo().port, templates: new MemoryTemplateStore(), workers: { pollMs: 10 } });
  const run = await context.service.createRun({ environment: "qa", taskSet: "builtin", taskId: "qa-builtin-01", strategy: "reflexion", modelId: "demo" });
  await context.workers.untilSettled(run.rootBranchId);
  await context.workers.stop();
  const events = await store.list(run.id, run.rootBranchId);
  const call = events.find((event) => event.type === "model-call-end");
  if (!call || call.type !== "model-call-end") throw new Error("the demo run made no model call");
  return { record: (await store.getRun(run.id))!, branches: await store.listBranches(run.id), events, cacheKey: call.data.requestHash };
}

function input(hash: string, runs: BundleImportInput["runs"], cacheKey: string): BundleImportInput {
  return {
    contentHash: hash.padEnd(64, "0"),
    fileName: `run-${hash}.reflexion.json.gz`,
    manifestJson: JSON.stringify({ contentSha256: hash.padEnd(64, "0") }),
    runs,
    experiments: [],
    taskSets: [],
    cache: [{ key: cacheKey, response: { text: "cached reply", usage: { inputTokens: 3, outputTokens: 2 }, finishReason: "stop" } }],
  };
}

/**
 * The BundleStore contract every adapter with bundles (SQLite, PostgreSQL) passes: an import writes
 * runs, branches, events and cache entries in one go and is idempotent by content hash; a run that
 * is already here is skipped, not written twice; listing is newest first.
 */
export function bundleStoreContract(make: () => Promise<RunStore>): void {
  describe("BundleStore contract", () => {
    it("imports a bundle's run, branches, events and cache entries, and finds it again by hash", async () => {
      const store = await make();
      const run = await recordedRun();
      const result = await store.bundles!.importBundle(input("a1", [run], run.cacheKey));
      expect(result).toMatchObject({ created: true, alreadyHere: false, skippedRunIds: [] });
      expect(result.bundle).toMatchObject({ contentHash: "a1".padEnd(64, "0"), runIds: [run.record.id], experimentIds: [] });
      expect((await store.list(run.record.id, run.record.rootBranchId)).map((event) => [event.seq, event.type])).toEqual(run.events.map((event) => [event.seq, event.type]));
      expect((await store.getRun(run.record.id))?.config).toEqual(run.record.config);
      expect((await store.getCachedResponse(run.cacheKey))?.text).toBe("cached reply");
      expect(await store.bundles!.getBundle("a1".padEnd(64, "0"))).toMatchObject({ fileName: "run-a1.reflexion.json.gz", runIds: [run.record.id] });
      expect(await store.bundles!.getBundle("ff".padEnd(64, "0"))).toBeNull();
    });

    it("is idempotent by content hash, and skips a run that is already here when another bundle carries it", async () => {
      const store = await make();
      const [first, second] = [await recordedRun(), await recordedRun()];
      await store.bundles!.importBundle(input("b1", [first], first.cacheKey));
      expect((await store.bundles!.importBundle(input("b1", [first], first.cacheKey))).created).toBe(false);
      // Every run here already: only the bundle row would be new, so nothing is created.
      expect(await store.bundles!.importBundle(input("b2", [first], first.cacheKey))).toMatchObject({ created: false, alreadyHere: true, skippedRunIds: [first.record.id] });
      // One run here, one new: the new one comes in, the other is not written twice.
      const mixed = await store.bundles!.importBundle(input("b3", [first, second], second.cacheKey));
      expect(mixed).toMatchObject({ created: true, alreadyHere: false, skippedRunIds: [first.record.id] });
      expect(await store.list(first.record.id, first.record.rootBranchId)).toHaveLength(first.events.length);
      expect(await store.list(second.record.id, second.record.rootBranchId)).toHaveLength(second.events.length);
    });

    it("lists bundles newest first, up to the limit", async () => {
      const store = await make();
      const run = await recordedRun();
      for (const hash of ["c1", "c2", "c3"]) {
        await store.bundles!.importBundle(input(hash, [run], run.cacheKey));
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      expect((await store.bundles!.listBundles(2)).map((bundle) => bundle.contentHash.slice(0, 2))).toEqual(["c3", "c2"]);
    });
  });
}
