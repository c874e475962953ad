/**
 * `verify-code` without the CLI around it: the same work as `bin/cli.ts verify-code --dataset
 * FILE` (read the dataset, a sandbox pool of 2 per engine, every reference solution against its
 * hidden tests, the same report), importing only the code family and the sandbox. bench/code.bench.ts
 * times it as a whole process next to the CLI, to separate the sandbox's cost from the CLI's
 * start-up (tsx + the imports of every command). Usage: `tsx bench/code-verify.ts FILE`.
 */
import { formatVerificationReport, readCodeTaskFile, summarizeVerification, verifyReferenceSolutions } from "@/lib/environments/code";
import { createSandboxPool } from "@/lib/sandbox";

async function main(): Promise<void> {
  const file = process.argv[2];
  if (!file) throw new Error("usage: tsx bench/code-verify.ts <dataset file>");
  const { tasks } = readCodeTaskFile(file);
  const pool = createSandboxPool({ size: 2 });
  try {
    const results = await verifyReferenceSolutions(tasks, pool);
    process.stdout.write(`${formatVerificationReport(results)}\n`);
    process.exitCode = summarizeVerification(results).failed === 0 ? 0 : 1;
  } finally {
    await pool.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 2;
});
