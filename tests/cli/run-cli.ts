import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import type { RunEvent } from "@/lib/domain/events";
import { runEventSchema } from "@/lib/domain/events";

const root = path.resolve(__dirname, "../..");

/** Result of one CLI invocation. */
export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Starts `node --import tsx bin/cli.ts <args>` (one process, so a signal reaches the
 * CLI itself rather than a tsx wrapper) with a clean provider environment plus `env`.
 */
export function spawnCli(args: string[], env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, ["--import", "tsx", "bin/cli.ts", ...args], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "/tmp",
      NODE_ENV: "test",
      // A developer's .env.local must not reach the tests (lib/cli/env-files.ts).
      REFLEXION_ENV_FILES: "off",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
}

/** Runs the CLI to completion. */
export function runCli(args: string[], env: Record<string, string>): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawnCli(args, env);
    let stdout = "";
    let stderr = "";
    child.stdout?.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** Runs the CLI to completion with `input` written to its stdin (then closed). */
export function runCliWithInput(args: string[], env: Record<string, string>, input: string): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "bin/cli.ts", ...args], {
      cwd: root,
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", NODE_ENV: "test", REFLEXION_ENV_FILES: "off", ...env },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout?.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin?.end(input);
  });
}

/** Parses `--json` output: one stored event envelope per line, validated against the catalogue. */
export function parseJsonLines(stdout: string): RunEvent[] {
  return stdout
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => runEventSchema.parse(JSON.parse(line)));
}
