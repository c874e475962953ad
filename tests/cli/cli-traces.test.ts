import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { memoryExportSchema } from "@/lib/domain/memory-export";
import { traceImportResultSchema } from "@/lib/domain/trace-import";
import { traceReflectionResponseSchema } from "@/lib/domain/trace-reflection";
import { EXTERNAL_FAMILY_ID } from "@/lib/environments/descriptors";
import { runCli } from "./run-cli";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cli-traces-"));
const env = { REFLEXION_DB_PATH: path.join(dir, "traces.sqlite") };
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/**
 * The whole loop on a fresh database, as docs/external-agents.md walks it: import the docs' OTLP
 * JSON-lines file and the Inspect-style log, reflect on their failures with the offline demo model,
 * and read the reflections back with `cli memory export`.
 */
describe("cli import-traces → reflect-traces → memory export", { tags: ["slow"] }, () => {
  it("imports both docs examples, writes a reflection per failure and prints them", async () => {
    const imported = await runCli(["import-traces", "docs/examples/agent-traces.otlp.jsonl", "docs/examples/inspect-eval-log.json", "--json"], env);
    expect(imported.code, imported.stderr).toBe(0);
    const results = imported.stdout.trim().split("\n").map((line) => traceImportResultSchema.parse(JSON.parse(line)));
    expect(results.map((result) => result.format)).toEqual(["otlp", "inspect"]);
    expect(results.every((result) => result.traces > 0 && result.problems.length === 0 && !result.reused)).toBe(true);

    let failures = 0;
    for (const result of results) {
      const reflected = await runCli(["reflect-traces", "--experiment", result.experimentId, "--store", "my-agent", "--json"], env);
      expect(reflected.code, reflected.stderr).toBe(0);
      const response = traceReflectionResponseSchema.parse(JSON.parse(reflected.stdout));
      expect(response.model).toBe("demo");
      expect(response.failures).toBeGreaterThan(0);
      expect(response.written).toBe(response.failures);
      failures += response.failures;
    }

    const text = await runCli(["memory", "export", "--store", "my-agent", "--format", "text", "--limit", "100"], env);
    expect(text.code, text.stderr).toBe(0);
    const lines = text.stdout.trim().split("\n");
    expect(lines).toHaveLength(failures);
    expect(lines.every((line) => /Next time/u.test(line))).toBe(true);

    const json = memoryExportSchema.parse(JSON.parse((await runCli(["memory", "export", "--store", "my-agent", "--format", "json", "--limit", "100"], env)).stdout));
    expect(json.entries.every((entry) => entry.environment === EXTERNAL_FAMILY_ID && entry.reflectedOn?.evaluator === "trace" && entry.reflectedOn.template.id === "external/reflect")).toBe(true);
    expect(new Set(json.entries.map((entry) => entry.reflectedOn?.importedFrom))).toEqual(new Set(["agent-traces.otlp.jsonl", "inspect-eval-log.json"]));

    // A person's grades without the person Evaluator would be ignored: refused, saying what to add.
    const gradesFile = path.join(dir, "grades.json");
    fs.writeFileSync(gradesFile, JSON.stringify({ [results[0]!.runIds[0]!]: "fail" }));
    const ignored = await runCli(["reflect-traces", "--experiment", results[0]!.experimentId, "--store", "p", "--grades", gradesFile], env);
    expect(ignored.code).toBe(2);
    expect(ignored.stderr).toMatch(/add --evaluator person/u);

    // The import is idempotent: the same file again is the same experiment, nothing new stored.
    const again = await runCli(["import-traces", "docs/examples/agent-traces.otlp.jsonl", "--json"], env);
    expect(traceImportResultSchema.parse(JSON.parse(again.stdout.trim()))).toMatchObject({ experimentId: results[0]!.experimentId, reused: true });
  }, 120_000);
});
