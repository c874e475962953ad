import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { foldRun } from "@/lib/domain/fold-run";
import { SqliteRunStore } from "@/lib/db/sqlite-store";
import type { ModelRequest } from "@/lib/engine/ports";
import { createModelPort } from "@/lib/llm/model-port";
import { ADJUSTMENT_NOTES } from "@/lib/llm/rejected-parameters";
import { createServerContext } from "@/lib/server/app-context";
import { startFakeOpenAIServer, type FakeOpenAIServer } from "../helpers/fake-openai-server";

/**
 * A model that rejects both `stop` and `temperature` (as OpenAI's reasoning models do): each
 * rejected parameter is dropped once within the call, and remembered in the store per model, so a
 * new process (a resume after a restart, another worker) leaves them out from its first request.
 */

let server: FakeOpenAIServer;
let dir: string;
beforeAll(async () => {
  server = await startFakeOpenAIServer({ respond: () => "Thought 1: The River Sallow runs through Dunmere.\nAction 1: Finish[River Sallow]" });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "rejected-parameters-"));
});
afterEach(() => server.reset());
afterAll(async () => {
  await server.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const request: ModelRequest = {
  role: "actor",
  settings: { modelId: "compatible:reasoner", temperature: 0, maxOutputTokens: 256 },
  messages: [{ role: "user", content: "Question: which river?" }],
  stopSequences: ["\nObservation"],
};

describe("rejected provider parameters", () => {
  it("a model rejecting both stop and temperature: both dropped in one call (three requests), the call succeeds", async () => {
    server.rejectParameters(["stop", "temperature"]);
    const response = await createModelPort({ env: { OPENAI_COMPATIBLE_BASE_URL: server.baseUrl }, maxRetries: 0 }).generate(request);
    expect(response.text).toContain("Finish[River Sallow]");
    expect(response.adjustments).toEqual(expect.arrayContaining([ADJUSTMENT_NOTES.stopSequences, ADJUSTMENT_NOTES.temperature]));
    const sent = server.chatRequests().map((r) => r.body ?? {});
    expect(sent).toHaveLength(3);
    expect(sent[2]).not.toHaveProperty("stop");
    expect(sent[2]).not.toHaveProperty("temperature");
  });

  it("the dropped set is kept in the store per model: a run in a new process never sends them again, and no run pauses", async () => {
    server.rejectParameters(["stop", "temperature"]);
    const file = path.join(dir, "runs.db");
    const env = { OPENAI_COMPATIBLE_BASE_URL: server.baseUrl };
    const runOnce = async () => {
      const context = createServerContext({ store: new SqliteRunStore(file), env, workers: { pollMs: 10 } });
      try {
        const run = await context.service.createRun({ environment: "qa", taskSet: "builtin", taskId: "qa-builtin-01", strategy: "reflexion", modelId: "compatible:reasoner", maxTrials: 1 });
        await context.workers.untilSettled(run.rootBranchId);
        return foldRun((await context.service.events(run.id)).events);
      } finally {
        await context.close();
      }
    };
    const first = await runOnce();
    expect(first.status).toBe("ended");
    expect(first.outcome).toBe("success");
    expect(server.chatRequests()).toHaveLength(3);

    // Another process (a new store and model port on the same database): one request, without either parameter.
    server.reset();
    server.rejectParameters(["stop", "temperature"]);
    const second = await runOnce();
    expect(second.status).toBe("ended");
    const sent = server.chatRequests().map((r) => r.body ?? {});
    expect(sent).toHaveLength(1);
    expect(sent[0]).not.toHaveProperty("stop");
    expect(sent[0]).not.toHaveProperty("temperature");
    // Per model: another model id is asked with its parameters as usual.
    const store = new SqliteRunStore(file);
    expect([...(await store.rejectedParameters("compatible:reasoner"))].sort()).toEqual(["stopSequences", "temperature"]);
    expect(await store.rejectedParameters("compatible:other")).toEqual([]);
    await store.close();
  }, 30_000);
});
