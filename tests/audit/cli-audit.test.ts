import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Principal } from "@/lib/domain/roles";
import type { AuditPage } from "@/lib/domain/audit";
import type { ServerContext } from "@/lib/server/app-context";
import { runCli } from "../cli/run-cli";

/**
 * `cli audit` reads the same audit log the server writes: an edit made through the API by alice is
 * listed under her name (filtered by person and by action), and a CLI command audited with
 * auditAction is listed too. authorizeRequest answers alice (sign-in itself is not under test).
 */
const alice: Principal = { kind: "person", userId: "u-alice", name: "alice", email: null, role: "runner", tokenId: null };
vi.mock("@/lib/server/authorize", () => ({ authorizeRequest: async () => alice }));

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rp-cli-audit-"));
const dbPath = path.join(dir, "audit.sqlite");
process.env.REFLEXION_DB_PATH = dbPath;
const env = { REFLEXION_DB_PATH: dbPath };

let context: ServerContext;
let runId = "";

beforeAll(async () => {
  const runsRoute = await import("@/app/api/runs/route");
  const forkRoute = await import("@/app/api/runs/[runId]/fork/route");
  context = (await import("@/lib/server/app-context")).getServerContext();
  const post = (url: string, body: unknown) => new Request(`http://127.0.0.1${url}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const created = await runsRoute.POST(post("/api/runs", { environment: "qa", taskSet: "builtin", taskId: "qa-builtin-01", strategy: "reflexion", modelId: "demo" }));
  runId = ((await created.json()) as { runId: string }).runId;
  const run = await context.service.getRun(runId);
  await context.workers.untilSettled(run.rootBranchId);
  const events = (await context.service.events(runId)).events;
  const reflection = events.find((event) => event.type === "reflection-end")!;
  const checkpoint = events.find((event) => event.type === "checkpoint" && event.seq > reflection.seq)!;
  const forked = await forkRoute.POST(
    post(`/api/runs/${runId}/fork`, { atSeq: checkpoint.seq, edits: [{ kind: "reflection", reflectionEventId: reflection.id, text: "Name the magazine that started first." }] }),
    { params: Promise.resolve({ runId }) },
  );
  expect(forked.status).toBe(201);
  const { auditAction } = await import("@/lib/server/audit-log");
  await auditAction({ kind: "cli", id: "cli", name: "cli", userId: null }, "cli prices add", { model: "openai:gpt-4o-mini" }, 0, { env });
}, 90_000);

afterAll(async () => {
  await context.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("cli audit", { tags: ["slow"] }, () => {
  it("lists alice's edit (a fork with a reflection edit) by her name, with the run it acted on", async () => {
    const result = await runCli(["audit", "--user", "alice", "--action", "POST /api/runs/[runId]/fork"], env);
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout.trim().split("\n");
    expect(lines[0]).toMatch(/^TIME \(UTC\)\s+WHO\s+ACTION\s+TARGET\s+STATUS$/);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(new RegExp(`^\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d\\s+alice\\s+POST /api/runs/\\[runId\\]/fork\\s+runId=${runId}\\s+201$`));
  }, 60_000);

  it("--json pages every entry newest first; filters by person leave out the CLI's own", async () => {
    const all = await runCli(["audit", "--json"], env);
    expect(all.code, all.stderr).toBe(0);
    const page = JSON.parse(all.stdout) as AuditPage;
    expect(page.entries.map((entry) => [entry.action, entry.actor.name])).toEqual([
      ["cli prices add", "cli"],
      ["POST /api/runs/[runId]/fork", "alice"],
      ["POST /api/runs", "alice"],
    ]);
    const hers = JSON.parse((await runCli(["audit", "--json", "--user", "u-alice", "--limit", "1"], env)).stdout) as AuditPage;
    expect(hers.total).toBe(2);
    expect(hers.entries.map((entry) => entry.action)).toEqual(["POST /api/runs/[runId]/fork"]);
    const none = await runCli(["audit", "--since", "2999-01-01"], env);
    expect(none.stdout).toBe("No audit entries match.\n");
    const bad = await runCli(["audit", "--since", "last tuesday"], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("since must be a date or time");
  }, 60_000);
});
