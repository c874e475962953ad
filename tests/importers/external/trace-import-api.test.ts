import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiErrorSchema } from "@/lib/domain/api";
import { traceImportResponseSchema, traceImportResultSchema } from "@/lib/domain/trace-import";
import { runCli } from "../../cli/run-cli";

// The route shares one process-wide context; point it at a private database before importing it.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rp-trace-imports-"));
process.env.REFLEXION_DB_PATH = path.join(dir, "api.sqlite");
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const FIXTURES = path.resolve(__dirname, "../../fixtures/traces");
const EXAMPLE = path.resolve(__dirname, "../../../docs/examples/agent-traces.otlp.jsonl");

let route: typeof import("@/app/api/imports/traces/route");
beforeAll(async () => {
  route = await import("@/app/api/imports/traces/route");
});

describe("POST /api/imports/traces", () => {
  it("imports multipart files (one gzip'd) and a raw body with ?name=, idempotently by content", async () => {
    const form = new FormData();
    form.append("file", new File([fs.readFileSync(path.join(FIXTURES, "genai-openai-agents.jsonl"))], "genai-openai-agents.jsonl"));
    form.append("file", new File([gzipSync(fs.readFileSync(path.join(FIXTURES, "malformed.jsonl")))], "malformed.jsonl.gz"));
    const response = await route.POST(new NextRequest("http://localhost/api/imports/traces", { method: "POST", body: form }));
    expect(response.status).toBe(200);
    const { imports } = traceImportResponseSchema.parse(await response.json());
    expect(imports.map((result) => [result.file, result.format, result.traces, result.problems.length, result.reused])).toEqual([
      ["genai-openai-agents.jsonl", "otlp", 1, 0, false],
      ["malformed.jsonl", "otlp", 1, 3, false],
    ]);
    expect(imports[1]!.problems[0]).toEqual({ where: "line 2", message: expect.stringMatching(/^not JSON/) });

    const raw = await route.POST(new NextRequest("http://localhost/api/imports/traces?name=again.jsonl&format=otlp", { method: "POST", body: fs.readFileSync(path.join(FIXTURES, "genai-openai-agents.jsonl")) }));
    const [again] = traceImportResponseSchema.parse(await raw.json()).imports;
    expect(again).toMatchObject({ file: "again.jsonl", experimentId: imports[0]!.experimentId, runIds: imports[0]!.runIds, reused: true });
  });

  it("answers 400 naming the file and line when nothing can be read, and 400 for an unknown format", async () => {
    const bad = await route.POST(new NextRequest("http://localhost/api/imports/traces?name=bad.jsonl&format=otlp", { method: "POST", body: "not json\n" }));
    expect(bad.status).toBe(400);
    expect(apiErrorSchema.parse(await bad.json()).error).toMatchObject({ code: "invalid-dataset", message: expect.stringMatching(/^bad\.jsonl: no trace could be read \(line 1: not JSON/) });
    const unknown = await route.POST(new NextRequest("http://localhost/api/imports/traces?format=xml", { method: "POST", body: "{}" }));
    expect(unknown.status).toBe(400);
    expect(apiErrorSchema.parse(await unknown.json()).error.message).toMatch(/format must be one of auto, otlp, inspect, langsmith, langfuse/);
  });
});

describe("cli import-traces", () => {
  it("prints per-file counts and problems, and --json one result line per file", async () => {
    const env = { REFLEXION_DB_PATH: path.join(dir, "cli.sqlite") };
    const text = await runCli(["import-traces", path.join(FIXTURES, "malformed.jsonl"), EXAMPLE], env);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/^malformed\.jsonl: 1 trace \(otlp\) → experiment \S+\n  3 problems:\n  problem: line 2: not JSON/);
    expect(text.stdout).toMatch(/agent-traces\.otlp\.jsonl: 4 traces \(otlp\) → experiment/);
    const json = await runCli(["import-traces", EXAMPLE, "--json"], env);
    expect(json.code, json.stderr).toBe(0);
    expect(traceImportResultSchema.parse(JSON.parse(json.stdout.trim()))).toMatchObject({ file: "agent-traces.otlp.jsonl", traces: 4, problems: [], reused: true });
    const missing = await runCli(["import-traces", path.join(dir, "nope.jsonl")], env);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/nope\.jsonl: ENOENT/);
  });
});
