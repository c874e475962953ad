import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createElement, type ReactElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { RunDetailResponse } from "@/lib/domain/api";
import { foldRun } from "@/lib/domain/fold-run";
import { LOCAL_PRINCIPAL, type MeResponse, type Role } from "@/lib/domain/roles";
import { meKey } from "@/lib/query/me-queries";
import { RunUiStoreProvider } from "@/lib/store";
import { AdminOnly } from "@/components/auth/admin-only";
import { RunCosts } from "@/components/costs/run-costs";
import { MemoryPanel } from "@/components/memory/memory-panel";
import { RunHeader } from "@/components/run/run-header";
import { EventLog, makeRunConfig } from "../graph/fixtures";

/**
 * What each role sees, rendered to static markup: the run controls give way to "read-only: <reason>",
 * the memory editors of a paused run likewise, and an admin-only page says so to others. With sign-in
 * off the page is as it always was.
 */

function render(element: ReactElement, me?: MeResponse): string {
  const client = new QueryClient();
  if (me) client.setQueryData(meKey(), me);
  return renderToStaticMarkup(createElement(QueryClientProvider, { client }, createElement(RunUiStoreProvider, null, element)));
}

const me = (role: Role): MeResponse => ({ signIn: "on", principal: { kind: "person", userId: `user-${role}`, name: role, email: null, role, tokenId: null } });

function pausedState() {
  const log = new EventLog();
  log.add("run-start", { config: makeRunConfig() });
  log.add("trial-start", { trial: 1, memory: [], evicted: [] });
  return foldRun(log.events);
}

const detail: RunDetailResponse["run"] = {
  id: "run-1",
  createdAt: "2026-12-05T12:00:00.000Z",
  environment: "qa",
  taskId: "qa-builtin-01",
  title: "Which number comes after 1?",
  strategy: "reflexion",
  modelId: "demo",
  status: "paused",
  activeCall: null,
  setting: null,
  trials: 0,
  outcome: null,
  rootBranchId: "branch-1",
  experiment: null,
  ownerUserId: "user-runner",
};

const header = (readOnly: string | null) =>
  render(
    createElement(RunHeader, { runId: "run-1", branch: null, branchRows: [], currentBranchId: null, onSelectBranch: () => undefined, detail, state: pausedState(), status: "paused", connection: "live", readOnly }),
  );

describe("hiding what a role cannot do", () => {
  it("the header shows Pause / Resume / Cancel to whoever may change the run, and a read-only line to others", () => {
    const allowed = header(null);
    expect(allowed).toContain('data-testid="resume-run"');
    expect(allowed).toContain('data-testid="cancel-run"');
    expect(allowed).not.toContain("role-read-only");
    const refused = header("viewers can look at runs but not change them");
    expect(refused).not.toContain('data-testid="resume-run"');
    expect(refused).not.toContain('data-testid="cancel-run"');
    expect(refused).toContain("read-only: viewers can look at runs but not change them");
  });

  it("a paused run's memory editors are offered only when the run may be changed", () => {
    const props = { runId: "run-1", state: pausedState(), status: "paused" as const };
    expect(render(createElement(MemoryPanel, props))).toContain('data-testid="memory-edit-area"');
    const refused = render(createElement(MemoryPanel, { ...props, readOnly: "this run is someone else's; only its owner or an admin may change it" }));
    expect(refused).not.toContain('data-testid="memory-edit-area"');
    expect(refused).toContain("read-only: this run is someone else&#x27;s");
  });

  it("a run stopped by its budget offers resuming with a new budget only to whoever may change it", () => {
    const props = { runId: "run-1", branch: null, state: pausedState(), status: "budget-exhausted" as const };
    expect(render(createElement(RunCosts, props))).toContain('data-testid="budget-resume"');
    const refused = render(createElement(RunCosts, { ...props, readOnly: "viewers can look at runs but not change them" }));
    expect(refused).toContain('data-testid="budget-banner"');
    expect(refused).not.toContain('data-testid="budget-resume"');
    expect(refused).toContain("read-only: viewers can look at runs but not change them");
  });

  it("an admin-only page shows its content to admins and with sign-in off, and 'admins only' to a runner or viewer", () => {
    const page = createElement(AdminOnly, { what: "Settings" }, createElement("p", { "data-testid": "secret-settings" }, "providers"));
    expect(render(page, me("admin"))).toContain("secret-settings");
    expect(render(page, { signIn: "off", principal: LOCAL_PRINCIPAL })).toContain("secret-settings");
    for (const role of ["runner", "viewer"] as const) {
      const html = render(page, me(role));
      expect(html).not.toContain("secret-settings");
      expect(html).toContain("Settings: admins only.");
      expect(html).toContain(`You are signed in as a ${role}.`);
    }
    expect(render(page, { signIn: "on", principal: null })).toContain("You are not signed in.");
  });
});
