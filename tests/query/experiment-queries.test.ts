import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiRequestError } from "@/lib/query/fetch-json";
import { memoryWindowApplies } from "@/lib/domain/strategies";
import { armLabel, armsFromDrafts } from "@/lib/query/experiment-form";
import {
  canCancel,
  canResume,
  checkDefinition,
  createExperiment,
  EXPERIMENT_POLL_MS,
  experimentExportHref,
  listPollInterval,
  summaryPollInterval,
} from "@/lib/query/experiment-queries";

afterEach(() => {
  vi.unstubAllGlobals();
});

const definition = {
  name: "none vs reflexion",
  environment: "qa" as const,
  taskSet: "builtin",
  arms: [
    { label: "none", strategy: "none" as const, modelId: "demo" },
    { label: "reflexion", strategy: "reflexion" as const, modelId: "demo" },
  ],
  maxTrials: 5,
};

describe("polling", () => {
  it("polls a summary every second while it runs, not once it ended or was cancelled", () => {
    expect(summaryPollInterval(undefined)).toBe(EXPERIMENT_POLL_MS);
    expect(summaryPollInterval({ status: "running" })).toBe(1_000);
    expect(summaryPollInterval({ status: "ended" })).toBe(false);
    expect(summaryPollInterval({ status: "cancelled" })).toBe(false);
  });

  it("polls the list only while some experiment runs", () => {
    expect(listPollInterval(undefined)).toBe(false);
    expect(listPollInterval({ experiments: [{ status: "ended" }] })).toBe(false);
    expect(listPollInterval({ experiments: [{ status: "ended" }, { status: "running" }] })).toBeGreaterThan(0);
  });
});

describe("controls", () => {
  const cell = (status: "ended" | "running" | "paused" | "interrupted" | "queued" | "error") => ({ status });
  it("Resume applies when a cell has no run yet or a run is paused or interrupted; a cancelled (ended) one stays", () => {
    expect(canResume({ progress: { total: 2, done: 1, etaMs: null }, cells: [cell("ended")] } as never)).toBe(true);
    expect(canResume({ progress: { total: 2, done: 1, etaMs: null }, cells: [cell("ended"), cell("paused")] } as never)).toBe(true);
    expect(canResume({ progress: { total: 2, done: 1, etaMs: null }, cells: [cell("ended"), cell("interrupted")] } as never)).toBe(true);
    expect(canResume({ progress: { total: 2, done: 2, etaMs: null }, cells: [cell("ended"), cell("ended")] } as never)).toBe(false);
  });

  it("Cancel applies while the experiment runs and some run has not ended", () => {
    expect(canCancel({ status: "running", cells: [cell("ended"), cell("queued")] } as never)).toBe(true);
    expect(canCancel({ status: "running", cells: [cell("ended"), cell("error")] } as never)).toBe(false);
    expect(canCancel({ status: "ended", cells: [cell("running")] } as never)).toBe(false);
  });
});

describe("export links", () => {
  it("are plain links to the export route, the id encoded", () => {
    expect(experimentExportHref("abc", "csv")).toBe("/api/experiments/abc/export?format=csv");
    expect(experimentExportHref("a/b", "events")).toBe("/api/experiments/a%2Fb/export?format=events");
  });
});

describe("create", () => {
  it("refuses a definition the server would refuse, naming the field", () => {
    expect(() => checkDefinition({ ...definition, arms: [definition.arms[0]!, { ...definition.arms[1]!, label: "none" }] })).toThrow(/arms: arm labels must be unique/);
    expect(() => checkDefinition({ ...definition, maxTrials: 0 })).toThrow(/maxTrials/);
    expect(checkDefinition(definition).concurrency).toBe(4);
  });

  it("POSTs the parsed definition and returns the experiment id", async () => {
    const fetchMock = vi.fn(async (_path: string, _init?: RequestInit) => new Response(JSON.stringify({ experimentId: "x1" }), { status: 201 }));
    vi.stubGlobal("fetch", fetchMock);
    await expect(createExperiment(definition)).resolves.toEqual({ experimentId: "x1" });
    const [path, init] = fetchMock.mock.calls[0]!;
    expect(path).toBe("/api/experiments");
    expect(init?.method).toBe("POST");
    expect(JSON.parse(String(init?.body))).toMatchObject({ name: "none vs reflexion", taskIds: [], concurrency: 4, arms: definition.arms });
  });

  it("passes the server's error message on (e.g. a strategy the family does not run)", async () => {
    const body = { error: { code: "invalid-input", message: 'Arm "cot": the Code family does not run the strategy "cot".' } };
    vi.stubGlobal("fetch", vi.fn(async () => new Response(JSON.stringify(body), { status: 400 })));
    const error = await createExperiment(definition).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiRequestError);
    expect((error as ApiRequestError).message).toContain("does not run the strategy");
    expect((error as ApiRequestError).status).toBe(400);
  });
});

describe("arm rows of the form", () => {
  const draft = (over: Partial<Parameters<typeof armsFromDrafts>[0][number]> = {}) => ({ label: null, strategy: "reflexion" as const, modelId: null, memoryWindow: "", ...over });

  it("labels follow the strategy until typed; the default model fills in", () => {
    expect(armLabel(draft())).toBe("reflexion");
    const { arms, problem } = armsFromDrafts([draft({ strategy: "none" }), draft({ label: " mine ", modelId: "openai:gpt-4o-mini" })], "demo", undefined);
    expect(problem).toBeNull();
    expect(arms).toEqual([
      { label: "none", strategy: "none", modelId: "demo" },
      { label: "mine", strategy: "reflexion", modelId: "openai:gpt-4o-mini" },
    ]);
  });

  it("says what to fix: duplicate or empty labels, no model, a bad Ω", () => {
    expect(armsFromDrafts([draft(), draft()], "demo", undefined).problem).toMatch(/Two arms are labelled "reflexion"/);
    expect(armsFromDrafts([draft({ label: "  " })], "demo", undefined).problem).toMatch(/give it a label/);
    expect(armsFromDrafts([draft()], null, undefined).problem).toMatch(/pick a model/);
    expect(armsFromDrafts([draft({ memoryWindow: "0" })], "demo", undefined).problem).toMatch(/memory window Ω/);
    // The server's bound on Ω, checked in the form too.
    expect(armsFromDrafts([draft({ memoryWindow: "1000000000000" })], "demo", undefined).problem).toMatch(/memory window Ω is a whole number from 1 to 100/);
    expect(armsFromDrafts([draft({ memoryWindow: "100" })], "demo", undefined).problem).toBeNull();
    expect(armsFromDrafts([], "demo", undefined).problem).toMatch(/at least one arm/);
  });

  it("sends Ω only where the strategy reads reflections and does not fix Ω itself", () => {
    expect(armsFromDrafts([draft({ memoryWindow: "2" })], "demo", undefined).arms[0]!.memoryWindow).toBe(2);
    expect(armsFromDrafts([draft({ strategy: "none", memoryWindow: "2" })], "demo", undefined).arms[0]!.memoryWindow).toBeUndefined();
    expect(memoryWindowApplies("none", undefined)).toBe(false);
    expect(memoryWindowApplies("last-attempt-and-reflexion", undefined)).toBe(false);
    expect(memoryWindowApplies("reflexion", { fixedStepsPerTrial: 2 })).toBe(true);
  });
});
