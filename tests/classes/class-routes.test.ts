import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { decodeBundle } from "@/lib/bundles/codec";
import { asBranchId } from "@/lib/domain/ids";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { classCreateResponseSchema, classJoinResponseSchema, classTeacherViewSchema } from "@/lib/domain/class-session";
import { JOINS_PER_ADDRESS_PER_MINUTE } from "@/lib/server/class-join-limit";

// The routes use the process-wide context: point it at a private database before importing them.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rp-class-routes-"));
process.env.REFLEXION_DB_PATH = path.join(dir, "classes.sqlite");
delete process.env.REFLEXION_DATABASE_URL;

type Params<K extends string> = { params: Promise<Record<K, string>> };
type Handler<K extends string> = (request: NextRequest, context: Params<K>) => Promise<Response>;

let classes: { POST: (request: Request) => Promise<Response> };
let join: { POST: (request: Request) => Promise<Response> };
let teacherGet: { GET: Handler<"classId"> };
const teacherPosts: Record<string, { POST: Handler<"classId"> }> = {};
let reflections: { POST: Handler<"classId"> };
let stream: { GET: Handler<"classId"> };
let branches: { GET: Handler<"runId"> };
let context: Awaited<ReturnType<typeof loadContext>>;

async function loadContext() {
  const { getServerContext } = await import("@/lib/server/app-context");
  return getServerContext();
}

beforeAll(async () => {
  classes = await import("@/app/api/classes/route");
  join = await import("@/app/api/classes/join/route");
  teacherGet = await import("@/app/api/classes/[classId]/route");
  teacherPosts.step = await import("@/app/api/classes/[classId]/step/route");
  teacherPosts.reveal = await import("@/app/api/classes/[classId]/reveal/route");
  teacherPosts.forks = await import("@/app/api/classes/[classId]/forks/route");
  teacherPosts.end = await import("@/app/api/classes/[classId]/end/route");
  teacherPosts.reset = await import("@/app/api/classes/[classId]/reset/route");
  reflections = await import("@/app/api/classes/[classId]/reflections/route");
  stream = await import("@/app/api/classes/[classId]/stream/route");
  branches = await import("@/app/api/runs/[runId]/branches/route");
  context = await loadContext();
}, 60_000);

afterAll(async () => {
  await context?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function post(url: string, body: unknown, headers: Record<string, string> = {}): NextRequest {
  return new NextRequest(`http://localhost${url}`, { method: "POST", body: typeof body === "string" ? body : JSON.stringify(body), headers: { "content-type": "application/json", ...headers } });
}

const params = <K extends string>(values: Record<K, string>): Params<K> => ({ params: Promise.resolve(values) });

async function startClass() {
  const response = await classes.POST(post("/api/classes", { lessonId: "why-reflexion-qa", minutes: 30 }));
  expect(response.status).toBe(201);
  const created = classCreateResponseSchema.parse(await response.json());
  const run = await context.service.getRun(created.class.runId);
  await context.workers.untilSettled(run.rootBranchId);
  return created;
}

async function joinAs(code: string, nickname: string, address = "10.0.0.5") {
  return join.POST(post("/api/classes/join", { code, nickname }, { "x-forwarded-for": address }));
}

describe("class routes", () => {
  it("a student's token gets 403 on every teacher action and on the teacher's view", async () => {
    const created = await startClass();
    const classId = created.class.id;
    const joined = classJoinResponseSchema.parse(await (await joinAs(created.class.code, "Ann")).json());
    const bodies: Record<string, unknown> = { step: { step: 1 }, reveal: { step: 2 }, forks: { step: 4, groupIds: ["g-x"] }, end: {}, reset: {} };
    for (const [action, route] of Object.entries(teacherPosts)) {
      const askers: Array<Record<string, string>> = [{ "x-class-student": joined.studentToken }, { "x-class-teacher": joined.studentToken }, {}];
      for (const headers of askers) {
        const response = await route.POST(post(`/api/classes/${classId}/${action}`, bodies[action], headers), params({ classId }));
        expect(response.status, `${action} with ${JSON.stringify(Object.keys(headers))}`).toBe(403);
        const body = (await response.json()) as { error: { code: string; message: string } };
        expect(body.error.code).toBe("forbidden");
        expect(body.error.message).toMatch(/Only the teacher can .*teacher link/);
      }
      // A malformed body from a student is refused as a student's (403), not checked as a teacher's request (400).
      const malformed = await route.POST(post(`/api/classes/${classId}/${action}`, {}, { "x-class-student": joined.studentToken }), params({ classId }));
      expect(malformed.status, `${action} with an empty body`).toBe(403);
    }
    const view = await teacherGet.GET(new NextRequest(`http://localhost/api/classes/${classId}`, { headers: { "x-class-student": joined.studentToken } }), params({ classId }));
    expect(view.status).toBe(403);
    // The teacher's secret works, and the projector view names nobody.
    const projector = await teacherGet.GET(new NextRequest(`http://localhost/api/classes/${classId}?view=projector`, { headers: { "x-class-teacher": created.teacherSecret } }), params({ classId }));
    expect(projector.status).toBe(200);
    expect(classTeacherViewSchema.parse(await projector.json()).students).toEqual([{ id: joined.studentId, nickname: null }]);
    const step = await teacherPosts.step!.POST(post(`/api/classes/${classId}/step`, { step: 1 }, { "x-class-teacher": created.teacherSecret }), params({ classId }));
    expect(step.status).toBe(200);
    expect(classTeacherViewSchema.parse(await step.json()).step).toBe(1);
  });

  it("rate-limits joins per client address with 429 and Retry-After; bounds the body", async () => {
    const created = await startClass();
    const code = created.class.code;
    for (let index = 0; index < JOINS_PER_ADDRESS_PER_MINUTE; index += 1) expect((await joinAs(code, `n${index}`, "10.9.9.9")).status).toBe(201);
    const refused = await joinAs(code, "one-more", "10.9.9.9");
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(((await refused.json()) as { error: { code: string; message: string } }).error).toMatchObject({ code: "rate-limited", message: expect.stringMatching(/Too many joins.*wait \d+ s/) });
    expect((await joinAs(code, "from-elsewhere", "10.9.9.10")).status).toBe(201);
    const huge = await join.POST(post("/api/classes/join", JSON.stringify({ code, nickname: "x".repeat(9000) }), { "x-forwarded-for": "10.1.1.1" }));
    expect(huge.status).toBe(413);
    const taken = await joinAs(code, "N0", "10.1.1.2");
    expect(taken.status).toBe(409);
  });

  it("the run's branch list leaves out class forks; the stream sends the version", async () => {
    const created = await startClass();
    const classId = created.class.id;
    const teacher = { "x-class-teacher": created.teacherSecret };
    const joined = classJoinResponseSchema.parse(await (await joinAs(created.class.code, "Ann", "10.2.2.2")).json());
    expect((await teacherPosts.step!.POST(post(`/api/classes/${classId}/step`, { step: 4 }, teacher), params({ classId }))).status).toBe(200);
    const reflected = await reflections.POST(post(`/api/classes/${classId}/reflections`, { step: 4, text: "Search Dunmere next and answer with its river, not the town." }, { "x-class-student": joined.studentToken }), params({ classId }));
    expect(reflected.status).toBe(200);
    const tooLong = await reflections.POST(post(`/api/classes/${classId}/reflections`, { step: 4, text: "x".repeat(601) }, { "x-class-student": joined.studentToken }), params({ classId }));
    expect(tooLong.status).toBe(400);
    const view = classTeacherViewSchema.parse(await (await teacherGet.GET(new NextRequest(`http://localhost/api/classes/${classId}`, { headers: teacher }), params({ classId }))).json());
    const forked = await teacherPosts.forks!.POST(post(`/api/classes/${classId}/forks`, { step: 4, groupIds: view.current.reflections.map((group) => group.id) }, teacher), params({ classId }));
    expect(forked.status).toBe(201);
    const { forks } = (await forked.json()) as { forks: Array<{ branchId: string }> };
    expect(forks).toHaveLength(1);

    const runId = created.class.runId;
    const all = await context.service.branches(runId);
    expect(all.map((branch) => branch.id)).toContain(forks[0]!.branchId);
    const listed = (await (await branches.GET(new NextRequest(`http://localhost/api/runs/${runId}/branches`), params({ runId }))).json()) as { branches: Array<{ id: string }> };
    expect(listed.branches.map((branch) => branch.id)).not.toContain(forks[0]!.branchId);
    expect(listed.branches.length).toBe(all.length - 1);

    // A bundle of the lesson's run leaves the class's fork (and the student's text) out too.
    await context.workers.untilSettled(asBranchId(forks[0]!.branchId));
    const bundle = await decodeBundle((await context.bundles.exportRun(runId)).bytes);
    expect(bundle.content.runs[0]!.branches.map((branch) => branch.id)).toEqual(listed.branches.map((branch) => branch.id));
    expect(JSON.stringify(bundle.content)).not.toContain("Search Dunmere next and answer with its river");

    const abort = new AbortController();
    const response = await stream.GET(new NextRequest(`http://localhost/api/classes/${classId}/stream`, { signal: abort.signal }), params({ classId }));
    expect(response.headers.get("content-type")).toMatch(/text\/event-stream/);
    const reader = response.body!.getReader();
    let text = "";
    while (!text.includes("event: version")) text += new TextDecoder().decode((await reader.read()).value);
    expect(text).toMatch(/event: version\ndata: \{"version":\d+\}/);
    abort.abort();
    await reader.cancel();
  });
});
