import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiErrorSchema } from "@/lib/domain/api";
import { importListResponseSchema, importResponseSchema } from "@/lib/domain/paper-import";

// The routes share one process-wide context; point it at a private database and the shared data before importing them.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rp-imports-"));
process.env.REFLEXION_DB_PATH = path.join(dir, "api.sqlite");
process.env.REFLEXION_DATA_ROOT = path.resolve(__dirname, "../../../shared/data");
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

let imports: typeof import("@/app/api/imports/route");
let resume: typeof import("@/app/api/runs/[runId]/resume/route");
let context: typeof import("@/lib/server/app-context");

beforeAll(async () => {
  imports = await import("@/app/api/imports/route");
  resume = await import("@/app/api/runs/[runId]/resume/route");
  context = await import("@/lib/server/app-context");
});

const COT_BASE = "reflexion/noahshinn-reflexion/hotpotqa_runs/root/CoT/no_context/base/100_questions_5_trials.txt";

function upload(files: Array<{ name: string; content: string }>): NextRequest {
  const form = new FormData();
  for (const file of files) form.append("file", new File([file.content], file.name));
  return new NextRequest("http://localhost/api/imports", { method: "POST", body: form });
}

describe("/api/imports", () => {
  it("GET lists the shared folder's logs (an ALFWorld folder is one entry) and POST { paths } imports one, idempotently", async () => {
    const listed = importListResponseSchema.parse(await (await imports.GET()).json());
    expect(listed.dataRoot).toBe(process.env.REFLEXION_DATA_ROOT);
    expect(listed.files).toHaveLength(17);
    expect(listed.files.filter((file) => file.format === "alfworld-results").map((file) => file.path)).toEqual([
      "reflexion/noahshinn-reflexion/alfworld_runs/root/base_run_logs",
      "reflexion/noahshinn-reflexion/alfworld_runs/root/reflexion_run_logs",
    ]);
    expect(listed.files.find((file) => file.path === COT_BASE)).toMatchObject({ family: "qa", label: "CoT only", importedExperimentId: null });

    const request = () => new NextRequest("http://localhost/api/imports", { method: "POST", body: JSON.stringify({ paths: [COT_BASE] }), headers: { "content-type": "application/json" } });
    const first = await imports.POST(request());
    expect(first.status).toBe(200);
    const [result] = importResponseSchema.parse(await first.json()).imports;
    expect(result).toMatchObject({ source: COT_BASE, label: "CoT only", family: "qa", runs: 100, trials: 5, successByTrial: [32, 33, 33, 33, 33], alreadyImported: false });
    const [again] = importResponseSchema.parse(await (await imports.POST(request())).json()).imports;
    expect(again).toMatchObject({ experimentId: result!.experimentId, alreadyImported: true });
    // The same bytes uploaded through the UI are the same import (identified by content, not path).
    const content = fs.readFileSync(path.join(process.env.REFLEXION_DATA_ROOT!, COT_BASE), "utf8");
    const [uploaded] = importResponseSchema.parse(await (await imports.POST(upload([{ name: "100_questions_5_trials.txt", content }]))).json()).imports;
    expect(uploaded).toMatchObject({ experimentId: result!.experimentId, alreadyImported: true });
    // An edited upload is a new, unverified import that names the published log it differs from.
    const edited = await imports.POST(upload([{ name: "100_questions_5_trials.txt", content: content.replace("Thought: Let's think step by step.", "Thought: Let's think step by step (edited).") }]));
    const [copy] = importResponseSchema.parse(await edited.json()).imports;
    expect(copy!.experimentId).not.toBe(result!.experimentId);
    const stored = (await context.getServerContext().store.experiments.listExperiments(100)).find((experiment) => experiment.id === copy!.experimentId);
    expect(stored?.provenance?.verified).toBe(false);
    expect(stored?.provenance?.notes.join(" ")).toMatch(/Uploaded copy: its content differs from the published log reflexion\/noahshinn-reflexion\/hotpotqa_runs\/root\/CoT\/no_context\/base\/100_questions_5_trials\.txt, so it may have been edited/);
    const relisted = importListResponseSchema.parse(await (await imports.GET()).json());
    expect(relisted.files.find((file) => file.path === COT_BASE)?.importedExperimentId).toBe(result!.experimentId);

    // Its runs are read-only over HTTP too: 409 with the authors' message.
    const cells = await context.getServerContext().store.experiments.listExperimentRuns(result!.experimentId);
    const refused = await resume.POST(new NextRequest(`http://localhost/api/runs/${cells[0]!.runId}/resume`, { method: "POST" }), { params: Promise.resolve({ runId: cells[0]!.runId }) });
    expect(refused.status).toBe(409);
    expect(apiErrorSchema.parse(await refused.json()).error.message).toMatch(/recorded by the authors in 2023 — fork it to continue/);
  }, 60_000);

  it("multipart uploads: several env_results_trial_N.json files form one ALFWorld import", async () => {
    const trial = (n: number, success: boolean) => ({ name: `env_results_trial_${n}.json`, content: JSON.stringify([{ name: "env_0", memory: success ? [" plan"] : [" plan"], is_success: success }]) });
    const response = await imports.POST(upload([trial(0, false), trial(1, true)]));
    expect(response.status).toBe(200);
    const [result] = importResponseSchema.parse(await response.json()).imports;
    expect(result).toMatchObject({ family: "household", runs: 1, trials: 2, successByTrial: [0, 1] });
  });

  it("a malformed upload answers 400 naming the file and line, and stores nothing", async () => {
    const before = (await context.getServerContext().store.experiments.listExperiments(100)).length;
    const response = await imports.POST(upload([{ name: "simple_mbpp.jsonl", content: '{"task_id": "a", "prompt": "p", "entry_point": "f", "solution": "s", "is_solved": true}\n{"task_id": "b", "pro' }]));
    expect(response.status).toBe(400);
    const body = apiErrorSchema.parse(await response.json());
    expect(body.error.code).toBe("invalid-dataset");
    expect(body.error.message).toMatch(/^simple_mbpp\.jsonl, line 2: not a JSON object/);
    expect((await context.getServerContext().store.experiments.listExperiments(100)).length).toBe(before);
  });

  it("a path outside the list is refused", async () => {
    const response = await imports.POST(new NextRequest("http://localhost/api/imports", { method: "POST", body: JSON.stringify({ paths: ["../../etc/passwd"] }), headers: { "content-type": "application/json" } }));
    expect(response.status).toBe(400);
    expect(apiErrorSchema.parse(await response.json()).error.message).toMatch(/outside the data folder/);
  });
});
