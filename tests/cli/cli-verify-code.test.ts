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
    expect(lines.filter((line) => line.startsWith("FAIL JavaScript/"))).toHaveLength(failed!);
    expect(result.code).toBe(failed === 0 ? 0 : 1);
  }, 120_000);
});
