import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";

// The pages share one process-wide context; point it at a private database before importing them.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rp-pages-"));
process.env.REFLEXION_DB_PATH = path.join(dir, "pages.sqlite");

/** The HTTP status a server page's thrown `notFound()` would answer with (Next's digest), or null. */
async function statusOf(render: () => Promise<unknown>): Promise<number | null> {
  try {
    await render();
    return null;
  } catch (error) {
    const digest = (error as { digest?: unknown }).digest;
    const match = typeof digest === "string" ? /^NEXT_HTTP_ERROR_FALLBACK;(\d+)$/.exec(digest) : null;
    if (match) return Number(match[1]);
    throw error;
  }
}

const params = <T>(value: T) => ({ params: Promise.resolve(value) });

describe("server pages of an unknown id answer 404 (notFound)", () => {
  it("runs, lessons, experiments, templates and shared bundles", async () => {
    const run = (await import("@/app/runs/[runId]/layout")).default;
    const lesson = (await import("@/app/lessons/[lessonId]/page")).default;
    const experiment = (await import("@/app/experiments/[experimentId]/page")).default;
    const template = (await import("@/app/templates/[templateId]/page")).default;
    const shared = (await import("@/app/shared/[hash]/page")).default;
    expect(await statusOf(() => run({ children: null, ...params({ runId: "00000000-0000-4000-8000-000000000000" }) }))).toBe(404);
    expect(await statusOf(() => lesson(params({ lessonId: "no-such-lesson" })))).toBe(404);
    expect(await statusOf(() => experiment(params({ experimentId: "no-such-experiment" })))).toBe(404);
    expect(await statusOf(() => template(params({ templateId: "no%2Fsuch-template" })))).toBe(404);
    expect(await statusOf(() => shared(params({ hash: "0".repeat(64) })))).toBe(404);
  });

  it("a known id renders the page", async () => {
    const { getServerContext } = await import("@/lib/server/app-context");
    const { getLessonService } = await import("@/lib/server/lesson-service");
    const lessonId = (await getLessonService().list()).lessons[0]?.lesson.id;
    expect(lessonId).toBeDefined();
    const lesson = (await import("@/app/lessons/[lessonId]/page")).default;
    expect(await statusOf(() => lesson(params({ lessonId: lessonId ?? "" })))).toBeNull();
    const templates = await getServerContext().templates.list();
    const templateId = templates[0]?.id;
    expect(templateId).toBeDefined();
    const template = (await import("@/app/templates/[templateId]/page")).default;
    expect(await statusOf(() => template(params({ templateId: encodeURIComponent(templateId ?? "") })))).toBeNull();
  });
});
