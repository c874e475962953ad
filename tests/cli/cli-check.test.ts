import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { validateXML } from "xmllint-wasm";
import { startFakeOpenAIServer } from "../helpers/fake-openai-server";
import { runCli } from "./run-cli";

const root = path.resolve(__dirname, "../..");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cli-check-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const xsd = fs.readFileSync(path.join(root, "tests/fixtures/junit/junit-10.xsd"), "utf8");

/** The repository's example config and reflector, copied to `folder` (the config's paths are relative to it). */
function exampleIn(folder: string, reflector?: (text: string) => string): string {
  fs.mkdirSync(path.join(folder, "prompts"), { recursive: true });
  const text = fs.readFileSync(path.join(root, "prompts/qa-reflector.txt"), "utf8");
  fs.writeFileSync(path.join(folder, "prompts/qa-reflector.txt"), reflector ? reflector(text) : text);
  const config = path.join(folder, "reflexion.check.json");
  fs.copyFileSync(path.join(root, "reflexion.check.json"), config);
  return config;
}

/** A property of the JUnit report's `<properties>`. */
function property(xml: string, name: string): string | undefined {
  return new RegExp(`<property name="${name}" value="([^"]*)"/>`).exec(xml)?.[1];
}

async function expectValidJunit(file: string): Promise<string> {
  const xml = fs.readFileSync(file, "utf8");
  const result = await validateXML({ xml: [{ fileName: "report.xml", contents: xml }], schema: [{ fileName: "junit-10.xsd", contents: xsd }] });
  expect(result.errors, result.rawOutput).toEqual([]);
  expect(result.valid).toBe(true);
  return xml;
}

describe("cli check", { tags: ["slow"] }, () => {
  it("the example config passes offline (exit 0), a re-check makes no model call, and a generic-lesson reflector fails it (exit 1)", async () => {
    const env = { REFLEXION_DB_PATH: path.join(dir, "check.sqlite") };
    const good = exampleIn(path.join(dir, "good"));
    const junit = path.join(dir, "first.xml");
    const markdown = path.join(dir, "first.md");
    const first = await runCli(["check", "--config", good, "--junit", junit, "--markdown", markdown], env);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain("✅ all 3 assertions passed");
    expect(first.stdout).toContain("scripted stand-in");
    expect(fs.readFileSync(markdown, "utf8")).toBe(first.stdout);
    const firstXml = await expectValidJunit(junit);
    expect(firstXml).toContain('tests="3" failures="0" errors="0"');
    expect(Number(property(firstXml, "model-calls.live"))).toBeGreaterThan(0);

    // Unchanged: a new experiment, every call of which is replayed from the response cache.
    const again = path.join(dir, "again.xml");
    const second = await runCli(["check", "--config", good, "--junit", again], env);
    expect(second.code, second.stderr).toBe(0);
    const secondXml = await expectValidJunit(again);
    expect(property(secondXml, "experiment.qa")).not.toBe(property(firstXml, "experiment.qa"));
    expect(property(secondXml, "model-calls.live")).toBe("0");
    const allCalls = (xml: string) => Number(property(xml, "model-calls.live")) + Number(property(xml, "model-calls.cached"));
    expect(allCalls(secondXml)).toBe(allCalls(firstXml));
    // The same results: the reports differ only in the experiment id, the timing and the call counts.
    const results = (xml: string) => xml.replace(/<testsuite [^>]*>|<properties>[\s\S]*<\/properties>/g, "");
    expect(results(secondXml)).toBe(results(firstXml));

    // The reflector now asks only for a general lesson: the demo's reflections stop helping.
    const bad = exampleIn(path.join(dir, "bad"), (text) => text.replace(/In a few complete sentences,.*?plan\./, "In one sentence, write a general, high-level lesson about answering questions well."));
    expect(fs.readFileSync(path.join(dir, "bad/prompts/qa-reflector.txt"), "utf8")).not.toMatch(/\bplan\b/);
    const failedXmlFile = path.join(dir, "bad.xml");
    const failed = await runCli(["check", "--config", bad, "--junit", failedXmlFile], env);
    expect(failed.code, failed.stderr).toBe(1);
    expect(failed.stdout).toMatch(/❌ 2 of 3 assertions failed/);
    expect(failed.stdout).toContain("candidate is significantly worse than baseline");
    const failedXml = await expectValidJunit(failedXmlFile);
    expect(failedXml).toContain('tests="3" failures="2" errors="0"');
    expect(failedXml.match(/<failure /g)).toHaveLength(2);
    // Only what the changed reflector changes reaches the model: the baseline arm is replayed whole.
    const baseline = /\| qa \| baseline \| reflexion \| demo \| 24 \| [^|]+\| (\d+) \/ (\d+) \|/.exec(failed.stdout);
    expect(baseline?.[1], failed.stdout).toBe("0");
    expect(failedXml).toMatch(/<testcase name="qa: candidate final-success &gt;= 0.8"[^>]*>\s*<failure message="[^"]*required &gt;= 80.0 %/);
  }, 240_000);

  it("exits 2 for a broken config (naming the field), a missing config, an unknown template and a model without its key", async () => {
    const env = { REFLEXION_DB_PATH: path.join(dir, "broken.sqlite") };
    const broken = path.join(dir, "broken.json");
    const config = JSON.parse(fs.readFileSync(path.join(root, "reflexion.check.json"), "utf8")) as { assertions: Array<Record<string, unknown>>; arms: Array<Record<string, unknown>> };
    config.assertions[0]!.value = 1.5;
    fs.writeFileSync(broken, JSON.stringify(config));
    const bad = await runCli(["check", "--config", broken], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/assertions\[0\]\.value: .*(1|<=)/);
    expect(bad.stdout).toBe("");

    const notJson = path.join(dir, "not.json");
    fs.writeFileSync(notJson, "{ name: ");
    const syntax = await runCli(["check", "--config", notJson], env);
    expect(syntax.code).toBe(2);
    expect(syntax.stderr).toContain("is not valid JSON");

    const missing = await runCli(["check", "--config", path.join(dir, "nowhere.json")], env);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("cannot read the check config");

    const unknown = path.join(dir, "unknown.json");
    config.assertions[0]!.value = 0.5;
    config.arms[0]!.templates = { reflector: "qa/reflect@no-such-label" };
    fs.writeFileSync(unknown, JSON.stringify(config));
    fs.mkdirSync(path.join(dir, "prompts"), { recursive: true });
    fs.copyFileSync(path.join(root, "prompts/qa-reflector.txt"), path.join(dir, "prompts/qa-reflector.txt"));
    const missingTemplate = await runCli(["check", "--config", unknown], env);
    expect(missingTemplate.code).toBe(2);
    expect(missingTemplate.stderr).toMatch(/could not run: Arm "baseline": the reflector template qa\/reflect@no-such-label could not be found/);

    // A library template of another family, or of another role: refused before any run starts.
    const wrongFamily = path.join(dir, "wrong-family.json");
    fs.writeFileSync(wrongFamily, JSON.stringify({ ...config, taskSets: [{ family: "household", dataset: "builtin" }], arms: [{ label: "baseline", strategy: "reflexion", templates: { reflector: "qa/reflect@v1" } }], assertions: [{ arm: "baseline", metric: "final-success", op: ">=", value: 0.5 }] }));
    const family = await runCli(["check", "--config", wrongFamily], env);
    expect(family.code).toBe(2);
    expect(family.stderr).toContain('Arm "baseline": qa/reflect@v1 is a qa reflector template, but task set "household" is household.');
    const wrongRole = path.join(dir, "wrong-role.json");
    fs.writeFileSync(wrongRole, JSON.stringify({ ...config, arms: [{ label: "baseline", strategy: "reflexion", templates: { actor: "qa/reflect@v1" } }], assertions: [{ arm: "baseline", metric: "final-success", op: ">=", value: 0.5 }] }));
    const role = await runCli(["check", "--config", wrongRole], env);
    expect(role.code).toBe(2);
    expect(role.stderr).toContain("qa/reflect@v1 is a qa reflector template, but it is used as the actor template.");

    // A hosted model without its key: refused before any run starts, with what to set.
    const noKey = path.join(dir, "no-key.json");
    config.arms[0]!.templates = { reflector: "qa/reflect@v1" };
    config.arms[1]!.model = "openai:gpt-4o-mini";
    fs.writeFileSync(noKey, JSON.stringify(config));
    const provider = await runCli(["check", "--config", noKey], env);
    expect(provider.code).toBe(2);
    expect(provider.stderr).toMatch(/could not run: .*OPENAI_API_KEY/);
  }, 120_000);

  it("exits 2 when the provider refuses the calls: the runs pause, and the check says which and where to look", async () => {
    const server = await startFakeOpenAIServer({ respond: () => "unused" });
    try {
      server.failNext(10_000, { status: 401, message: "Incorrect API key provided" });
      const folder = path.join(dir, "provider");
      const config = exampleIn(folder);
      const parsed = JSON.parse(fs.readFileSync(config, "utf8")) as { arms: Array<Record<string, unknown>>; taskSets: Array<Record<string, unknown>>; repeats: number };
      for (const arm of parsed.arms) arm.model = "compatible:fake-model";
      parsed.taskSets[0]!.taskIds = ["qa-builtin-01"];
      parsed.repeats = 1;
      fs.writeFileSync(config, JSON.stringify(parsed));
      const result = await runCli(["check", "--config", config, "--junit", path.join(folder, "out.xml")], { REFLEXION_DB_PATH: path.join(dir, "provider.sqlite"), OPENAI_COMPATIBLE_BASE_URL: server.baseUrl });
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toMatch(/could not run: Task set "qa": 2 run\(s\) of experiment \S+ did not end: qa-builtin-01\/baseline \(\w+\)/);
      expect(result.stderr).toContain("npm run cli -- events --run");
      expect(result.stderr).toContain("Incorrect API key provided");
      expect(fs.existsSync(path.join(folder, "out.xml"))).toBe(false);
    } finally {
      await server.close();
    }
  }, 120_000);
});
