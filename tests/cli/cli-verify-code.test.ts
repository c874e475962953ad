import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "./run-cli";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "rp-cli-verify-"));
const env = { REFLEXION_DB_PATH: path.join(tmp, "db.sqlite") };
const data = path.resolve(__dirname, "../../../shared/data");

describe("CLI: verify-code (reference solutions against hidden tests, in the sandbox)", () => {
  it("HumanEval (Python): all 164 canonical solutions pass", async () => {
    const result = await runCli(["verify-code", "--dataset", path.join(data, "humaneval/HumanEval.jsonl.gz")], env);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.trim().split("\n").at(-1)).toBe("164 passed, 0 failed");
  }, 120_000);

  it("HumanEval-X (JavaScript): at least 161 pass and the failing ids are named above the total", async () => {
    const result = await runCli(["verify-code", "--dataset", path.join(data, "humaneval-js-ts/humaneval-x-js.jsonl.gz")], env);
    const lines = result.stdout.trim().split("\n");
    const [passed, failed] = /^(\d+) passed, (\d+) failed$/.exec(lines.at(-1) ?? "")!.slice(1).map(Number);
    expect(passed).toBeGreaterThanOrEqual(161);
    expect(lines.filter((line) => line.startsWith("FAIL JavaScript/")), `${result.stdout}\n${result.stderr}`).toHaveLength(failed!);
    expect(result.code).toBe(failed === 0 ? 0 : 1);
  }, 120_000);

  it("builtin: our 20 problems' reference solutions pass their hidden tests", async () => {
    const result = await runCli(["verify-code", "--dataset", "builtin"], env);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.trim().split("\n").at(-1)).toBe("20 passed, 0 failed");
  }, 120_000);

  it("a truncated .gz gets a message that says what is wrong and what to do", async () => {
    const bytes = fs.readFileSync(path.join(data, "humaneval/HumanEval.jsonl.gz"));
    const truncated = path.join(tmp, "HumanEval-truncated.jsonl.gz");
    fs.writeFileSync(truncated, bytes.subarray(0, Math.floor(bytes.length / 2)));
    const result = await runCli(["verify-code", "--dataset", truncated], env);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/could not be decompressed .*cut short\. Download or copy the whole file again/);
  });

  it("MultiPL-E has no reference solutions: says so and skips them", async () => {
    const result = await runCli(["verify-code", "--dataset", path.join(data, "humaneval-js-ts/multipl-e-humaneval-ts.jsonl"), "--limit", "3"], env);
    expect(result.stderr).toMatch(/3 of 3 tasks have no reference solution/);
    expect(result.stdout.trim()).toBe("0 passed, 0 failed, 3 skipped");
  });
});
