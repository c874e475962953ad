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

  it("imports every file on its own: the refused ones are listed with their reasons, in the order sent, and the others are stored (200)", async () => {
    const form = new FormData();
    form.append("file", new File(["not json\n"], "notes.jsonl"));
    form.append("file", new File([fs.readFileSync(EXAMPLE)], "agent-traces.otlp.jsonl"));
    form.append("file", new File([""], "empty.jsonl"));
    const response = await route.POST(new NextRequest("http://localhost/api/imports/traces", { method: "POST", body: form }));
    expect(response.status).toBe(200);
    const { imports, failed } = traceImportResponseSchema.parse(await response.json());
    expect(imports.map((result) => [result.file, result.format, result.traces, result.reused])).toEqual([["agent-traces.otlp.jsonl", "otlp", 4, false]]);
    expect(failed).toEqual([
      { file: "notes.jsonl", index: 0, code: "invalid-input", message: expect.stringMatching(/^notes\.jsonl: could not tell the trace format from its content\. .*name the format it is in \(otlp, inspect, langsmith or langfuse\)\.$/), formatMayHelp: true },
      { file: "empty.jsonl", index: 2, code: "invalid-input", message: expect.stringMatching(/^empty\.jsonl is empty: it holds no traces\./), formatMayHelp: false },
    ]);
    // The web UI shows these messages: no CLI flag in them.
    expect(failed.map((failure) => failure.message).join(" ")).not.toMatch(/--format/);
  });

  it("answers 400 with the first file's error and the list when no file could be imported, and 400 for an unknown format", async () => {
    const bad = await route.POST(new NextRequest("http://localhost/api/imports/traces?name=bad.jsonl&format=otlp", { method: "POST", body: "not json\n" }));
    expect(bad.status).toBe(400);
    const body: unknown = await bad.json();
    expect(apiErrorSchema.parse(body).error).toMatchObject({ code: "invalid-dataset", message: expect.stringMatching(/^bad\.jsonl: no trace could be read \(line 1: not JSON/) });
    expect(traceImportResponseSchema.parse(body)).toEqual({ imports: [], failed: [{ file: "bad.jsonl", index: 0, code: "invalid-dataset", message: apiErrorSchema.parse(body).error.message, formatMayHelp: true }] });

    const form = new FormData();
    form.append("file", new File(["{}"], "a.json"));
    form.append("file", new File(["  \n"], "b.jsonl"));
    const both = await route.POST(new NextRequest("http://localhost/api/imports/traces?format=inspect", { method: "POST", body: form }));
    expect(both.status).toBe(400);
    const bothBody: unknown = await both.json();
    // A file-level problem names the file once; the format is named as people know it.
    expect(apiErrorSchema.parse(bothBody).error.message).toBe("a.json: no trace could be read (not an Inspect eval log: expected an object with `eval` (the EvalSpec) and `samples`). Expected an Inspect AI eval log: the JSON log (an object with `eval` and `samples`) or the .eval zip; if the file is in another format, name it.");
    expect(traceImportResponseSchema.parse(bothBody).failed).toEqual([
      { file: "a.json", index: 0, code: "invalid-dataset", message: apiErrorSchema.parse(bothBody).error.message, formatMayHelp: true },
      { file: "b.jsonl", index: 1, code: "invalid-input", message: expect.stringMatching(/^b\.jsonl is empty \(only whitespace\): it holds no traces/), formatMayHelp: false },
    ]);

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
    // Content imported before answers with the format it was imported in, whatever --format says, and without that format's parse problems.
    const asInspect = await runCli(["import-traces", EXAMPLE, "--format", "inspect", "--json"], env);
    expect(asInspect.code, asInspect.stderr).toBe(0);
    expect(traceImportResultSchema.parse(JSON.parse(asInspect.stdout.trim()))).toMatchObject({ format: "otlp", traces: 4, problems: [], reused: true });
  });

  it("names each refused file once, says an empty file is empty, and adds the --format flag where naming the format helps", async () => {
    const env = { REFLEXION_DB_PATH: path.join(dir, "cli-errors.sqlite") };
    const empty = path.join(dir, "empty.jsonl");
    const notes = path.join(dir, "notes.json");
    fs.writeFileSync(empty, "");
    fs.writeFileSync(notes, "{}\n");
    const result = await runCli(["import-traces", path.join(dir, "nope.jsonl"), empty, notes, EXAMPLE], env);
    expect(result.code).toBe(2);
    expect(result.stdout).toMatch(/^agent-traces\.otlp\.jsonl: 4 traces \(otlp\)/);
    const lines = result.stderr.trim().split("\n");
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^error: .*nope\.jsonl: ENOENT/);
    expect(lines[1]).toMatch(/^error: empty\.jsonl is empty: it holds no traces\. Export the traces again/);
    expect(lines[2]).toMatch(/^error: notes\.json: could not tell the trace format from its content\. .* Use --format otlp\|inspect\|langsmith\|langfuse\.$/);
  });
});
