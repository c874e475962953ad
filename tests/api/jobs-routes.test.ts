import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiErrorSchema } from "@/lib/domain/api";
import { deadLetterListResponseSchema } from "@/lib/domain/dead-letter-actions";
import { rateLimitViewSchema } from "@/lib/domain/rate-limit-view";
import { keyIdOf } from "@/lib/llm/rate-limits/middleware";

/**
 * The /jobs routes in the embedded default: no job queue, so the dead-letter list is
 * empty with `mode: "in-process"` and every action answers 409 saying to set
 * REFLEXION_DATABASE_URL; the rate-limit view shows the configured limits as per-process counters
 * with no readable blocks, and never the API key or its id.
 */

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rp-jobs-api-"));
const SECRET = "sk-test-SECRET-jobs-never-shown";
process.env.REFLEXION_DB_PATH = path.join(dir, "jobs.sqlite");
delete process.env.REFLEXION_DATABASE_URL;
process.env.OPENAI_API_KEY = SECRET;
process.env.REFLEXION_RATE_LIMITS = JSON.stringify({ openai: { requestsPerMinute: 500, concurrent: 8 } });

type LetterParams = { params: Promise<{ letterId: string }> };
let routes: {
  list: typeof import("@/app/api/jobs/dead-letters/route");
  retry: typeof import("@/app/api/jobs/dead-letters/[letterId]/retry/route");
  discard: typeof import("@/app/api/jobs/dead-letters/[letterId]/discard/route");
  retryAll: typeof import("@/app/api/jobs/dead-letters/retry-all/route");
  rateLimits: typeof import("@/app/api/jobs/rate-limits/route");
};

beforeAll(async () => {
  routes = {
    list: await import("@/app/api/jobs/dead-letters/route"),
    retry: await import("@/app/api/jobs/dead-letters/[letterId]/retry/route"),
    discard: await import("@/app/api/jobs/dead-letters/[letterId]/discard/route"),
    retryAll: await import("@/app/api/jobs/dead-letters/retry-all/route"),
    rateLimits: await import("@/app/api/jobs/rate-limits/route"),
  };
});

afterAll(async () => {
  const { getServerContext } = await import("@/lib/server/app-context");
  await getServerContext().workers.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

const post = (url: string) => new Request(`http://127.0.0.1${url}`, { method: "POST" });
const letter = (letterId: string): LetterParams => ({ params: Promise.resolve({ letterId }) });
const ID = "0b7a3c2e-1111-4000-8000-000000000001";

describe("/api/jobs in the embedded mode", () => {
  it("lists no dead letters and refuses every action with what to set", async () => {
    const list = await routes.list.GET(new Request("http://127.0.0.1/api/jobs/dead-letters"));
    expect(list.status).toBe(200);
    expect(deadLetterListResponseSchema.parse(await list.json())).toMatchObject({ mode: "in-process", deadLetters: [] });
    for (const response of [
      await routes.retry.POST(post(`/api/jobs/dead-letters/${ID}/retry`), letter(ID)),
      await routes.discard.POST(post(`/api/jobs/dead-letters/${ID}/discard`), letter(ID)),
      await routes.retryAll.POST(),
    ]) {
      expect(response.status).toBe(409);
      const { error } = apiErrorSchema.parse(await response.json());
      expect(error.code).toBe("conflict");
      expect(error.message).toMatch(/no job queue in the embedded mode.*Set REFLEXION_DATABASE_URL=postgres/);
    }
  });

  it("shows the configured limits as per-process counters, without blocks, keys or key ids", async () => {
    const response = await routes.rateLimits.GET();
    expect(response.status).toBe(200);
    const text = await response.text();
    const view = rateLimitViewSchema.parse(JSON.parse(text));
    expect(view).toMatchObject({ counters: "process", blocked: null, problem: null });
    expect(view.limits).toEqual([
      { pattern: "openai", scope: "provider", requestsPerMinute: 500, tokensPerMinute: null, concurrent: 8, windowSeconds: 60, requestsPerWindow: 500, tokensPerWindow: null },
    ]);
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain(keyIdOf(SECRET));
  });
});
