import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { AppError } from "@/lib/domain/errors";
import type { Principal } from "@/lib/domain/roles";
import type { RunEvent } from "@/lib/domain/events";
import type { ServerContext } from "@/lib/server/app-context";

/**
 * Who did what, end to end through the routes on a SQLite file: a request's events carry its person,
 * the worker that drives the run says so and names the run's owner, the run records its owner, and
 * every state-changing request (a refused one too) lands in the audit log with its status.
 * The sign-in itself is not under test: authorizeRequest answers the principal each case sets.
 */
const who = vi.hoisted(() => ({ principal: null as Principal | null, refuse: null as Error | null }));
vi.mock("@/lib/server/authorize", () => ({
  authorizeRequest: async () => {
    if (who.refuse) throw who.refuse;
    if (!who.principal) throw new Error("no principal set");
    return who.principal;
  },
  refusedPrincipal: () => null,
}));

const alice: Principal = { kind: "person", userId: "u-alice", name: "alice", email: "alice@lab.example", role: "runner", tokenId: null };
const bob: Principal = { kind: "person", userId: "u-bob", name: "bob", email: "bob@lab.example", role: "admin", tokenId: null };

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rp-audit-routes-"));
process.env.REFLEXION_DB_PATH = path.join(dir, "audit.sqlite");

let context: ServerContext;
let runsRoute: typeof import("@/app/api/runs/route");
let forkRoute: typeof import("@/app/api/runs/[runId]/fork/route");
let cancelRoute: typeof import("@/app/api/runs/[runId]/cancel/route");
let auditRoute: typeof import("@/app/api/audit/route");

beforeAll(async () => {
  runsRoute = await import("@/app/api/runs/route");
  forkRoute = await import("@/app/api/runs/[runId]/fork/route");
  cancelRoute = await import("@/app/api/runs/[runId]/cancel/route");
  auditRoute = await import("@/app/api/audit/route");
  context = (await import("@/lib/server/app-context")).getServerContext();
}, 60_000);

afterAll(async () => {
  await context.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const post = (url: string, body: unknown) => new Request(`http://127.0.0.1${url}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
const params = <T>(value: T) => ({ params: Promise.resolve(value) });

describe("actors on events and the audit log, through the routes", () => {
  let runId = "";
  let events: RunEvent[] = [];

  it("a run created by alice is hers; its run-start says alice, the engine's events say a worker on alice's behalf", async () => {
    who.principal = alice;
    const created = await runsRoute.POST(post("/api/runs", { environment: "qa", taskSet: "builtin", taskId: "qa-builtin-01", strategy: "reflexion", modelId: "demo" }));
    expect(created.status).toBe(201);
    runId = ((await created.json()) as { runId: string }).runId;
    const run = await context.store.getRun(runId as never);
    expect(run?.ownerUserId).toBe("u-alice");
    expect((await context.store.listRuns(5)).find((listed) => listed.id === runId)?.ownerUserId).toBe("u-alice");
    await context.workers.untilSettled(run!.rootBranchId);
    events = (await context.service.events(runId)).events;
    expect(events[0]).toMatchObject({ type: "run-start", actor: { kind: "person", id: "u-alice", name: "alice", userId: "u-alice" } });
    const engine = events.slice(1);
    expect(engine.length).toBeGreaterThan(5);
    for (const event of engine) expect(event.actor).toMatchObject({ kind: "worker", userId: "u-alice", name: expect.stringMatching(/^worker /) as unknown });
  }, 60_000);

  it("bob's fork with an edit: branch-start and the edit say bob; the fork's engine events still act for the run's owner", async () => {
    who.principal = bob;
    const reflection = events.find((event) => event.type === "reflection-end");
    const checkpoint = events.find((event) => event.type === "checkpoint" && reflection && event.seq > reflection.seq);
    expect(reflection && checkpoint).toBeTruthy();
    const response = await forkRoute.POST(
      post(`/api/runs/${runId}/fork`, { atSeq: checkpoint!.seq, replay: "recorded", edits: [{ kind: "reflection", reflectionEventId: reflection!.id, text: "Check the town's name twice." }] }),
      params({ runId }),
    );
    expect(response.status).toBe(201);
    const { branchId } = (await response.json()) as { branchId: string };
    await context.workers.untilSettled(branchId as never);
    const own = (await context.service.events(runId, 0, branchId)).events.filter((event) => event.branchId === branchId);
    expect(own[0]).toMatchObject({ type: "branch-start", actor: { kind: "person", name: "bob", userId: "u-bob" } });
    expect(own[1]).toMatchObject({ type: "reflection-edit", actor: { kind: "person", name: "bob", userId: "u-bob" } });
    const driven = own.slice(2);
    expect(driven.length).toBeGreaterThan(0);
    for (const event of driven) expect(event.actor).toMatchObject({ kind: "worker", userId: "u-alice" });
    // The fork stays in alice's run: same owner.
    expect((await context.store.getRun(runId as never))?.ownerUserId).toBe("u-alice");
  }, 60_000);

  it("the audit log has both requests with their person and status, and a refused one with its status; GET is not audited", async () => {
    who.refuse = new AppError("forbidden", "Only the run's owner or an admin may cancel it.");
    const refused = await cancelRoute.POST(post(`/api/runs/${runId}/cancel`, {}), params({ runId }));
    expect(refused.status).toBe(403);
    who.refuse = null;
    who.principal = bob;
    const listed = await auditRoute.GET(new (await import("next/server")).NextRequest("http://127.0.0.1/api/audit?limit=10"));
    expect(listed.status).toBe(200);
    const page = (await listed.json()) as { entries: Array<{ actor: { name: string; userId: string | null }; action: string; target: Record<string, unknown>; status: number; detail: string | null }>; total: number };
    expect(page.total).toBe(3);
    expect(page.entries.map((entry) => [entry.action, entry.actor.name, entry.status])).toEqual([
      ["POST /api/runs/[runId]/cancel", "(not signed in)", 403],
      ["POST /api/runs/[runId]/fork", "bob", 201],
      ["POST /api/runs", "alice", 201],
    ]);
    expect(page.entries[0]).toMatchObject({ target: { runId }, detail: "Only the run's owner or an admin may cancel it." });
    expect(page.entries[1]).toMatchObject({ target: { runId }, detail: null });
    const mine = (await (await auditRoute.GET(new (await import("next/server")).NextRequest("http://127.0.0.1/api/audit?user=u-alice"))).json()) as { total: number };
    expect(mine.total).toBe(1);
    const bad = await auditRoute.GET(new (await import("next/server")).NextRequest("http://127.0.0.1/api/audit?since=yesterday"));
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { message: string } }).error.message).toContain("since must be a date or time");
  });

  it("a failing audit write never fails the request: the response goes out unchanged", async () => {
    who.principal = alice;
    const record = context.audit.record;
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    context.audit.record = async () => {
      throw new Error("disk full");
    };
    try {
      const response = await cancelRoute.POST(post(`/api/runs/${runId}/cancel`, {}), params({ runId }));
      expect(response.status).toBeLessThan(500);
      expect(errors.mock.calls.some((call) => String(call[0]).includes("[audit] could not record a request: disk full"))).toBe(true);
    } finally {
      context.audit.record = record;
      errors.mockRestore();
    }
  });
});
