import fs from "node:fs";
import path from "node:path";
import { parseEnv } from "node:util";

/** The files read, first wins for a variable set in both (Next.js's order for `.env.local` and `.env`). */
export const ENV_FILES = [".env.local", ".env"] as const;

/**
 * Gives the CLI the same provider settings as the web server: Next.js reads `.env.local` and
 * `.env` from the project root, so the CLI reads them from `dir` too (Node's `util.parseEnv`, the
 * dotenv format). A variable already in `env` wins, then `.env.local`, then `.env`. Set
 * `REFLEXION_ENV_FILES=off` to skip them (the test suite does, so a developer's keys stay out of it).
 * @returns the files that were read (names relative to `dir`).
 * @throws Error naming the file when one exists but cannot be read.
 */
export function loadEnvFiles(dir: string, env: Record<string, string | undefined>): string[] {
  const read: string[] = [];
  for (const name of ENV_FILES) {
    let text: string;
    try {
      text = fs.readFileSync(path.join(dir, name), "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") continue;
      throw new Error(`${name} could not be read (${error instanceof Error ? error.message : String(error)}); fix its permissions or remove it.`);
    }
    for (const [key, value] of Object.entries(parseEnv(text))) if (env[key] === undefined) env[key] = value;
    read.push(name);
  }
  return read;
}
