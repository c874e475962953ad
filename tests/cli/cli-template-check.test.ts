import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { qaActorTemplate } from "@/lib/environments/qa/prompts";
import { runCli } from "./run-cli";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cli-template-check-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("cli templates save goes through the template check", () => {
  it("refuses {memroy} and a missing {question} with the list, accepts them with --allow-unknown, refuses 30 MB naming the limit", async () => {
    const env = { REFLEXION_DB_PATH: path.join(dir, "one.sqlite") };
    const typo = path.join(dir, "typo.txt");
    fs.writeFileSync(typo, qaActorTemplate.text.replace("{memory}", "{memroy}").replaceAll("{question}", "the question"));
    const save = (file: string, ...extra: string[]) =>
      runCli(["templates", "save", "--env", "qa", "--role", "actor", "--strategy", "reflexion", "--file", file, "--message", "try", ...extra], env);

    const refused = await save(typo);
    expect(refused.code).not.toBe(0);
    expect(refused.stdout).toBe("");
    expect(refused.stderr).toContain("{memroy}");
    expect(refused.stderr).toContain("did you mean {memory}");
    expect(refused.stderr).toContain("leaves out {question}");
    expect(refused.stderr).toContain("--allow-unknown");

    const accepted = await save(typo, "--allow-unknown");
    expect(accepted.code, accepted.stderr).toBe(0);
    expect(accepted.stdout.trim()).toMatch(/^tv-[0-9a-f]{16}$/);

    const huge = path.join(dir, "huge.txt");
    fs.writeFileSync(huge, `${qaActorTemplate.text}${"x".repeat(30 * 1024 * 1024)}`);
    const tooLarge = await save(huge, "--allow-unknown");
    expect(tooLarge.code).not.toBe(0);
    expect(tooLarge.stderr).toMatch(/30\.0 MB; the limit is 64\.0 KB \(65536 bytes\)/);
  }, 60_000);
});
