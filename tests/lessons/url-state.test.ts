import { describe, expect, it } from "vitest";
import { nodeLinkHref } from "@/components/replay/copy-link-button";
import { replayKeyAction } from "@/components/replay/use-replay-keys";
import { parseRunUrlState, runMomentHref, serializeRunUrlState, type RunUrlState } from "@/lib/query/url-state";

/** Deep links: `?branch=&cursor=&node=` (+ `step=&present=1` in lessons) parse and serialise without loss. */
describe("URL state of a run's moment", () => {
  const full: RunUrlState = { branch: "br-2", cursor: 41, node: "0c1d9a8e-1111-4a5b-9c3d-2e4f5a6b7c8d", step: 3, present: true };

  it("round-trips every key, and the empty state is no query at all", () => {
    expect(parseRunUrlState(serializeRunUrlState(full))).toEqual(full);
    const empty: RunUrlState = { branch: null, cursor: null, node: null, step: null, present: false };
    expect(serializeRunUrlState(empty)).toBe("");
    expect(parseRunUrlState("")).toEqual(empty);
    // Cursor 0 (the run's start) is a position, not "none".
    expect(parseRunUrlState(serializeRunUrlState({ ...empty, cursor: 0 })).cursor).toBe(0);
  });

  it("keeps parameters it does not own, in front, and replaces its own", () => {
    const query = serializeRunUrlState({ cursor: 7, node: "n1" }, "?experimentId=e1&cursor=3&node=old&tab=x");
    const params = new URLSearchParams(query.slice(1));
    expect([...params.keys()]).toEqual(["experimentId", "tab", "cursor", "node"]);
    expect(params.get("cursor")).toBe("7");
    expect(params.get("node")).toBe("n1");
  });

  it("drops malformed values instead of failing: a link always opens", () => {
    expect(parseRunUrlState("?cursor=abc&step=0&node=&present=yes&branch=%20")).toEqual({ branch: null, cursor: null, node: null, step: null, present: false });
    expect(parseRunUrlState("?cursor=-4").cursor).toBeNull();
    expect(parseRunUrlState("?cursor=2.5").cursor).toBeNull();
    expect(parseRunUrlState("present=true").present).toBe(true);
  });

  it("encodes ids that need it, and a run link names only the run's keys", () => {
    const href = runMomentHref("run 1/x", { branch: "b&c", cursor: 5, node: "n=1", step: 2, present: true });
    expect(href).toBe("/runs/run%201%2Fx?branch=b%26c&cursor=5&node=n%3D1");
    expect(parseRunUrlState(href.slice(href.indexOf("?")))).toMatchObject({ branch: "b&c", cursor: 5, node: "n=1", step: null, present: false });
  });

  it("a copied node link keeps the moment and the lesson step but not presenter mode", () => {
    const href = nodeLinkHref({ origin: "http://127.0.0.1:3000", pathname: "/lessons/why-reflexion-qa", search: "?step=4&present=1&cursor=11&node=a" }, "b");
    const url = new URL(href);
    expect(url.pathname).toBe("/lessons/why-reflexion-qa");
    expect(parseRunUrlState(url.search)).toEqual({ branch: null, cursor: 11, node: "b", step: 4, present: false });
  });
});

describe("replay keys", () => {
  const key = (name: string, modifiers: Partial<Record<"shiftKey" | "ctrlKey" | "metaKey" | "altKey", boolean>> = {}) =>
    replayKeyAction({ key: name, shiftKey: false, ctrlKey: false, metaKey: false, altKey: false, ...modifiers });

  it("map to one event, one step, one trial, both ways; play; the ends", () => {
    expect(key(".")).toEqual({ kind: "move", unit: "event", direction: 1 });
    expect(key(",")).toEqual({ kind: "move", unit: "event", direction: -1 });
    expect(key("]")).toEqual({ kind: "move", unit: "step", direction: 1 });
    expect(key("[")).toEqual({ kind: "move", unit: "step", direction: -1 });
    expect(key("}")).toEqual({ kind: "move", unit: "trial", direction: 1 });
    expect(key("ArrowLeft", { shiftKey: true })).toEqual({ kind: "move", unit: "trial", direction: -1 });
    expect(key("p")).toEqual({ kind: "toggle-play" });
    expect(key("Home")).toEqual({ kind: "start" });
    expect(key("End")).toEqual({ kind: "live" });
  });

  it("leave plain arrows (the lesson's, the resizer's), PageUp/PageDown and modified keys alone", () => {
    expect(key("ArrowRight")).toBeNull();
    expect(key("ArrowLeft")).toBeNull();
    expect(key("PageDown")).toBeNull();
    expect(key("Escape")).toBeNull();
    expect(key(".", { ctrlKey: true })).toBeNull();
    expect(key("p", { metaKey: true })).toBeNull();
  });
});
