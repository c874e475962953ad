import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * No key reaches the client bundle. Runs only after a production build
 * (`.next/static` exists): `scripts/test-all.sh` (CI) builds with these test keys in the
 * environment and runs this file after the build. By hand, e.g. in a private clone:
 *
 *   OPENAI_API_KEY=sk-test-XYZ-bundle-openai-4a8a08f09d37b737 \
 *   ANTHROPIC_API_KEY=sk-ant-test-XYZ-bundle-8277e0910d750195 \
 *   GOOGLE_GENERATIVE_AI_API_KEY=AIza-test-XYZ-bundle-e4da3b7fbbce2345 \
 *   OPENAI_COMPATIBLE_API_KEY=sk-test-XYZ-bundle-compat-1679091c5a880faf npx next build
 *
 * Every file under `.next/static` (the JavaScript, CSS and assets sent to browsers) is
 * searched for those values, and for the values of the key variables of this process.
 */

const BUNDLE_TEST_KEYS = [
  "sk-test-XYZ-bundle-openai-4a8a08f09d37b737",
  "sk-ant-test-XYZ-bundle-8277e0910d750195",
  "AIza-test-XYZ-bundle-e4da3b7fbbce2345",
  "sk-test-XYZ-bundle-compat-1679091c5a880faf",
];
const KEY_VARS = ["OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GOOGLE_GENERATIVE_AI_API_KEY", "OPENAI_COMPATIBLE_API_KEY"];

const staticDir = path.resolve(__dirname, "../../.next/static");

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(full) : [full];
  });
}

describe.skipIf(!fs.existsSync(staticDir))("client bundle", () => {
  it("holds no key value (the build's test keys, nor this process's keys)", () => {
    const secrets = [...BUNDLE_TEST_KEYS, ...KEY_VARS.map((name) => process.env[name]?.trim() ?? "").filter((value) => value.length >= 8)];
    const files = filesUnder(staticDir);
    expect(files.length).toBeGreaterThan(0);
    const leaks: string[] = [];
    for (const file of files) {
      const text = fs.readFileSync(file).toString("latin1");
      for (const secret of secrets) if (text.includes(secret)) leaks.push(`${path.relative(staticDir, file)} contains a key value`);
    }
    expect(leaks).toEqual([]);
  });
});
