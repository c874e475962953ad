import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { EnvironmentsResponse } from "@/lib/domain/api";
import type { RunEvent } from "@/lib/domain/events";
import { foldRun } from "@/lib/domain/fold-run";
import { environmentEntry } from "@/lib/environments/registry";
import { queryKeys } from "@/lib/query/keys";
import { RunService } from "@/lib/server/run-service";
import { SteerPanel } from "@/components/run/steer-panel";
import { likelyMeant, UnknownPlaceholderWarning, unknownPlaceholders } from "@/components/run/unknown-placeholder-warning";
import { codeRun } from "./code-fixtures";

/** The Steer tab's warning about `{name}`s the family does not fill (they reach the model as literal text). */

const render = (placeholders: string[], known: string[] | undefined) => renderToStaticMarkup(createElement(UnknownPlaceholderWarning, { placeholders, known }));
/** The text of the markup, entities decoded. */
const textOf = (html: string) => html.replace(/<[^>]+>/g, "").replace(/&#x27;/g, "'").replace(/&quot;/g, '"').replace(/&amp;/g, "&");

describe("UnknownPlaceholderWarning", () => {
  const known = ["memory", "scratchpad", "signature"];

  it("names each unknown placeholder, says it stays literal text, and lists the known ones", () => {
    const html = render(["signature", "hidden_tests", "memory"], known);
    expect(html).toContain('data-testid="unknown-placeholder-warning"');
    expect(textOf(html)).toBe(
      "{hidden_tests} is not a placeholder this family fills; it will be sent to the model as literal text. Known: {memory}, {scratchpad}, {signature}.",
    );
  });

  it("uses the plural for several and suggests the known name a typo was meant to be", () => {
    const text = textOf(render(["memroy", "hidden_tests"], known));
    expect(text).toContain("{memroy}, {hidden_tests} are not placeholders this family fills; they will be sent to the model as literal text.");
    expect(text).toContain("Did you mean {memory} instead of {memroy}?");
    expect(text).not.toContain("instead of {hidden_tests}");
  });

  it("renders nothing when every placeholder is known, or while the known names are not loaded", () => {
    expect(render(["memory", "scratchpad"], known)).toBe("");
    expect(render(["hidden_tests"], undefined)).toBe("");
    expect(render(["hidden_tests"], [])).toBe("");
  });

  it("matches names exactly, as the engine does", () => {
    expect(unknownPlaceholders(["Memory", "memory"], known)).toEqual(["Memory"]);
    expect(likelyMeant("Memory", known)).toBe("memory");
    expect(likelyMeant("scratchpda", known)).toBe("scratchpad");
    expect(likelyMeant("feedback", known)).toBeNull();
  });
});

describe("the Steer tab's template editor", () => {
  it("warns about {hidden_tests} in a saved Actor template of a code run, with the names from GET /api/environments", () => {
    const run = codeRun();
    const events = run.log.events.slice(0, 2);
    const state0 = foldRun(events);
    const actor = state0.config!.templates.actor;
    // The fixture's config carries a QA template; the edit puts in the code family's own, plus one unknown name.
    const codeActorText = environmentEntry("code").family.defaultTemplates.actor.text;
    const edit = {
      ...events[0],
      id: "prompt-edit",
      seq: events.length + 1,
      type: "prompt-edit",
      data: { role: "actor", oldTemplate: actor, newTemplate: { ...actor, version: actor.version + 1, text: `${codeActorText}\n{hidden_tests}` }, note: null },
    } as RunEvent;
    const pause = { ...events[0], id: "pause", seq: events.length + 2, type: "run-pause", data: { reason: "user", detail: "paused", at: null } } as RunEvent;
    const state = foldRun([...events, edit, pause]);
    // The real response (no store or executor needed for it).
    const environments: EnvironmentsResponse = new RunService(null as never, null as never, null as never).environments();

    const client = new QueryClient();
    client.setQueryData(queryKeys.environments(), environments);
    const html = renderToStaticMarkup(
      createElement(QueryClientProvider, { client }, createElement(SteerPanel, { runId: "run-1", branch: null, state, status: "paused" })),
    );
    const actorEditor = html.slice(html.indexOf('data-testid="prompt-template-actor"'), html.indexOf('data-testid="prompt-template-reflector"'));
    expect(actorEditor).toContain('data-testid="unknown-placeholder-warning"');
    expect(textOf(actorEditor)).toContain("{hidden_tests} is not a placeholder this family fills");
    expect(textOf(actorEditor)).toContain("{previous_attempt}");
    expect(textOf(actorEditor)).not.toContain("{signature} is not");
  });
});
