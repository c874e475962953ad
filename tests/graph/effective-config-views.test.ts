import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createElement, type ReactElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { RunDetailResponse } from "@/lib/domain/api";
import { foldRun } from "@/lib/domain/fold-run";
import { queryKeys } from "@/lib/query/keys";
import { RunUiStoreProvider } from "@/lib/store";
import { RunHeader } from "@/components/run/run-header";
import { SteerPanel } from "@/components/run/steer-panel";
import { EventLog, makeRunConfig, TWO_MODELS } from "./fixtures";

/**
 * The run page shows the configuration in force (`RunState.config`:
 * the run-start config with prompt and model edits applied), not the one the
 * run started with.
 */

function render(element: ReactElement): string {
  const client = new QueryClient();
  client.setQueryData(queryKeys.models(), TWO_MODELS);
  return renderToStaticMarkup(createElement(QueryClientProvider, { client }, createElement(RunUiStoreProvider, null, element)));
}

/** A demo-model run paused in trial 1 whose Actor model and Actor template were then edited. */
function editedRun() {
  const log = new EventLog();
  const config = makeRunConfig();
  log.add("run-start", { config });
  log.add("trial-start", { trial: 1, memory: [], evicted: [] });
  log.add("run-pause", { reason: "user", detail: "Paused by the user.", at: null });
  log.add("settings-edit", {
    target: "model",
    role: "actor",
    oldValue: config.models.actor,
    newValue: { modelId: "openai:gpt-4o-mini", temperature: 0.5, maxOutputTokens: 300 },
    note: null,
  });
  log.add("prompt-edit", {
    role: "actor",
    oldTemplate: config.templates.actor,
    newTemplate: { ...config.templates.actor, version: 2, text: "Answer {question} carefully." },
    note: null,
  });
  return foldRun(log.events);
}

/** What the server's run summary says: the model the run was created with. */
const detail: RunDetailResponse["run"] = {
  id: "run-1",
  rootBranchId: "branch-1",
  experiment: null,
  createdAt: "2026-11-30T12:00:00.000Z",
  environment: "qa",
  taskId: "hp-1",
  title: "Which magazine was started first?",
  strategy: "reflexion",
  modelId: "demo",
  status: "paused",
  activeCall: null,
  setting: null,
  trials: 0,
  outcome: null,
};

const textOf = (html: string, testId: string) => new RegExp(`data-testid="${testId}"[^>]*>([^<]*)<`).exec(html)?.[1] ?? null;

describe("the run header after a model settings-edit", () => {
  it("shows the Actor model in force, not the one the run started with, and drops the demo badge", () => {
    const state = editedRun();
    const html = render(
      createElement(RunHeader, {
        runId: "run-1",
        branch: null,
        branchRows: [],
        currentBranchId: null,
        onSelectBranch: () => undefined,
        detail,
        state,
        status: "paused",
        connection: "idle",
      }),
    );
    expect(textOf(html, "run-model")).toBe("openai:gpt-4o-mini");
    expect(html).not.toContain('data-testid="demo-model-badge"');
  });
});

describe("the Steer tab after edits", () => {
  it("edits from the settings and template in force", () => {
    const html = render(createElement(SteerPanel, { runId: "run-1", branch: null, state: editedRun(), status: "paused" }));
    const actorForm = html.slice(html.indexOf('data-testid="model-settings-actor"'), html.indexOf('data-testid="model-settings-reflector"'));
    expect(actorForm).toMatch(/<option value="openai:gpt-4o-mini" selected="">/);
    expect(actorForm).toContain('value="0.5"');
    expect(actorForm).toContain('value="300"');
  });
});
