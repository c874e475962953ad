/**
 * Bench: verify every HumanEval canonical solution in the sandbox, cold pool and
 * warm pool. Run from the repo root: `npx tsx bench/code.bench.ts [--size N] [--dataset file]`.
 *
 * Prints the wall time (ms) of: pool start-up until warm, the cold run (first
 * verification, right after the pool became ready, workers never used), the warm
 * run (same pool again), and the pass counts. The official human-eval harness
 * takes ~15 s on this 2-core machine (reference figure from the issue).
 */
import path from "node:path";
import { readCodeTaskFile, summarizeVerification, verifyReferenceSolutions } from "@/lib/environments/code";
import { createSandboxPool } from "@/lib/sandbox";

function argument(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 && process.argv[at + 1] ? process.argv[at + 1]! : fallback;
}

async function main(): Promise<void> {
  const dataset = path.resolve(process.cwd(), argument("dataset", "../shared/data/humaneval/HumanEval.jsonl.gz"));
  const size = Number(argument("size", "2"));
  const { tasks, problems } = readCodeTaskFile(dataset);
  if (problems.length > 0) console.log(`skipped records: ${problems.length}\n${problems.slice(0, 5).join("\n")}`);
  const engines = [...new Set(tasks.map((task) => (task.language === "python" ? "python" : "javascript") as "python" | "javascript"))];

  const t0 = performance.now();
  const counts = new Map<string, number>();
  const reasons: string[] = [];
  const pool = createSandboxPool({
    size,
    warm: engines,
    onEvent: (event) => {
      counts.set(event.type, (counts.get(event.type) ?? 0) + 1);
      if (event.type === "recycle" || event.type === "kill") reasons.push(`${event.type}: ${event.detail}`);
    },
  });
  try {
    await pool.warmup();
    const startup = performance.now() - t0;

    const t1 = performance.now();
    const cold = summarizeVerification(await verifyReferenceSolutions(tasks, pool));
    const coldMs = performance.now() - t1;

    const t2 = performance.now();
    const warmResults = await verifyReferenceSolutions(tasks, pool);
    const warm = summarizeVerification(warmResults);
    const warmMs = performance.now() - t2;

    const ms = (value: number) => `${Math.round(value)} ms`;
    console.log(`dataset: ${path.relative(process.cwd(), dataset)} (${tasks.length} tasks), pool size ${size}, isolation: ${pool.info().isolation.os ? "OS namespaces" : "permission model only"}`);
    console.log(`pool start-up (until warm): ${ms(startup)}`);
    console.log(`cold pool (start-up + first run): ${ms(startup + coldMs)}  [run alone: ${ms(coldMs)}] -> ${cold.passed} passed, ${cold.failed} failed, ${cold.skipped} skipped`);
    console.log(`warm pool: ${ms(warmMs)} -> ${warm.passed} passed, ${warm.failed} failed, ${warm.skipped} skipped`);
    if (warm.failedIds.length > 0) console.log(`failing: ${warm.failedIds.join(", ")}`);
    const same = JSON.stringify(cold.failedIds) === JSON.stringify(warm.failedIds);
    console.log(`identical verdicts cold vs warm: ${same ? "yes" : "NO"}`);
    console.log(`worker processes started: ${counts.get("spawn") ?? 0}, recycled: ${counts.get("recycle") ?? 0}, killed: ${(counts.get("kill") ?? 0) - (counts.get("recycle") ?? 0)}`);
    for (const reason of reasons.slice(0, 10)) console.log(`  ${reason}`);
  } finally {
    await pool.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
