import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    include: ["tests/**/*.test.ts"],
    environment: "node",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // One test file per core. Vitest's default for `vitest run` is availableParallelism - 1: a single
    // worker on a 2-core machine, so the files ran one after another (the full run's wall time was the
    // sum of its files' times plus their imports). Many files wait on child processes (the CLI,
    // PostgreSQL, Pyodide), so a second worker overlaps that waiting. Measured on 2 cores with
    // tests/{cli,settings,sandbox,optimiser,domain} without the slow tests (68 files): 1 worker 118-119 s,
    // 2 workers 80 s, 3 workers 79 s — a third worker only adds contention.
    maxWorkers: "100%",
    tags: [
      {
        name: "slow",
        description:
          "Spawns the CLI for whole runs, starts a throw-away PostgreSQL server, or runs the guides' `bash runnable` blocks " +
          "(a block of about 10 s or more on 2 cores). Left out of `npm test`; run by `npm run test:slow`, `npm run test:all` and CI.",
      },
    ],
  },
});
