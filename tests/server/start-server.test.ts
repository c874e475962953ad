import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * What instrumentation.ts runs when a server instance starts: a bad setting refuses the start with
 * the setting named (every page would fail otherwise); a good one starts. In a child process,
 * because a refused start exits the process.
 */
describe("startServer", () => {
  /** `args`: what `next start` would be given (`-H 127.0.0.1`, as `npm start` does; without it Next listens everywhere). */
  const start = (env: Record<string, string>, args: string[] = ["-H", "127.0.0.1"]) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "start-server-"));
    try {
      const script = 'import { startServer } from "@/lib/server/start-server"; startServer(); console.log("started"); process.exit(0);';
      return spawnSync(path.join(process.cwd(), "node_modules/.bin/tsx"), ["-e", script, "--", ...args], {
        cwd: process.cwd(),
        encoding: "utf8",
        timeout: 60_000,
        env: { ...process.env, REFLEXION_DB_PATH: path.join(dir, "app.sqlite"), REFLEXION_DATABASE_URL: "", ...env },
      });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  };

  it("refuses to start on a bad setting, naming it, with exit status 1", () => {
    const result = start({ REFLEXION_CONCURRENCY: "abc" });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('Reflexion Playground cannot start: REFLEXION_CONCURRENCY must be a positive whole number (got "abc")');
    expect(result.stdout).not.toContain("started");
  });

  it("refuses to listen beyond loopback without sign-in unless REFLEXION_ALLOW_OPEN_NETWORK=1", () => {
    const open = start({}, ["-H", "0.0.0.0"]);
    expect(open.status).toBe(1);
    expect(open.stderr).toContain("Reflexion Playground cannot start: it would listen on every network interface without sign-in");
    expect(open.stderr).toContain("REFLEXION_ALLOW_OPEN_NETWORK=1");
    const allowed = start({ REFLEXION_ALLOW_OPEN_NETWORK: "1" }, ["-H", "0.0.0.0"]);
    expect(allowed.stdout).toContain("started");
  });

  it("refuses REFLEXION_SIGN_IN=on without shared mode", () => {
    const result = start({ REFLEXION_SIGN_IN: "on" });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("REFLEXION_SIGN_IN=on needs shared mode");
  });

  it("starts with the defaults", () => {
    const result = start({});
    expect(result.stderr).not.toContain("cannot start");
    expect(result.stdout).toContain("started");
    expect(result.status).toBe(0);
  });
});
