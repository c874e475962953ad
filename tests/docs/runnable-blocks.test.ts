/**
 * Runs every shell block marked `bash runnable` in README.md and docs/**\/*.md, the way
 * docs/guides/contributing.md ("Docs") promises they work: from the repository root, against a
 * fresh temporary database, offline, with no provider key (so the demo model answers).
 * Each block is one test, named `file:line first-command`, so a broken guide names itself.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fromMarkdown } from "mdast-util-from-markdown";
import type { Nodes } from "mdast";
import { afterAll, describe, expect, it, vi } from "vitest";
import { projectMarkdownFiles } from "@/scripts/doc-links-core";

const root = path.resolve(__dirname, "../..");

/** A fenced block whose info string is `bash runnable`. */
interface RunnableBlock {
  /** Path relative to the repository root. */
  file: string;
  /** 1-based line of the opening fence. */
  line: number;
  /** The block's text, without the fences. */
  script: string;
}

/**
 * The `bash runnable` blocks of one Markdown text, in document order. Uses the CommonMark
 * parser, so blocks nested in lists or quotes are found and a fence inside another block is not.
 */
function runnableBlocks(file: string, markdown: string): RunnableBlock[] {
  const found: RunnableBlock[] = [];
  const walk = (node: Nodes): void => {
    if (node.type === "code" && node.lang === "bash" && node.meta?.trim() === "runnable") {
      found.push({ file, line: node.position?.start.line ?? 0, script: node.value });
    }
    if ("children" in node) for (const child of node.children) walk(child);
  };
  walk(fromMarkdown(markdown));
  return found;
}

/**
 * First line that is a command, shortened for a test name: blank lines, comments and a bare
 * `dir=$(mktemp -d)` (which would name half the blocks alike) are skipped.
 */
function firstCommand(script: string): string {
  const skip = (l: string) => l === "" || l.startsWith("#") || /^\w+=\$\(mktemp( -d)?\)$/.test(l);
  const line = script.split("\n").map((l) => l.trim()).find((l) => !skip(l)) ?? "(empty)";
  return line.length > 90 ? `${line.slice(0, 87)}...` : line;
}

/**
 * The parent environment without provider keys and endpoints, without the playground's own
 * settings (a developer's REFLEXION_DATABASE_URL would send the block to PostgreSQL) and without
 * Vitest's markers (a block that runs Vitest itself must start like it would in a shell).
 */
function cleanEnv(): Record<string, string> {
  const provider = /(_API_KEY|_BASE_URL|_AUTH_TOKEN)$|^(OPENAI|ANTHROPIC|GOOGLE_GENERATIVE_AI|OLLAMA|AZURE|AWS)_/;
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value === undefined || provider.test(key) || key.startsWith("REFLEXION_") || /^_*VITEST/.test(key) || key === "NODE_ENV") continue;
    env[key] = value;
  }
  return env;
}

/** Keeps the last `lines` lines of a stream's output for a failure message. */
function tail(text: string, lines = 40): string {
  const all = text.trimEnd().split("\n");
  return (all.length > lines ? ["…", ...all.slice(-lines)] : all).join("\n");
}

const BLOCK_TIMEOUT_MS = 120_000;
const scratchDirs: string[] = [];

/** Runs one block under `bash -euo pipefail` with its own database and temp folder. */
function runBlock(block: RunnableBlock): Promise<{ code: number | null; signal: string | null; stdout: string; stderr: string }> {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "runnable-block-"));
  scratchDirs.push(scratch);
  const tmp = path.join(scratch, "tmp");
  fs.mkdirSync(tmp);
  // NODE_ENV is left unset as in a contributor's shell; Next's typings declare it required.
  const env = {
    ...cleanEnv(),
    REFLEXION_DB_PATH: path.join(scratch, "t.sqlite"),
    REFLEXION_ENV_FILES: "off",
    // Everything the block makes with `mktemp -d` lands here and is removed afterwards.
    TMPDIR: tmp,
  } as Record<string, string> as NodeJS.ProcessEnv;
  return new Promise((resolve, reject) => {
    const child = spawn("bash", ["-euo", "pipefail", "-c", block.script], {
      cwd: root,
      env,
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    // Kill the whole process group (npm, tsx, workers) a little before Vitest gives up on the test.
    const timer = setTimeout(() => {
      stderr += `\n[killed after ${(BLOCK_TIMEOUT_MS - 5_000) / 1000} s]`;
      if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
    }, BLOCK_TIMEOUT_MS - 5_000);
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

const files = projectMarkdownFiles(root);
const blocks = files.flatMap((file) => runnableBlocks(file, fs.readFileSync(path.join(root, file), "utf8")));

afterAll(() => {
  for (const dir of scratchDirs) fs.rmSync(dir, { recursive: true, force: true });
});

describe("runnableBlocks (the extractor)", () => {
  it("picks only fences whose info string is `bash runnable`, including one inside a list", () => {
    const fixture = [
      "# Guide",
      "",
      "```bash runnable",
      "echo first",
      "```",
      "",
      "```bash",
      "echo plain",
      "```",
      "",
      "```sh runnable",
      "echo other-language",
      "```",
      "",
      "1. A step:",
      "",
      "   ```bash runnable",
      "   echo in-list",
      "   ```",
      "",
      "````markdown",
      "```bash runnable",
      "echo quoted-in-an-example",
      "```",
      "````",
      "",
    ].join("\n");
    const found = runnableBlocks("fixture.md", fixture);
    expect(found.map((b) => [b.line, b.script])).toEqual([
      [3, "echo first"],
      [17, "echo in-list"],
    ]);
  });

  it("names a block by its first command, skipping comments and blank lines", () => {
    expect(firstCommand("\n# set up\n  npm run cli -- tasks\nnext")).toBe("npm run cli -- tasks");
    expect(firstCommand("out=$(mktemp -d)\nnpm run cli -- check")).toBe("npm run cli -- check");
  });
});

describe("runBlock (the runner)", () => {
  it("gives a block its own database, no provider key and no .env files, and fails a broken pipeline", async () => {
    vi.stubEnv("OPENAI_API_KEY", "sk-must-not-leak");
    vi.stubEnv("REFLEXION_DATABASE_URL", "postgres://must-not-leak");
    try {
      const probe = { file: "probe.md", line: 1, script: 'echo "$REFLEXION_DB_PATH|${OPENAI_API_KEY:-none}|${REFLEXION_DATABASE_URL:-none}|$REFLEXION_ENV_FILES"' };
      const [a, b] = [await runBlock(probe), await runBlock(probe)];
      expect(a.code).toBe(0);
      const [dbA = "", key, url, envFiles] = a.stdout.trim().split("|");
      expect(path.isAbsolute(dbA) && !dbA.startsWith(root)).toBe(true);
      expect(b.stdout.split("|")[0]).not.toBe(dbA);
      expect([key, url, envFiles]).toEqual(["none", "none", "off"]);
      const broken = await runBlock({ file: "probe.md", line: 1, script: "false | cat\necho unreachable" });
      expect(broken.code).not.toBe(0);
      expect(broken.stdout).not.toContain("unreachable");
    } finally {
      vi.unstubAllEnvs();
    }
  });
});

describe("docs/guides", () => {
  const guides = files.filter((f) => f.startsWith(path.join("docs", "guides") + path.sep));

  it("has guides to check", () => {
    expect(guides.length).toBeGreaterThan(0);
  });

  it.each(guides)("%s has at least one `bash runnable` block", (guide) => {
    expect(blocks.filter((b) => b.file === guide).length).toBeGreaterThan(0);
  });
});

describe("`bash runnable` blocks", { tags: ["slow"] }, () => {
  it.each(blocks.map((b) => [`${b.file}:${b.line} ${firstCommand(b.script)}`, b] as const))(
    "%s",
    async (_name, block) => {
      const result = await runBlock(block);
      const report = [
        `${block.file}:${block.line} exited with ${result.code ?? result.signal}`,
        "--- stdout (tail) ---",
        tail(result.stdout),
        "--- stderr (tail) ---",
        tail(result.stderr),
      ].join("\n");
      expect(result.code, report).toBe(0);
    },
    BLOCK_TIMEOUT_MS,
  );
});
