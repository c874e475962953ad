import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parse } from "csv-parse/sync";
import { afterAll, describe, expect, it } from "vitest";
import { foldRun } from "@/lib/domain/fold-run";
import { asRunId } from "@/lib/domain/ids";
import { SqliteRunStore } from "@/lib/db/sqlite-store";
import { cacheKeyOf } from "@/lib/llm/caching-model-port";
import { runCli, spawnCli } from "./run-cli";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cli-experiment-repeats-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const hotpotFile = path.resolve(__dirname, "../../../shared/data/hotpotqa/hotpotqa-distractor-reflexion-sample100.json");

interface SummaryLine {
  type: string;
  experimentId: string;
  repeats: number;
  dataset?: { hash: string; tasks: number };
  arms: Array<{ label: string; tasks: number; repeats: number; successByTrial: number[]; successByTrialCI: Array<[number, number]>; intervalMethod: string }>;
  tests: Array<{ a: string; b: string; metric: string; method: string; n: number; p: number; effect: number; ci: [number, number]; aOnly?: number; bOnly?: number; differs: boolean }>;
}
const lastLine = (stdout: string) => JSON.parse(stdout.trim().split("\n").at(-1)!) as SummaryLine;

describe("cli experiment with repeats", { tags: ["slow"] }, () => {
  it("none vs reflexion × 3 repeats: intervals contain the means, the final-success test differs (p < 0.05), and every export agrees with the summary", { timeout: 240_000 }, async () => {
    const env = { REFLEXION_DB_PATH: path.join(dir, "done-when.sqlite") };
    const result = await runCli(["experiment", "run", "--env", "qa", "--tasks", "builtin", "--arms", "none,reflexion", "--model", "demo", "--trials", "4", "--repeats", "3", "--json"], env);
    expect(result.code, result.stderr).toBe(0);
    const summary = lastLine(result.stdout);
    expect(summary.repeats).toBe(3);
    expect(summary.dataset?.hash).toMatch(/^[0-9a-f]{64}$/);
    for (const arm of summary.arms) {
      expect(arm).toMatchObject({ repeats: 3, tasks: 12, intervalMethod: "bootstrap" });
      expect(arm.successByTrialCI).toHaveLength(4);
      arm.successByTrial.forEach((mean, k) => {
        const [lo, hi] = arm.successByTrialCI[k]!;
        expect(lo).toBeLessThanOrEqual(mean);
        expect(hi).toBeGreaterThanOrEqual(mean);
      });
    }
    // The seeded demo model spreads: reflexion's repetitions do not all solve at trial 2.
    const reflexion = summary.arms.find((arm) => arm.label === "reflexion")!;
    expect(reflexion.successByTrial[3]!).toBeGreaterThan(reflexion.successByTrial[1]!);
    const finalSuccess = summary.tests.find((test) => test.metric === "final-success")!;
    expect(finalSuccess).toMatchObject({ a: "none", b: "reflexion", method: "exact McNemar", n: 36, differs: true });
    expect(finalSuccess.p).toBeLessThan(0.05);
    expect(finalSuccess.ci[1]).toBeLessThan(0);
    expect(summary.tests.map((test) => test.metric)).toEqual(["final-success", "auc", "cost"]);

    // The long CSV parsed back: one row per task × arm × repetition × trial, and the solved flags give the curves.
    const csvOut = await runCli(["experiment", "export", "--id", summary.experimentId, "--format", "csv"], env);
    const rows = parse(csvOut.stdout, { columns: true }) as Array<Record<string, string>>;
    expect(rows).toHaveLength(12 * 2 * 3 * 4);
    expect(new Set(rows.map((row) => row.dataset_hash))).toEqual(new Set([summary.dataset!.hash]));
    expect(new Set(rows.map((row) => row.seed))).toEqual(new Set(["0", "1", "2"]));
    for (const arm of summary.arms) {
      arm.successByTrial.forEach((mean, k) => {
        const solved = rows.filter((row) => row.arm === arm.label && Number(row.trial) === k + 1 && row.solved_so_far === "true").length;
        expect(solved / 3).toBeCloseTo(mean, 10);
      });
    }
    expect(rows.some((row) => row.carried_forward === "true" && row.model_calls === "0")).toBe(true);

    // compare prints the same tests; the tables and the figure carry the intervals.
    const compared = await runCli(["experiment", "compare", "--id", summary.experimentId, "--a", "none", "--b", "reflexion"], env);
    expect(compared.stdout).toMatch(/none vs reflexion — final success: exact McNemar, n = 36, discordant 0 vs \d+, p < 0\.001, .* → differs/);
    expect(compared.stdout).not.toContain("p = <");
    const compareJson = JSON.parse((await runCli(["experiment", "compare", "--id", summary.experimentId, "--a", "reflexion", "--b", "none", "--json"], env)).stdout) as { tests: SummaryLine["tests"] };
    expect(compareJson.tests[0]!.effect).toBeCloseTo(-finalSuccess.effect, 10);
    const md = (await runCli(["experiment", "export", "--id", summary.experimentId, "--format", "md"], env)).stdout;
    expect(md).toMatch(/\| reflexion \| reflexion \| demo \| [\d.]+ \[[\d.]+, [\d.]+\] \|/);
    expect(md).toContain("bootstrap intervals over tasks and, within each, repetitions");
    const tex = (await runCli(["experiment", "export", "--id", summary.experimentId, "--format", "latex"], env)).stdout;
    expect(tex).toContain("\\begin{tabular}");
    expect(tex).toMatch(/\\end\{document\}\n$/);
    expect(/[^\x00-\x7f]/.test(tex)).toBe(false);
    // Where a TeX installation is present (Debian: texlive-latex-recommended), the document compiles.
    if (fs.existsSync("/usr/bin/pdflatex")) {
      fs.writeFileSync(path.join(dir, "tables.tex"), tex);
      execFileSync("/usr/bin/pdflatex", ["-interaction=nonstopmode", "-halt-on-error", "tables.tex"], { cwd: dir, stdio: "pipe", timeout: 60_000 });
      expect(fs.statSync(path.join(dir, "tables.pdf")).size).toBeGreaterThan(1000);
    }
    const svg = (await runCli(["experiment", "export", "--id", summary.experimentId, "--format", "svg"], env)).stdout;
    expect(svg.match(/<polygon class="band"/g)).toHaveLength(2);
    expect(svg).toContain("95 % bootstrap intervals over tasks and repetitions (R = 3)");
    const costSvg = (await runCli(["experiment", "export", "--id", summary.experimentId, "--format", "svg", "--figure", "cost"], env)).stdout;
    expect(costSvg.match(/class="whisker"/g)).toHaveLength(2);
  });

  it("two identical arms: p = 1 and intervals containing 0 on every test", { timeout: 120_000 }, async () => {
    const env = { REFLEXION_DB_PATH: path.join(dir, "identical.sqlite") };
    const result = await runCli(["experiment", "run", "--env", "qa", "--tasks", "builtin", "--task-ids", "qa-builtin-01,qa-builtin-02,qa-builtin-03,qa-builtin-04", "--arms", "reflexion,reflexion", "--trials", "3", "--repeats", "3", "--json"], env);
    expect(result.code, result.stderr).toBe(0);
    const summary = lastLine(result.stdout);
    expect(summary.arms.map((arm) => arm.label)).toEqual(["reflexion", "reflexion-2"]);
    expect(summary.arms[0]!.successByTrial).toEqual(summary.arms[1]!.successByTrial);
    for (const test of summary.tests) {
      expect(test.p).toBe(1);
      expect(test.ci[0]).toBeLessThanOrEqual(0);
      expect(test.ci[1]).toBeGreaterThanOrEqual(0);
      expect(test.differs).toBe(false);
    }
  });

  it("killed mid-way and resumed: one run per task × arm × repetition, no cached call made live again, and the same curves as an uninterrupted run", { timeout: 240_000 }, async () => {
    const args = ["experiment", "run", "--env", "qa", "--tasks", "builtin", "--task-ids", "qa-builtin-01,qa-builtin-02,qa-builtin-03,qa-builtin-04,qa-builtin-05,qa-builtin-06", "--arms", "none,reflexion", "--trials", "3", "--repeats", "2", "--concurrency", "2"];
    const env = { REFLEXION_DB_PATH: path.join(dir, "kill.sqlite"), REFLEXION_DEMO_DELAY_MS: "8" };
    const child = spawnCli(args, env);
    let stderr = "";
    child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const closed = new Promise((resolve) => child.on("close", resolve));
    const store = new SqliteRunStore(env.REFLEXION_DB_PATH);
    try {
      let experimentId: string | undefined;
      for (let i = 0; i < 400 && !experimentId; i += 1) {
        experimentId = /Experiment ([0-9a-f-]{36}):/.exec(stderr)?.[1];
        await sleep(25);
      }
      if (!experimentId) throw new Error(`no experiment id on stderr: ${stderr}`);
      const ended = async () => {
        let n = 0;
        for (const link of await store.experiments.listExperimentRuns(experimentId!)) {
          const run = await store.getRun(asRunId(link.runId));
          if ((await store.getBranchSummary(run!.rootBranchId))?.status === "ended") n += 1;
        }
        return n;
      };
      for (let i = 0; i < 400 && (await ended()) < 4; i += 1) await sleep(25);
      child.kill("SIGKILL");
      await closed;
      expect(await ended()).toBeLessThan(24);

      const resumed = await runCli(["experiment", "resume", "--id", experimentId, "--json"], env);
      expect(resumed.code, resumed.stderr).toBe(0);
      const links = await store.experiments.listExperimentRuns(experimentId);
      expect(links).toHaveLength(24); // 6 tasks × 2 arms × 2 repetitions
      expect(new Set(links.map((link) => `${link.taskId}/${link.arm}`)).size).toBe(24);
      expect(await store.listRuns(100)).toHaveLength(24);
      const liveKeys: string[] = [];
      for (const link of links) {
        const run = await store.getRun(asRunId(link.runId));
        const log = await store.list(run!.id, run!.rootBranchId);
        expect(foldRun(log).status).toBe("ended");
        const seen: Record<string, number> = {};
        for (const event of log) {
          if (event.type !== "model-call-end") continue;
          const occurrence = seen[event.data.requestHash] ?? 0;
          seen[event.data.requestHash] = occurrence + 1;
          if (event.data.source === "live") liveKeys.push(cacheKeyOf(event.data.requestHash, occurrence, run!.config.cacheScope));
        }
      }
      expect(new Set(liveKeys).size).toBe(liveKeys.length);

      const fresh = await runCli([...args, "--json"], { REFLEXION_DB_PATH: path.join(dir, "fresh.sqlite") });
      expect(fresh.code, fresh.stderr).toBe(0);
      const curves = (line: SummaryLine) => line.arms.map((arm) => [arm.successByTrial, arm.successByTrialCI]);
      expect(curves(lastLine(resumed.stdout))).toEqual(curves(lastLine(fresh.stdout)));
    } finally {
      await store.close();
    }
  });

  it("pins its tasks by content: resume with a changed task file is refused with the difference, and nothing is lost", { timeout: 120_000 }, async () => {
    const env = { REFLEXION_DB_PATH: path.join(dir, "pin.sqlite") };
    const tasks = (JSON.parse(fs.readFileSync(hotpotFile, "utf8")) as Array<Record<string, unknown>>).slice(0, 2);
    const original = path.join(dir, "two.json");
    fs.writeFileSync(original, JSON.stringify(tasks));
    const result = await runCli(["experiment", "run", "--env", "qa", "--tasks", original, "--arms", "none", "--trials", "1", "--json"], env);
    expect(result.code, result.stderr).toBe(0);
    const summary = lastLine(result.stdout);
    expect(result.stderr).toContain(`Tasks pinned by content: ${summary.dataset!.hash.slice(0, 12)}`);
    const changed = path.join(dir, "two-changed.json");
    fs.writeFileSync(changed, JSON.stringify([tasks[0], { ...tasks[1], answer: "something else" }]));
    const refused = await runCli(["experiment", "resume", "--id", summary.experimentId, "--tasks", changed], env);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain(`tasks 1 changed (${String(tasks[1]!.id)})`);
    expect(refused.stderr).toContain(`pinned ${summary.dataset!.hash.slice(0, 12)}`);
    const again = await runCli(["experiment", "resume", "--id", summary.experimentId, "--tasks", original, "--json"], env);
    expect(again.code, again.stderr).toBe(0);
    expect(lastLine(again.stdout).dataset).toEqual(summary.dataset);
  });
});
