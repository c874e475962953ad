import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runLessonsResponseSchema } from "@/lib/domain/memory-store";

// The route uses the process-wide context: point it at a private database before importing it.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rp-run-lessons-"));
process.env.REFLEXION_DB_PATH = path.join(dir, "run-lessons.sqlite");

let route: typeof import("@/app/api/runs/[runId]/lessons/route");
let failedRunId = "";
let passedRunId = "";

/** The docs' OTLP example imported, and the trace's own score's failures reflected on into store `agent`. */
beforeAll(async () => {
  route = await import("@/app/api/runs/[runId]/lessons/route");
  const { getServerContext } = await import("@/lib/server/app-context");
  const { reflectOnTraces, traceReflectionDeps } = await import("@/lib/server/trace-reflection");
  const context = getServerContext();
  const imported = await context.traceImports.importFile({ name: "agent-traces.otlp.jsonl", bytes: new Uint8Array(fs.readFileSync("docs/examples/agent-traces.otlp.jsonl")) });
  const result = await reflectOnTraces(traceReflectionDeps(context), { experimentId: imported.experimentId, store: "agent" });
  failedRunId = result.outcomes.find((outcome) => outcome.verdict === "fail")!.runId;
  passedRunId = result.outcomes.find((outcome) => outcome.verdict === "pass")!.runId;
}, 60_000);

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function get(runId: string) {
  return route.GET(new NextRequest(`http://localhost/api/runs/${runId}/lessons`), { params: Promise.resolve({ runId }) });
}

describe("GET /api/runs/:runId/lessons", () => {
  it("lists the lesson stored from a failed trace with its provenance, none for a passed one, 404 for an unknown run", async () => {
    const failed = runLessonsResponseSchema.parse(await (await get(failedRunId)).json());
    expect(failed.entries).toHaveLength(1);
    expect(failed.entries[0]).toMatchObject({ store: "agent", source: { runId: failedRunId }, reflectedOn: { kind: "trace-reflection", evaluator: "trace", model: "demo" } });
    expect(runLessonsResponseSchema.parse(await (await get(passedRunId)).json()).entries).toEqual([]);
    const missing = await get("00000000-0000-4000-8000-000000000000");
    expect(missing.status).toBe(404);
  });
});
