import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import { TraceImportFailureNotice, TraceImportNotice } from "@/components/traces/trace-import-notice";
import type { TraceImportFailure, TraceImportResult } from "@/lib/domain/trace-import";
import { uploadTraces } from "@/lib/query/trace-queries";

/** What the /traces page shows of an upload: imported files with their problems, refused files with their reasons. */

const imported: TraceImportResult = {
  file: "scores.json",
  experimentId: "exp-1",
  runIds: ["run-1", "run-2"],
  format: "langfuse",
  traces: 2,
  problems: [
    { where: "line 3", message: "not JSON; skipped." },
    { where: "trace t2", message: 'the score 7 is outside 0..1 (scale unknown); read as 1 (passed). Name the score with the option "scoreName" if the clamped reading is wrong.' },
  ],
  reused: false,
};

const refused: TraceImportFailure = {
  file: "notes.jsonl",
  index: 0,
  code: "invalid-input",
  message: "notes.jsonl: could not tell the trace format from its content. Expected …; name the format it is in (otlp, inspect, langsmith or langfuse).",
  formatMayHelp: true,
};

const text = (html: string) => html.replace(/<[^>]+>/g, "").replace(/&#x27;|&apos;/g, "'");

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("the trace import notices", () => {
  it("counts problems as records not read or read with a caveat (a clamped score is read), and links the import", () => {
    const html = renderToStaticMarkup(createElement(TraceImportNotice, { result: imported }));
    expect(text(html)).toContain("scores.json: 2 traces (Langfuse)");
    expect(text(html)).toContain("2 problems: records that could not be read, or were read with a caveat — the rest was imported");
    expect(html).toContain('href="/experiments/exp-1"');
    expect(html).toContain('href="/runs/run-1"');
    const one = renderToStaticMarkup(createElement(TraceImportNotice, { result: { ...imported, problems: imported.problems.slice(1) } }));
    expect(text(one)).toContain("1 problem: a record that could not be read, or was read with a caveat — the rest was imported");
  });

  it("shows a refused file with its reason and the UI's way to name the format, not a CLI flag", () => {
    const html = text(renderToStaticMarkup(createElement(TraceImportFailureNotice, { failure: refused })));
    expect(html).toContain("notes.jsonl: nothing of this file was imported");
    expect(html).toContain(refused.message);
    expect(html).toContain("Pick the format above");
    expect(html).not.toContain("--format");
    const empty = text(renderToStaticMarkup(createElement(TraceImportFailureNotice, { failure: { ...refused, file: "empty.jsonl", message: "empty.jsonl is empty: it holds no traces.", formatMayHelp: false } })));
    expect(empty).not.toContain("Pick the format");
  });
});

describe("uploadTraces", () => {
  const stubAnswer = (status: number, body: unknown) => {
    const fetch = vi.fn(async () => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } }));
    vi.stubGlobal("fetch", fetch);
    return fetch;
  };
  const files = [new File(["x"], "notes.jsonl"), new File(["{}"], "scores.json")];

  it("returns the imported and the refused files of a 200", async () => {
    stubAnswer(200, { imports: [imported], failed: [{ ...refused }] });
    await expect(uploadTraces(files, "auto")).resolves.toEqual({ imports: [imported], failed: [refused] });
  });

  it("returns the refused files of a 400 in which every file was refused, instead of one error for the upload", async () => {
    const fetch = stubAnswer(400, { error: { code: refused.code, message: refused.message }, imports: [], failed: [refused, { ...refused, file: "scores.json", index: 1 }] });
    const answer = await uploadTraces(files, "otlp");
    expect(answer.failed.map((failure) => failure.file)).toEqual(["notes.jsonl", "scores.json"]);
    expect(fetch).toHaveBeenCalledWith("/api/imports/traces?format=otlp", expect.objectContaining({ method: "POST" }));
  });

  it("reads an older server's answer (no failed list) as nothing refused, and throws a request-level error", async () => {
    stubAnswer(200, { imports: [imported] });
    await expect(uploadTraces(files, "auto")).resolves.toEqual({ imports: [imported], failed: [] });
    stubAnswer(413, { error: { code: "too-large", message: "The trace upload is over 64 MB." } });
    await expect(uploadTraces(files, "auto")).rejects.toMatchObject({ status: 413, message: "The trace upload is over 64 MB." });
  });
});
