import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { validateXML } from "xmllint-wasm";
import { CheckConfigError, checkConfigJsonSchema, parseCheckConfig, type CheckConfig } from "@/lib/domain/ci-check/config";
import { evaluateCheck, pairedOf } from "@/lib/domain/ci-check/evaluate";
import { checkJunitXml, checkMarkdown, checkPassed, type CheckReport } from "@/lib/domain/ci-check/report";
import { experimentSummarySchema, type ArmResult, type ExperimentSummary } from "@/lib/domain/experiment";
import { compareArms } from "@/lib/domain/experiment-tests";

const xsd = fs.readFileSync(path.resolve(__dirname, "../fixtures/junit/junit-10.xsd"), "utf8");

const base = {
  taskSets: [{ family: "qa", dataset: "builtin" }],
  arms: [
    { label: "A", strategy: "reflexion" },
    { label: "B", strategy: "reflexion" },
  ],
  assertions: [{ arm: "B", metric: "final-success", op: ">=", value: 0.5 }],
};

function parse(value: unknown): CheckConfig {
  return parseCheckConfig(JSON.stringify(value), "check.json");
}

function messageOf(value: unknown): string {
  try {
    parse(value);
  } catch (error) {
    expect(error).toBeInstanceOf(CheckConfigError);
    return (error as Error).message;
  }
  throw new Error("expected the config to be refused");
}

describe("reflexion.check.json", () => {
  it("takes the defaults (demo model, 1 repeat, 3 trials, paired at α 0.05 with >=)", () => {
    const config = parse({ ...base, assertions: [...base.assertions, { metric: "paired", candidate: "B", baseline: "A" }] });
    expect(config.arms[0]!.model).toBe("demo");
    expect(config).toMatchObject({ repeats: 1, maxTrials: 3, name: "template check" });
    expect(config.assertions[1]).toEqual({ metric: "paired", candidate: "B", baseline: "A", op: ">=", alpha: 0.05 });
  });

  it("names the bad field of a broken config", () => {
    expect(messageOf({ ...base, assertions: [{ arm: "B", metric: "final-success", op: ">=", value: 80 }] })).toMatch(/^check\.json: assertions\[0\]\.value: .*1/);
    expect(messageOf({ ...base, assertions: [{ arm: "C", metric: "final-success", op: ">=", value: 0.8 }] })).toContain('assertions[0].arm: no arm "C" (the arms are "A", "B")');
    expect(messageOf({ ...base, assertions: [{ metric: "paired", candidate: "B", baseline: "B" }] })).toContain("assertions[0].baseline: candidate and baseline must be two different arms");
    expect(messageOf({ ...base, arms: [{ label: "A", strategy: "reflexion", model: "gpt-4" }] })).toContain("arms[0].model: model id must be");
    expect(messageOf({ ...base, arms: [{ label: "A", strategy: "reflexion", templates: { reflector: "ask for a plan" } }] })).toContain("arms[0].templates.reflector");
    expect(messageOf({ ...base, repeat: 3 })).toMatch(/the file: .*repeat/);
    expect(messageOf({ ...base, assertions: [{ arm: "B", metrc: "final-success", op: ">=", value: 0.5 }] })).toContain('assertions[0].metric: Invalid discriminator value');
    expect(messageOf({ ...base, assertions: [{ arm: "B", metrc: "final-success", op: ">=", value: 0.5 }] })).toContain('there is no "metric" field: found "arm", "metrc", "op", "value"; did you mean "metric" instead of "metrc"?');
    expect(messageOf({ ...base, assertions: [{ arm: "B", metric: "median", op: ">=", value: 0.5 }] })).toContain("assertions[0].metric");
    expect(messageOf({ ...base, assertions: [{ arm: "B", metric: "success-at-trial", trial: 9, op: ">=", value: 0.5 }] })).toContain("assertions[0].trial: trial 9 is past maxTrials (3)");
    expect(() => parseCheckConfig("{ nope", "check.json")).toThrow(/check\.json is not valid JSON/);
  });

  it("reads YAML when the file's name ends in .yaml or .yml, with the same rules", () => {
    const yaml = [
      "name: QA reflector",
      "taskSets:",
      "  - { family: qa, dataset: builtin }",
      "arms:",
      "  - { label: A, strategy: reflexion }",
      "  - label: B",
      "    strategy: reflexion",
      "    templates: { reflector: { file: prompts/qa-reflector.txt } }",
      "assertions:",
      "  - { arm: B, metric: final-success, op: '>=', value: 0.8 }",
      "  - { metric: paired, candidate: B, baseline: A }",
    ].join("\n");
    const config = parseCheckConfig(yaml, "reflexion.check.yml");
    expect(config.arms[1]!.templates).toEqual({ reflector: { file: "prompts/qa-reflector.txt" } });
    expect(config.assertions[1]).toMatchObject({ metric: "paired", op: ">=", alpha: 0.05 });
    expect(() => parseCheckConfig(yaml.replace("value: 0.8", "value: 80"), "check.yaml")).toThrow(/^check\.yaml: assertions\[0\]\.value: /);
    expect(() => parseCheckConfig("arms: [", "check.yaml")).toThrow(/check\.yaml is not valid YAML/);
    // The same text under a .json name is read as JSON.
    expect(() => parseCheckConfig(yaml, "check.json")).toThrow(/is not valid JSON/);
  });
});

/** An arm result with `solved` of `tasks` tasks solved by the last of `trials` trials (one repetition). */
function arm(label: string, solvedByTrial: number[], tasks: number, extra: Partial<ArmResult> = {}): ArmResult {
  return {
    label,
    strategy: "reflexion",
    modelId: "demo",
    tasks,
    trials: solvedByTrial.length,
    repeats: 1,
    successByTrial: solvedByTrial,
    successByTrialCI: solvedByTrial.map((n) => [Math.max(0, n - 1), Math.min(tasks, n + 1)] as [number, number]),
    intervalMethod: "wilson",
    costPerSolvedUsd: 0.002,
    finished: tasks,
    calls: { live: 10, cached: 2 },
    tokens: { input: 100, output: 10 },
    costUsd: 0.01,
    costByRole: { acting: 0.008, evaluating: 0, reflecting: 0.002 },
    costToFirstSuccessUsd: 0.001,
    falsePositives: 0,
    halts: 0,
    ...extra,
  };
}

/** A summary of two arms over 10 code tasks: A solves all, B solves 2 (the 8 others solved by A only). */
function summary(environment: "qa" | "code", armB: Partial<ArmResult> = {}): ExperimentSummary {
  const tasks = Array.from({ length: 10 }, (_, i) => `t${i}`);
  const unit = (taskId: string, solved: boolean) => ({ taskId, repetition: 1, ended: true, solvedAtTrial: solved ? 1 : null, costUsd: 0.001 });
  const tests = compareArms(
    { label: "A", trials: 2, units: tasks.map((id) => unit(id, true)) },
    { label: "B", trials: 2, units: tasks.map((id, i) => unit(id, i < 2)) },
  );
  return experimentSummarySchema.parse({
    experiment: {
      id: "ex-1",
      createdAt: "2026-01-01T00:00:00.000Z",
      definition: { name: "x", environment, taskSet: "builtin", taskIds: tasks, arms: [{ label: "A", strategy: "reflexion", modelId: "demo" }, { label: "B", strategy: "reflexion", modelId: "demo" }], maxTrials: 2, concurrency: 1 },
      taskSetName: "Built-in",
      provenance: null,
    },
    status: "ended",
    progress: { total: 20, done: 20, etaMs: null },
    arms: [arm("A", [10, 10], 10), arm("B", [1, 2], 10, armB)],
    cells: [],
    tests,
  });
}

describe("evaluating assertions on an experiment summary", () => {
  it("final success and success at a trial are shares of the runs, with the summary's interval", () => {
    const config = parse({ ...base, assertions: [{ arm: "A", metric: "final-success", op: ">=", value: 0.9 }, { arm: "B", metric: "success-at-trial", trial: 1, op: ">", value: 0.1 }] });
    const { assertions, arms } = evaluateCheck(config, [{ label: "qa", hiddenTests: false, summary: summary("qa") }]);
    expect(assertions.map((a) => [a.name, a.value, a.interval, a.passed])).toEqual([
      ["qa: A final-success >= 0.9", 1, [0.9, 1], true],
      ["qa: B success-at-trial 1 > 0.1", 0.1, [0, 0.2], false],
    ]);
    expect(assertions[1]!.message).toBe("10.0 % of 10 runs solved by trial 1 (95 % interval 0.0 %–20.0 %); required > 10.0 %.");
    expect(arms.map((row) => [row.label, row.finalSuccess, row.runs])).toEqual([["A", 1, 10], ["B", 0.2, 10]]);
  });

  it("paired: fails only when the candidate is significantly worse (McNemar), whichever arm came first in the experiment", () => {
    const worse = parse({ ...base, assertions: [{ metric: "paired", candidate: "B", baseline: "A" }] });
    const [result] = evaluateCheck(worse, [{ label: "qa", hiddenTests: false, summary: summary("qa") }]).assertions;
    expect(result).toMatchObject({ passed: false, value: -0.8 });
    expect(result!.message).toContain("solved by B only: 0, by A only: 8; exact McNemar p = 0.008");
    expect(result!.message).toContain("B is significantly worse than A");
    // The other way round the candidate is better: `>=` passes, and so does `>` (significantly better).
    const better = parse({ ...base, assertions: [{ metric: "paired", candidate: "A", baseline: "B" }, { metric: "paired", candidate: "A", baseline: "B", op: ">" }] });
    const results = evaluateCheck(better, [{ label: "qa", hiddenTests: false, summary: summary("qa") }]).assertions;
    expect(results.map((r) => [r.passed, r.value])).toEqual([[true, 0.8], [true, 0.8]]);
    const flipped = pairedOf(summary("qa").tests ?? [], "B", "A")!;
    expect([flipped.a, flipped.b, flipped.aOnly, flipped.bOnly]).toEqual(["B", "A", 0, 8]);
    expect(flipped.ci[0]).toBeLessThanOrEqual(flipped.ci[1]);
  });

  it("false-positive rate (code only, Wilson interval) and cost per solved (fails when it cannot be measured)", () => {
    const config = parse({
      ...base,
      taskSets: [{ family: "code", dataset: "builtin" }],
      assertions: [
        { arm: "B", metric: "false-positive-rate", op: "<=", value: 0.05 },
        { arm: "A", metric: "cost-per-solved", op: "<=", value: 0.001 },
        { arm: "B", metric: "cost-per-solved", op: "<=", value: 1 },
      ],
    });
    const results = evaluateCheck(config, [{ label: "code", hiddenTests: true, summary: summary("code", { falsePositives: 3, costPerSolvedUsd: null, costUsd: null }) }]).assertions;
    expect(results[0]).toMatchObject({ value: 0.3, passed: false, message: "3 of 10 runs passed the internal tests and failed the hidden ones (30.0 %); required <= 5.0 %." });
    expect(results[0]!.interval![0]).toBeGreaterThan(0.1);
    expect(results[1]).toMatchObject({ value: 0.002, passed: false });
    expect(results[2]).toMatchObject({ value: null, passed: false });
    expect(results[2]!.message).toContain("some calls have no known price");
  });
});

function report(assertionsPassed: boolean[]): CheckReport {
  return {
    name: 'QA <reflector> & "friends"',
    assertions: assertionsPassed.map((passed, i) => ({
      name: `qa: arm${i} final-success >= 0.8`,
      taskSet: "qa",
      metric: "final-success",
      value: passed ? 0.9 : 0.2,
      interval: [0.1, 0.95],
      threshold: ">= 0.8",
      passed,
      message: passed ? "90.0 % of 10 runs." : "20.0 % of 10 runs | <all> & 'none' \u0007; required >= 80.0 %.",
    })),
    arms: [{ taskSet: "qa", label: "a|b", strategy: "reflexion", modelId: "demo", runs: 10, finalSuccess: 0.9, interval: [0.6, 1], intervalMethod: "wilson", costUsd: 0, calls: { live: 3, cached: 1 } }],
    experiments: [{ taskSet: "qa", experimentId: "ex-1" }],
    calls: { live: 3, cached: 1 },
    seconds: 1.5,
    startedAt: "2026-12-04T21:00:00.123Z",
  };
}

async function validate(xml: string) {
  return validateXML({ xml: [{ fileName: "report.xml", contents: xml }], schema: [{ fileName: "junit-10.xsd", contents: xsd }] });
}

describe("reports", () => {
  it("JUnit XML: one testcase per assertion, a <failure> with the message for each failed one, valid against junit-10.xsd", async () => {
    const xml = checkJunitXml(report([true, false]));
    const result = await validate(xml);
    expect(result.errors, result.rawOutput).toEqual([]);
    expect(xml).toContain('<testsuite name="reflexion check: QA &lt;reflector&gt; &amp; &quot;friends&quot;" tests="2" failures="1" errors="0" skipped="0" time="1.500" timestamp="2026-12-04T21:00:00">');
    expect(xml.match(/<testcase /g)).toHaveLength(2);
    expect(xml).toContain('<failure message="20.0 % of 10 runs | &lt;all&gt; &amp; &apos;none&apos; ; required &gt;= 80.0 %." type="AssertionFailed">');
    // The schema does catch a broken report: a testsuite without its required failures count.
    const broken = await validate(xml.replace(' failures="1"', ""));
    expect(broken.valid).toBe(false);
    expect(checkPassed(report([true, false]))).toBe(false);
    expect(checkPassed(report([true]))).toBe(true);
  });

  it("Markdown: the verdict, a row per assertion and per arm (pipes escaped), the demo label", () => {
    const markdown = checkMarkdown(report([true, false]));
    expect(markdown).toContain("— ❌ 1 of 2 assertions failed");
    expect(markdown).toContain("| ❌ fail | qa: arm1 final-success >= 0.8 | 20.0 % [10.0 %, 95.0 %] | >= 0.8 | 20.0 % of 10 runs \\| <all>");
    expect(markdown).toContain("| qa | a\\|b | reflexion | demo | 10 | 90.0 % [60.0 %, 100.0 %] | 3 / 1 | $0.0000 |");
    expect(markdown).toContain("scripted stand-in");
    expect(checkMarkdown(report([true]))).toContain("— ✅ all 1 assertions passed");
  });
});

describe("the shipped example and its docs", () => {
  const root = path.resolve(__dirname, "../..");
  const doc = fs.readFileSync(path.join(root, "docs/template-checks.md"), "utf8");

  it("reflexion.check.json is a valid config, and the one docs/template-checks.md shows", () => {
    const text = fs.readFileSync(path.join(root, "reflexion.check.json"), "utf8");
    const config = parseCheckConfig(text, "reflexion.check.json");
    expect(config.arms.map((a) => a.label)).toEqual(["baseline", "candidate"]);
    const shown = /## The config: `reflexion\.check\.json`\n\n```json\n([\s\S]*?)```/.exec(doc)?.[1];
    expect(JSON.parse(shown ?? "null")).toEqual(JSON.parse(text));
  });

  it("docs/reflexion.check.schema.json is the config's JSON Schema as `cli check --print-schema` prints it", () => {
    const shipped: unknown = JSON.parse(fs.readFileSync(path.join(root, "docs/reflexion.check.schema.json"), "utf8"));
    expect(shipped, "regenerate with: npm run -s cli -- check --print-schema > docs/reflexion.check.schema.json").toEqual(checkConfigJsonSchema());
    expect(JSON.stringify(shipped)).toContain('"required":["taskSets","arms","assertions"]');
  });

  it("the workflow in the doc is docs/examples/template-check.yml, and it runs cli check with --junit and comments the summary", () => {
    const yml = fs.readFileSync(path.join(root, "docs/examples/template-check.yml"), "utf8");
    expect(doc).toContain(`\`\`\`yaml\n${yml}\`\`\``);
    expect(yml).toContain("npm run -s cli -- check --junit check-results.xml --markdown check-summary.md");
    expect(yml).toMatch(/sticky-pull-request-comment@v2[\s\S]*path: check-summary\.md/);
  });
});
