import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadEnvFiles } from "@/lib/cli/env-files";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rp-env-files-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("the CLI reads .env.local and .env like the web server", () => {
  it("the environment wins, then .env.local, then .env; quoted values and comments as dotenv has them", () => {
    fs.writeFileSync(path.join(dir, ".env.local"), '# keys\nOPENAI_COMPATIBLE_BASE_URL="http://127.0.0.1:1234/v1"\nSHARED=local\n');
    fs.writeFileSync(path.join(dir, ".env"), "SHARED=dotenv\nONLY_DOTENV=yes\nFROM_ENV=file\n");
    const env: Record<string, string | undefined> = { FROM_ENV: "process" };
    expect(loadEnvFiles(dir, env)).toEqual([".env.local", ".env"]);
    expect(env).toEqual({ FROM_ENV: "process", OPENAI_COMPATIBLE_BASE_URL: "http://127.0.0.1:1234/v1", SHARED: "local", ONLY_DOTENV: "yes" });
  });

  it("no files: nothing read, nothing set", () => {
    const empty = fs.mkdtempSync(path.join(dir, "empty-"));
    const env: Record<string, string | undefined> = {};
    expect(loadEnvFiles(empty, env)).toEqual([]);
    expect(env).toEqual({});
  });
});
