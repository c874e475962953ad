import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { apiErrorSchema } from "@/lib/domain/api";
import { saveLessonResponseSchema } from "@/lib/lessons/lesson-api";
import { lessonFileText } from "@/lib/lessons/lesson-file";
import { lessonDocumentSchema, lessonListResponseSchema } from "@/lib/lessons/lesson-schema";
import { parseLessonFile } from "@/lib/lessons/parse-lesson-file";
import { authoredLesson } from "./authored-fixture";

// The routes share one process-wide context: point it at a private database before importing them.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rp-lesson-routes-"));
process.env.REFLEXION_DB_PATH = path.join(dir, "lessons.sqlite");

let runId: string;
let routes: {
  lessons: typeof import("@/app/api/lessons/route");
  lesson: typeof import("@/app/api/lessons/[lessonId]/route");
  file: typeof import("@/app/api/lessons/[lessonId]/file/route");
  importFile: typeof import("@/app/api/lessons/import/route");
  run: typeof import("@/app/api/lessons/[lessonId]/run/route");
};

beforeAll(async () => {
  const { getServerContext } = await import("@/lib/server/app-context");
  const context = getServerContext();
  const run = await context.service.createRun({ environment: "qa", taskSet: "builtin", taskId: "qa-builtin-01", strategy: "reflexion", modelId: "demo" });
  await context.workers.untilSettled(run.rootBranchId);
  runId = run.id;
  routes = {
    lessons: await import("@/app/api/lessons/route"),
    lesson: await import("@/app/api/lessons/[lessonId]/route"),
    file: await import("@/app/api/lessons/[lessonId]/file/route"),
    importFile: await import("@/app/api/lessons/import/route"),
    run: await import("@/app/api/lessons/[lessonId]/run/route"),
  };
}, 120_000);

const params = (lessonId: string) => ({ params: Promise.resolve({ lessonId }) });
const post = (body: unknown) => new Request("http://test/api/lessons", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

describe("lesson authoring routes", () => {
  it("POST /api/lessons creates (201), lists it as authored, replaces it; expectNew refuses a second lesson with that id (409)", async () => {
    const created = await routes.lessons.POST(post({ lesson: authoredLesson(runId), introduction: "Hi", expectNew: true }));
    expect(created.status).toBe(201);
    expect(saveLessonResponseSchema.parse(await created.json()).lesson).toMatchObject({ source: "authored", lesson: { id: "my-class-lesson" } });
    const list = lessonListResponseSchema.parse(await (await routes.lessons.GET()).json());
    expect(list.lessons.find((document) => document.lesson.id === "my-class-lesson")?.source).toBe("authored");
    expect(list.lessons.find((document) => document.lesson.id === "why-reflexion-qa")?.source).toBe("folder");
    const twice = await routes.lessons.POST(post({ lesson: authoredLesson(runId), expectNew: true }));
    expect(twice.status).toBe(409);
    expect(apiErrorSchema.parse(await twice.json()).error.message).toMatch(/written in the app already.*\/lessons\/my-class-lesson\/edit/);
    const replaced = await routes.lessons.POST(post({ lesson: authoredLesson(runId, { title: "Renamed" }) }));
    expect(replaced.status).toBe(201);
    const one = lessonDocumentSchema.parse(await (await routes.lesson.GET(new Request("http://test"), params("my-class-lesson"))).json());
    expect(one.lesson.title).toBe("Renamed");
    const played = await routes.run.POST(new Request("http://test", { method: "POST" }), params("my-class-lesson"));
    expect(await played.json()).toEqual({ runId, reused: true });
  });

  it("shadowing a folder lesson is refused (409 with what to do); a lesson that does not validate is 400 naming the step and field", async () => {
    const shadow = await routes.lessons.POST(post({ lesson: authoredLesson(runId, { id: "why-reflexion-qa" }) }));
    expect(shadow.status).toBe(409);
    expect(apiErrorSchema.parse(await shadow.json()).error.message).toMatch(/lessons folder already has a lesson "why-reflexion-qa".*another id/);
    const bad = authoredLesson(runId, { id: "bad-one" });
    const invalid = await routes.lessons.POST(post({ lesson: { ...bad, steps: [{ ...bad.steps[0], title: "" }] } }));
    expect(invalid.status).toBe(400);
    expect(apiErrorSchema.parse(await invalid.json()).error.message).toMatch(/steps\.0\.title/);
  });

  it("GET /api/lessons/:id/file downloads a .md that parses back; POST /api/lessons/import takes it (renamed when the id is taken)", async () => {
    const response = await routes.file.GET(new Request("http://test"), params("my-class-lesson"));
    expect(response.headers.get("content-disposition")).toBe('attachment; filename="my-class-lesson.md"');
    const text = await response.text();
    expect(parseLessonFile("my-class-lesson.md", text).lesson).toMatchObject({ id: "my-class-lesson", title: "Renamed", run: { kind: "stored", runId } });
    const folder = await routes.file.GET(new Request("http://test"), params("why-reflexion-qa"));
    expect(parseLessonFile("why-reflexion-qa.md", await folder.text()).lesson.id).toBe("why-reflexion-qa");

    const same = new FormData();
    same.append("file", new Blob([text], { type: "text/markdown" }), "my-class-lesson.md");
    const unchanged = await routes.importFile.POST(new Request("http://test/api/lessons/import", { method: "POST", body: same }));
    expect(unchanged.status).toBe(200);
    const other = lessonFileText(authoredLesson(runId, { title: "From a colleague" }), "");
    const renamed = await routes.importFile.POST(new Request("http://test/api/lessons/import?name=colleague.md", { method: "POST", headers: { "content-type": "text/markdown" }, body: other }));
    expect(renamed.status).toBe(201);
    expect(saveLessonResponseSchema.parse(await renamed.json())).toMatchObject({ renamedFrom: "my-class-lesson", lesson: { lesson: { id: "my-class-lesson-2", title: "From a colleague" } } });
    const broken = await routes.importFile.POST(new Request("http://test/api/lessons/import?name=broken.md", { method: "POST", body: "---\ntitle: [unclosed\n---\n" }));
    expect(broken.status).toBe(400);
    expect(apiErrorSchema.parse(await broken.json()).error.message).toMatch(/^broken\.md: the front matter is not valid YAML/);
  });

  it("DELETE /api/lessons/:id removes an authored lesson (204), refuses a folder lesson (409), 404 after", async () => {
    expect((await routes.lesson.DELETE(new Request("http://test", { method: "DELETE" }), params("my-class-lesson-2"))).status).toBe(204);
    expect((await routes.lesson.DELETE(new Request("http://test", { method: "DELETE" }), params("my-class-lesson-2"))).status).toBe(404);
    const folder = await routes.lesson.DELETE(new Request("http://test", { method: "DELETE" }), params("why-reflexion-qa"));
    expect(folder.status).toBe(409);
    expect((await routes.lesson.GET(new Request("http://test"), params("my-class-lesson-2"))).status).toBe(404);
  });
});
